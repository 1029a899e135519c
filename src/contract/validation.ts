import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describeError } from './error-text.js';

/**
 * The one validation layer: every request body, query string and path parameter of every surface
 * (v2, v1, the site's endpoints, chunk uploads, A2A and the MCP tool) is checked against a JSON
 * Schema of src/contract by this Ajv instance (the HTTP routes get it as Fastify's validator
 * compiler), with error strings that name the field and the rule (`files[2].filesize must be greater
 * than 0`). No coercion, no defaults, no stripping: a value that is not exactly what the schema
 * allows is refused and nothing is changed. One rule no schema keyword states is applied to every
 * validated value, so that no route can forget it: no string and no property name may contain a
 * control character (Unicode category Cc: U+0000-U+001F, U+007F-U+009F). PostgreSQL cannot store
 * U+0000, a line break in an e-mail address or a URL is a header injection or a parser difference
 * waiting to happen, and no field of any surface needs one (opaque values are base64, titles and
 * names are one line).
 *
 * A schema may carry `errorMessage`: the wording for any failure of that subschema (`is malformed`
 * for an id), or per keyword (`{enum: 'must be "send" or "share"'}`), where Ajv's own would be less
 * clear. `publishable()` removes it from a schema that is published.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
/** The options of the contract's Ajv; the page's answer validators are compiled ahead of time with them. */
export const AJV_OPTIONS = {
  allErrors: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: true,
  // Errors carry their subschema, for `errorMessage`.
  verbose: true,
} as const;
const ajv = addFormats(new Ajv(AJV_OPTIONS));
ajv.addKeyword({ keyword: 'errorMessage', schemaType: ['string', 'object'] });

/** A copy of `schema` without the validation-only `errorMessage` keyword, for publishing. */
export function publishable<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(publishable) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'errorMessage')
      .map(([key, value]) => [key, publishable(value)]),
  ) as T;
}

// The wording lives apart from Ajv so that the page's ahead-of-time validators share it.
export { describeError } from './error-text.js';

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string };

/** Unicode's control characters (category Cc): C0, DEL and C1. */
const CONTROL = /\p{Cc}/u;

/** The path of the first string (or property name) in `value` with a control character, or null. */
function controlPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path : null;
  // Validated values are JSON: deeper than this is refused by the schemas long before.
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlPath(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (CONTROL.test(key)) return keyPath;
    const found = controlPath(child, keyPath, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The refusal of a control character: stable wording the tests and clients can rely on. */
export const CONTROL_CHARACTER_RULE = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F)';

const schemaCache = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/**
 * The schema alone, without the control-character rule: what the clients check a server's answers
 * with (src/contract/answer-validators.ts). A title stored before that rule existed must still open.
 */
export function compileShapeValidator<T>(schema: object, rootName = 'body'): (value: unknown) => Validated<T> {
  let validate = schemaCache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    schemaCache.set(schema, validate);
  }
  const check = validate;
  return (value) => {
    if (check(value)) return { ok: true, value: value as T };
    const first = check.errors?.[0];
    return { ok: false, error: first ? describeError(first, rootName) : `${rootName} is invalid` };
  };
}

export function compileValidator<T>(schema: object, rootName = 'body'): (value: unknown) => Validated<T> {
  const shaped = compileShapeValidator<T>(schema, rootName);
  return (value) => {
    const checked = shaped(value);
    if (!checked.ok) return checked;
    const control = controlPath(value, '');
    if (control !== null) return { ok: false, error: `${control || rootName} ${CONTROL_CHARACTER_RULE}` };
    return checked;
  };
}
