import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createRequestSchema } from './schemas.js';
import type { CreateRequest } from './types.js';

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
const ajv = addFormats(
  new Ajv({
    allErrors: false,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    strict: true,
    // Errors carry their subschema, for `errorMessage`.
    verbose: true,
  }),
);
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

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string };

/** `/files/2/filesize` -> `files[2].filesize`; the root is called `body`. */
export function fieldPath(instancePath: string, rootName = 'body'): string {
  if (instancePath === '') return rootName;
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** A property of the value at `path`: at the root, the property's own name (`title`, not `body.title`). */
function join(path: string, child: string, atRoot: boolean): string {
  return atRoot ? child : `${path}.${child}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  object: 'a JSON object',
  array: 'an array',
  boolean: 'a boolean',
  null: 'null',
};

export function describeError(e: ErrorObject, rootName = 'body'): string {
  const path = fieldPath(e.instancePath, rootName);
  const p = e.params as Record<string, unknown>;
  const custom = (e.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
  const wording = typeof custom === 'string' ? custom : (custom as Record<string, unknown> | undefined)?.[e.keyword];
  if (typeof wording === 'string') {
    if (e.keyword === 'additionalProperties')
      return `${join(path, String(p.additionalProperty), e.instancePath === '')} ${wording}`;
    if (e.keyword === 'required') return `${join(path, String(p.missingProperty), e.instancePath === '')} ${wording}`;
    return `${path} ${wording}`;
  }
  switch (e.keyword) {
    case 'required':
      return `${join(path, String(p.missingProperty), e.instancePath === '')} is required`;
    case 'additionalProperties':
      return `${join(path, String(p.additionalProperty), e.instancePath === '')} is not an allowed property`;
    case 'type': {
      const types = String(p.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t);
      return `${path} must be ${types.join(' or ')}`;
    }
    case 'maxLength':
      return `${path} must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return p.limit === 1 ? `${path} must not be empty` : `${path} must be at least ${String(p.limit)} characters`;
    case 'enum':
      return `${path} must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${path} must be ${JSON.stringify(p.allowedValue)}`;
    case 'exclusiveMinimum':
      return `${path} must be greater than ${String(p.limit)}`;
    case 'minimum':
      return `${path} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${path} must be at most ${String(p.limit)}`;
    case 'maxItems':
      return `${path} must have at most ${String(p.limit)} items`;
    case 'minItems':
      return p.limit === 1 ? `${path} must not be empty` : `${path} must have at least ${String(p.limit)} items`;
    case 'pattern':
      return `${path} is malformed`;
    case 'format':
      return `${path} must be a valid ${String(p.format)}`;
    default:
      return `${path} ${e.message ?? 'is invalid'}`;
  }
}

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

export function compileValidator<T>(schema: object, rootName = 'body'): (value: unknown) => Validated<T> {
  let validate = schemaCache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    schemaCache.set(schema, validate);
  }
  const check = validate;
  return (value) => {
    if (!check(value)) {
      const first = check.errors?.[0];
      return { ok: false, error: first ? describeError(first, rootName) : `${rootName} is invalid` };
    }
    const control = controlPath(value, '');
    if (control !== null) return { ok: false, error: `${control || rootName} ${CONTROL_CHARACTER_RULE}` };
    return { ok: true, value: value as T };
  };
}

const validateCreateShape = compileValidator<CreateRequest>(createRequestSchema);

/**
 * The create request: the schema, plus the one rule a schema of this shape cannot state readably:
 * a non-empty files[] needs encryption.ske (spec 4.1 rule 2). `undefined` is an absent body.
 */
export function validateCreateRequest(body: unknown): Validated<CreateRequest> {
  if (body === undefined) return { ok: true, value: {} };
  const shaped = validateCreateShape(body);
  if (!shaped.ok) return shaped;
  const { files, encryption } = shaped.value;
  if (files && files.length > 0 && !encryption?.ske) {
    return { ok: false, error: 'encryption.ske is required when files are given' };
  }
  return shaped;
}
