/**
 * The small JSON Schema pieces the contract's answer schemas are written with (answers.ts, admin.ts):
 * one definition, so that every answer object means the same thing by "exact".
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
