import IntlMessageFormat from 'intl-messageformat';
import { type Catalog, EN, type MessageKey, selectorsOf } from './catalog.js';
import { LANGUAGE_TABLE, type Language } from './languages.js';

/**
 * The site's words: one ICU MessageFormat catalog per language (web/src/i18n/messages/<locale>.json,
 * en.json the reference), formatted by FormatJS's intl-messageformat; `t(key, params)` says something
 * in the chosen language. DOM-free (the session and node:test use it too). English is in the bundle;
 * the others are loaded when chosen (`setLanguage`), each a small file of its own.
 */
export type { MessageKey } from './catalog.js';

export type { Language } from './languages.js';

/** Every language the site speaks, by BCP 47 tag, named in itself (the language switch lists them in this order). */
export const LANGUAGES = Object.fromEntries(
  Object.entries(LANGUAGE_TABLE).map(([tag, entry]) => [tag, entry.name]),
) as Readonly<Record<Language, string>>;

/** Whether a language is written right to left (the page's `dir`). */
export function isRightToLeft(lang: Language): boolean {
  return 'rtl' in LANGUAGE_TABLE[lang];
}

const loaded = new Map<Language, Catalog>([['en', EN]]);
let current: Language = 'en';
/** The chosen language's compiled messages (and which of their arguments select a form), compiled when first used. */
let compiled = new Map<MessageKey, { format: IntlMessageFormat; selectors: Set<string> }>();

/** A language's catalog, loaded once. */
export async function loadCatalog(lang: Language): Promise<Catalog> {
  const have = loaded.get(lang);
  if (have) return have;
  const load = LANGUAGE_TABLE[lang].load;
  const catalog = load ? (await load()).default : EN;
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

/** Languages read by the readers of another (Norwegian Nynorsk and the macrolanguage tag read Bokmål). */
const READ_AS: Readonly<Record<string, string>> = { no: 'nb', nn: 'nb' };

/**
 * Regions whose written standard is another region's (CLDR's parentLocales): Portuguese outside
 * Brazil follows European Portuguese, so a reader in Angola or Mozambique gets pt-PT, not pt-BR.
 */
const PARENT_REGION: Readonly<Record<string, string>> = Object.fromEntries(
  ['AO', 'CH', 'CV', 'FR', 'GQ', 'GW', 'LU', 'MO', 'MZ', 'ST', 'TL'].map((region) => [`pt-${region}`, 'pt-PT']),
);

function maximized(tag: string): { language: string; script: string; region: string } | null {
  try {
    const locale = new Intl.Locale(tag.replace(/_/g, '-')).maximize();
    const language = READ_AS[locale.language] ?? locale.language;
    return { language, script: locale.script ?? '', region: locale.region ?? '' };
  } catch {
    return null;
  }
}

/** A language's tag with its language and script filled in ("pt-BR" is pt, Latn). */
function described(tag: Language): { tag: Language; language: string; script: string } {
  const { language, script } = new Intl.Locale(tag).maximize();
  return { tag, language, script: script ?? '' };
}
const SUPPORTED = (Object.keys(LANGUAGE_TABLE) as Language[]).map(described);

/**
 * The first language of a preference list (`navigator.languages`) the site speaks, else English.
 * A tag gets its own language and region if the site has it ("pt-PT"), else its language in its
 * script ("zh-TW" is zh-Hant), else the language alone ("de-AT" is de), else another variant of the
 * language in the same script ("pt-PT" is pt-BR when there is no pt-PT). Never a variant in another
 * script: a reader of Traditional Chinese is given Simplified only if the list asks for it too. A
 * region whose standard is another's gets that one first ("pt-AO" is pt-PT).
 * `offered` is the languages to choose among (all of them unless said).
 */
export function pickLanguage(preferred: readonly string[], offered: readonly Language[] | null = null): Language {
  const supported = offered ? offered.map(described) : SUPPORTED;
  for (const tag of preferred) {
    const wanted = maximized(tag);
    if (!wanted) continue;
    const regional = `${wanted.language}-${wanted.region}`;
    const exact = [regional, PARENT_REGION[regional] ?? '', `${wanted.language}-${wanted.script}`, wanted.language];
    const found =
      supported.find((s) => exact.some((e) => e.toLowerCase() === s.tag.toLowerCase())) ??
      supported.find((s) => s.language === wanted.language && s.script === wanted.script);
    if (found) return found.tag;
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
