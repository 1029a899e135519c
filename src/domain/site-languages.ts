/**
 * The languages the site speaks, by BCP 47 tag: the server's one list of them. The page's own table
 * (web/src/i18n/languages.ts, with names, direction and catalogs) lists the same tags, which
 * test/unit/mail-language.test.ts checks; the mails' words (src/notify/mail-messages.ts) must have
 * every one of them, which the compiler checks.
 */
export const SITE_LANGUAGES = [
  'en',
  'de',
  'es',
  'fr',
  'it',
  'nl',
  'pl',
  'pt-BR',
  'pt-PT',
  'ja',
  'ko',
  'zh-Hans',
  'zh-Hant',
  'sv',
  'da',
  'nb',
  'fi',
  'cs',
  'ro',
  'el',
  'hu',
  'th',
  'bn',
  'ar',
  'he',
  'fa',
  'ru',
  'uk',
  'tr',
  'hi',
  'id',
  'vi',
] as const;

export type SiteLanguage = (typeof SITE_LANGUAGES)[number];

/**
 * The site language for a tag a page sent: that one (in any case), else the first of the same
 * language (`de-AT` → `de`, `pt` → `pt-BR`), else null: a language the site does not speak.
 */
export function siteLanguage(tag: string | null | undefined): SiteLanguage | null {
  if (!tag) return null;
  const wanted = tag.toLowerCase();
  const base = wanted.split('-')[0];
  return (
    SITE_LANGUAGES.find((t) => t.toLowerCase() === wanted) ??
    SITE_LANGUAGES.find((t) => t.toLowerCase().split('-')[0] === base) ??
    null
  );
}
