/**
 * The small JSON Schema pieces the contract's schemas are written with (answers.ts, admin.ts,
 * requests.ts): one definition, so that every answer object means the same thing by "exact", and
 * every page size is checked against its limit itself.
 */
export const int = { type: 'integer' } as const;
export const strOrNull = { type: ['string', 'null'] } as const;
export const intOrNull = { type: ['integer', 'null'] } as const;

/**
 * An answer object as the server writes it: exactly these properties, all present. Clients read it
 * through `tolerant` (answers.ts), which lets added properties through.
 */
export function object<const P extends Record<string, object>>(properties: P) {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties) as (keyof P & string)[],
    properties,
  } as const;
}

/**
 * A regular expression source for the whole numbers 1 to `max` in decimal, without leading zeros
 * (a query string's page size is text): `upTo(200)` is `[1-9]\d{0,1}|1\d{2}|200`.
 */
export function upTo(max: number): string {
  const digits = String(max);
  const shorter = digits.length > 1 ? [`[1-9]${digits.length > 2 ? `\\d{0,${digits.length - 2}}` : ''}`] : [];
  const sameLength: string[] = [];
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0;
    const high = Number(digits[i]) - 1;
    if (high < low) continue;
    const rest = digits.length - i - 1;
    const tail = rest === 0 ? '' : rest === 1 ? '\\d' : `\\d{${rest}}`;
    sameLength.push(`${digits.slice(0, i)}${low === high ? low : `[${low}-${high}]`}${tail}`);
  }
  return [...shorter, ...sameLength, digits].join('|');
}
