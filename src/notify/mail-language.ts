import IntlMessageFormat from 'intl-messageformat';
import { MAIL_MESSAGES } from './mail-messages.js';

/**
 * A mail in its reader's language: the page's language when the mail was asked for (the owner's page
 * sends it with the notification setting), else English. Formatted as the page formats its words.
 */
export type MailLanguage = keyof typeof MAIL_MESSAGES;
type MailKey = keyof (typeof MAIL_MESSAGES)['en'];

const TAGS = Object.keys(MAIL_MESSAGES) as MailLanguage[];

/** The mail language for a page's tag: that tag, else one of the same language, else English. */
export function mailLanguage(tag: string | null | undefined): MailLanguage {
  if (!tag) return 'en';
  const wanted = tag.toLowerCase();
  return (
    TAGS.find((t) => t.toLowerCase() === wanted) ??
    TAGS.find((t) => t.toLowerCase().split('-')[0] === wanted.split('-')[0]) ??
    'en'
  );
}

export function mailText(lang: MailLanguage, key: MailKey, values: Readonly<Record<string, string | number>>): string {
  return String(new IntlMessageFormat(MAIL_MESSAGES[lang][key], lang).format(values));
}
