import IntlMessageFormat from 'intl-messageformat';
import { type Catalog, EN, type MessageKey, selectorsOf } from './catalog.js';

/**
 * The site's words: one ICU MessageFormat catalog per language (web/src/i18n/messages/<locale>.json,
 * en.json the reference), formatted by FormatJS's intl-messageformat; `t(key, params)` says something
 * in the chosen language. DOM-free (the session and node:test use it too). English is in the bundle;
 * the others are loaded when chosen (`setLanguage`), each a small file of its own.
 */
export type { MessageKey } from './catalog.js';

/** Every language the site speaks, by BCP 47 tag, named in itself (the language switch lists them in this order). */
export const LANGUAGES = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  ko: '한국어',
  'zh-Hans': '简体中文',
} as const;
export type Language = keyof typeof LANGUAGES;

type Loader = () => Promise<{ default: Catalog }>;
/** Each catalog a chunk of its own, fetched the first time its language is chosen. */
const LOADERS: Readonly<Record<Exclude<Language, 'en'>, Loader>> = {
  de: () => import('./messages/de.json', { with: { type: 'json' } }),
  es: () => import('./messages/es.json', { with: { type: 'json' } }),
  fr: () => import('./messages/fr.json', { with: { type: 'json' } }),
  it: () => import('./messages/it.json', { with: { type: 'json' } }),
  nl: () => import('./messages/nl.json', { with: { type: 'json' } }),
  pl: () => import('./messages/pl.json', { with: { type: 'json' } }),
  'pt-BR': () => import('./messages/pt-BR.json', { with: { type: 'json' } }),
  ja: () => import('./messages/ja.json', { with: { type: 'json' } }),
  ko: () => import('./messages/ko.json', { with: { type: 'json' } }),
  'zh-Hans': () => import('./messages/zh-Hans.json', { with: { type: 'json' } }),
};

const loaded = new Map<Language, Catalog>([['en', EN]]);
let current: Language = 'en';
/** The chosen language's compiled messages (and which of their arguments select a form), compiled when first used. */
let compiled = new Map<MessageKey, { format: IntlMessageFormat; selectors: Set<string> }>();

/** A language's catalog, loaded once. */
export async function loadCatalog(lang: Language): Promise<Catalog> {
  const have = loaded.get(lang);
  if (have) return have;
  const catalog = (await LOADERS[lang as Exclude<Language, 'en'>]()).default;
  loaded.set(lang, catalog);
  return catalog;
}

export function language(): Language {
  return current;
}

/** Chooses the language, loading its catalog first (English is always there). */
export async function setLanguage(lang: Language): Promise<void> {
  await loadCatalog(lang);
  current = lang;
  compiled = new Map();
}

/** Whether the catalogs have a message under this key (a key made from data: a server's error code). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(EN, key);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value);
}

/**
 * The first supported language of a preference list (`navigator.languages`), else English. A tag
 * matches by its language ("de-AT" is de); Portuguese is pt-BR, and Chinese is zh-Hans unless the
 * tag names Traditional script or a region that writes it (Taiwan, Hong Kong, Macao).
 */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const parts = tag.toLowerCase().split(/[-_]/);
    const base = parts[0];
    if (base === 'pt') return 'pt-BR';
    if (base === 'zh') {
      if (parts.some((p) => ['hant', 'tw', 'hk', 'mo'].includes(p))) continue;
      return 'zh-Hans';
    }
    if (base !== 'pt' && base !== 'zh' && isLanguage(base)) return base;
  }
  return 'en';
}

export type Params = Readonly<Record<string, string | number>>;

function message(key: MessageKey): { format: IntlMessageFormat; selectors: Set<string> } {
  let m = compiled.get(key);
  if (!m) {
    const source = loaded.get(current)?.[key] ?? EN[key];
    const format = new IntlMessageFormat(source, current);
    m = { format, selectors: selectorsOf(format.getAst()) };
    compiled.set(key, m);
  }
  return m;
}

/**
 * The values for a message: numbers in the language's own way (1.234 in German), except those that
 * choose a plural form (ICU formats its `#` itself).
 */
function values<N>(
  selectors: Set<string>,
  params: Params,
  nodes: Readonly<Record<string, N>> = {},
): Record<string, string | number | N> {
  const out: Record<string, string | number | N> = { ...nodes };
  for (const [name, v] of Object.entries(params))
    out[name] = typeof v === 'number' && !selectors.has(name) ? v.toLocaleString(current) : v;
  return out;
}

/** The message `key` in the chosen language with its parameters filled in (a plural message by `count`). */
export function t(key: MessageKey, params: Params = {}): string {
  const { format, selectors } = message(key);
  return String(format.format(values(selectors, params)));
}

/**
 * A message with elements in it (a link in a sentence): the parts in order, each argument whose
 * value is in `nodes` replaced by that value, the rest filled in as `t` does.
 */
export function tParts<N extends object>(
  key: MessageKey,
  nodes: Readonly<Record<string, N>>,
  params: Params = {},
): Array<string | N> {
  const { format, selectors } = message(key);
  const result = format.format<N>(values(selectors, params, nodes));
  const parts = Array.isArray(result) ? result : [result];
  return parts.filter((p): p is string | N => p !== '');
}
