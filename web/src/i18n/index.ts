import type { Catalog, Message, MessageKey } from './catalog.js';
import { de } from './de.js';
import { en } from './en.js';
import { ko } from './ko.js';

/**
 * The site's words: one catalog per language (en.ts is the reference), `t(key, params)` to say
 * something in the chosen language. DOM-free (the session and node:test use it too); the page
 * picks the language at start (web/src/i18n/choose.ts) with `setLanguage`.
 */
export type { MessageKey } from './catalog.js';

export const LANGUAGES = { en: 'English', de: 'Deutsch', ko: '한국어' } as const;
export type Language = keyof typeof LANGUAGES;

export const CATALOGS: Readonly<Record<Language, Catalog>> = { en, de, ko };

let current: Language = 'en';
let plurals = new Intl.PluralRules('en');

export function language(): Language {
  return current;
}

export function setLanguage(lang: Language): void {
  current = lang;
  plurals = new Intl.PluralRules(lang);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value);
}

/** The first supported language of a preference list (`navigator.languages`: "de-AT" means de), else English. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export type Params = Readonly<Record<string, string | number>>;

function form(message: Message, params: Params): string {
  if (typeof message === 'string') return message;
  const count = Number(params.count ?? 0);
  return message[plurals.select(count)] ?? message.other;
}

/** Numbers in the language's own way (1.234 in German); strings as given. */
function value(v: string | number): string {
  return typeof v === 'number' ? v.toLocaleString(current) : v;
}

/** The message `key` in the chosen language with its parameters filled in (a plural message by `count`). */
export function t(key: MessageKey, params: Params = {}): string {
  return fill(form(CATALOGS[current][key] ?? en[key], params), params);
}

/**
 * A message with elements in it (a link in a sentence): the parts in order, each `{name}` whose
 * value is in `nodes` replaced by that value, the rest filled in as `t` does.
 */
export function tParts<N>(key: MessageKey, nodes: Readonly<Record<string, N>>, params: Params = {}): Array<string | N> {
  const message = form(CATALOGS[current][key] ?? en[key], params);
  const parts: Array<string | N> = [];
  let last = 0;
  for (const m of message.matchAll(/\{(\w+)\}/g)) {
    const name = m[1]!;
    if (!(name in nodes)) continue;
    parts.push(fill(message.slice(last, m.index), params), nodes[name]!);
    last = m.index + m[0].length;
  }
  parts.push(fill(message.slice(last), params));
  return parts.filter((p) => p !== '');
}

function fill(text: string, params: Params): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? value(params[name]!) : whole));
}
