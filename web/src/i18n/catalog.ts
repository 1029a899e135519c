import type { en } from './en.js';

/** A message: a string with `{name}` parameters, or plural forms (Intl.PluralRules categories) chosen by `count`. */
export type Message = string | ({ readonly [category in Intl.LDMLPluralRule]?: string } & { readonly other: string });

/** The message keys: en.ts is the reference; every other catalog has exactly its keys. */
export type MessageKey = keyof typeof en;

export type Catalog = { readonly [K in MessageKey]: Message };

/** The `{name}` parameters a message uses (over all its plural forms). */
export function parametersOf(message: Message): string[] {
  const forms = typeof message === 'string' ? [message] : Object.values(message);
  const names = new Set<string>();
  for (const form of forms) for (const m of form.matchAll(/\{(\w+)\}/g)) names.add(m[1]!);
  return [...names].sort();
}
