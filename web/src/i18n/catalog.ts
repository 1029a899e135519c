import {
  isArgumentElement,
  isDateElement,
  isLiteralElement,
  isNumberElement,
  isPluralElement,
  isPoundElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import en from './messages/en.json' with { type: 'json' };

/**
 * A catalog: one ICU MessageFormat string per key, kept as JSON in web/src/i18n/messages/<locale>.json
 * (the format Crowdin, Weblate, Transifex, Lokalise and Phrase read). en.json is the reference;
 * every other catalog has exactly its keys with the same arguments (test/site/i18n.test.ts).
 */
export type MessageKey = keyof typeof en;
export type Catalog = { readonly [K in MessageKey]: string };

export const EN: Catalog = en;

/** The arguments a message uses, each as `name` or `name:kind` (number, date, time, select, plural, tag), sorted. */
export function argumentsOf(elements: readonly MessageFormatElement[]): string[] {
  const names = new Set<string>();
  const walk = (els: readonly MessageFormatElement[]) => {
    for (const el of els) {
      if (isLiteralElement(el) || isPoundElement(el)) continue;
      if (isTagElement(el)) {
        names.add(`${el.value}:tag`);
        walk(el.children);
        continue;
      }
      const kind = isArgumentElement(el)
        ? ''
        : isNumberElement(el)
          ? ':number'
          : isDateElement(el)
            ? ':date'
            : isTimeElement(el)
              ? ':time'
              : isSelectElement(el)
                ? ':select'
                : ':plural';
      names.add(`${el.value}${kind}`);
      if (isPluralElement(el) || isSelectElement(el)) for (const o of Object.values(el.options)) walk(o.value);
    }
  };
  walk(elements);
  return [...names].sort();
}

/** The names of a message's plural and select arguments: those stay numbers; the others are formatted first. */
export function selectorsOf(elements: readonly MessageFormatElement[]): Set<string> {
  return new Set(
    argumentsOf(elements)
      .filter((a) => a.endsWith(':plural') || a.endsWith(':select'))
      .map((a) => a.split(':')[0]!),
  );
}
