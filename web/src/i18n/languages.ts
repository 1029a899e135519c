import type { Catalog } from './catalog.js';

/**
 * Every language the site speaks, by BCP 47 tag, in the order the language switch lists them.
 * Adding a language is two things: its catalog web/src/i18n/messages/<tag>.json (every key of
 * en.json) and its one entry here. docs/contributing/translations.md says how; test/site/i18n.test.ts
 * checks the catalog, and that the docs' table of languages says what this one says.
 *
 * - `name`: the language named in itself, as the switch shows it.
 * - `rtl`: written right to left (the page sets `dir="rtl"` and mirrors its layout).
 * - `reviewed`: a reader of the language has read the whole catalog; false for a machine-made or
 *   unchecked first draft, which the docs mark as such until someone has.
 * - `load`: the catalog, a chunk of its own fetched the first time the language is chosen
 *   (English is in the bundle).
 */
interface LanguageEntry {
  readonly name: string;
  readonly rtl?: true;
  readonly reviewed: boolean;
  readonly load: (() => Promise<{ default: Catalog }>) | null;
}

export const LANGUAGE_TABLE = {
  en: { name: 'English', reviewed: true, load: null },
  de: { name: 'Deutsch', reviewed: false, load: () => import('./messages/de.json', { with: { type: 'json' } }) },
  es: { name: 'Español', reviewed: false, load: () => import('./messages/es.json', { with: { type: 'json' } }) },
  fr: { name: 'Français', reviewed: false, load: () => import('./messages/fr.json', { with: { type: 'json' } }) },
  it: { name: 'Italiano', reviewed: false, load: () => import('./messages/it.json', { with: { type: 'json' } }) },
  nl: { name: 'Nederlands', reviewed: false, load: () => import('./messages/nl.json', { with: { type: 'json' } }) },
  pl: { name: 'Polski', reviewed: false, load: () => import('./messages/pl.json', { with: { type: 'json' } }) },
  'pt-BR': {
    name: 'Português (Brasil)',
    reviewed: false,
    load: () => import('./messages/pt-BR.json', { with: { type: 'json' } }),
  },
  'pt-PT': {
    name: 'Português (Portugal)',
    reviewed: false,
    load: () => import('./messages/pt-PT.json', { with: { type: 'json' } }),
  },
  ja: { name: '日本語', reviewed: false, load: () => import('./messages/ja.json', { with: { type: 'json' } }) },
  ko: { name: '한국어', reviewed: false, load: () => import('./messages/ko.json', { with: { type: 'json' } }) },
  'zh-Hans': {
    name: '简体中文',
    reviewed: false,
    load: () => import('./messages/zh-Hans.json', { with: { type: 'json' } }),
  },
  'zh-Hant': {
    name: '繁體中文',
    reviewed: false,
    load: () => import('./messages/zh-Hant.json', { with: { type: 'json' } }),
  },
  sv: { name: 'Svenska', reviewed: false, load: () => import('./messages/sv.json', { with: { type: 'json' } }) },
  da: { name: 'Dansk', reviewed: false, load: () => import('./messages/da.json', { with: { type: 'json' } }) },
  nb: { name: 'Norsk bokmål', reviewed: false, load: () => import('./messages/nb.json', { with: { type: 'json' } }) },
  fi: { name: 'Suomi', reviewed: false, load: () => import('./messages/fi.json', { with: { type: 'json' } }) },
  cs: { name: 'Čeština', reviewed: false, load: () => import('./messages/cs.json', { with: { type: 'json' } }) },
  ro: { name: 'Română', reviewed: false, load: () => import('./messages/ro.json', { with: { type: 'json' } }) },
  el: { name: 'Ελληνικά', reviewed: false, load: () => import('./messages/el.json', { with: { type: 'json' } }) },
  hu: { name: 'Magyar', reviewed: false, load: () => import('./messages/hu.json', { with: { type: 'json' } }) },
  th: { name: 'ไทย', reviewed: false, load: () => import('./messages/th.json', { with: { type: 'json' } }) },
  bn: { name: 'বাংলা', reviewed: false, load: () => import('./messages/bn.json', { with: { type: 'json' } }) },
  ar: {
    name: 'العربية',
    rtl: true,
    reviewed: false,
    load: () => import('./messages/ar.json', { with: { type: 'json' } }),
  },
  he: {
    name: 'עברית',
    rtl: true,
    reviewed: false,
    load: () => import('./messages/he.json', { with: { type: 'json' } }),
  },
  fa: {
    name: 'فارسی',
    rtl: true,
    reviewed: false,
    load: () => import('./messages/fa.json', { with: { type: 'json' } }),
  },
  ru: {
    name: 'Русский',
    reviewed: false,
    load: () => import('./messages/ru.json', { with: { type: 'json' } }),
  },
  uk: {
    name: 'Українська',
    reviewed: false,
    load: () => import('./messages/uk.json', { with: { type: 'json' } }),
  },
  tr: {
    name: 'Türkçe',
    reviewed: false,
    load: () => import('./messages/tr.json', { with: { type: 'json' } }),
  },
  hi: {
    name: 'हिन्दी',
    reviewed: false,
    load: () => import('./messages/hi.json', { with: { type: 'json' } }),
  },
  id: {
    name: 'Bahasa Indonesia',
    reviewed: false,
    load: () => import('./messages/id.json', { with: { type: 'json' } }),
  },
  vi: {
    name: 'Tiếng Việt',
    reviewed: false,
    load: () => import('./messages/vi.json', { with: { type: 'json' } }),
  },
} as const satisfies Record<string, LanguageEntry>;

export type Language = keyof typeof LANGUAGE_TABLE;
