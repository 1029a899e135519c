import IntlMessageFormat from 'intl-messageformat';
import { type SiteLanguage, siteLanguage } from '../domain/site-languages.js';
import { MAIL_MESSAGES } from './mail-messages.js';

/**
 * A mail in its reader's language: the confirmation in the page's language when it was asked for,
 * the owner's notifications in the one stored with the folder's settings (the page sends it with
 * them); else English. Formatted as the page formats its words.
 */
type MailKey = keyof (typeof MAIL_MESSAGES)['en'];

/** The mail language for a tag: that site language, else one of the same language, else English. */
export function mailLanguage(tag: string | null | undefined): SiteLanguage {
  return siteLanguage(tag) ?? 'en';
}

export function mailText(lang: SiteLanguage, key: MailKey, values: Readonly<Record<string, string | number>>): string {
  return String(new IntlMessageFormat(MAIL_MESSAGES[lang][key], lang).format(values));
}
