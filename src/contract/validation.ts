import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createRequestSchema } from './schemas.js';
import type { CreateRequest } from './types.js';

/**
 * Validation against the contract schemas, with error strings that name the field and the rule
 * (`files[2].filesize must be greater than 0`). No coercion, no defaults, no stripping: a value that
 * is not exactly what the schema allows is refused and nothing is changed.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(
  new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: true }),
);

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

function join(path: string, child: string): string {
  return path === 'body' ? child : `${path}.${child}`;
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
  switch (e.keyword) {
    case 'required':
      return `${join(path, String(p.missingProperty))} is required`;
    case 'additionalProperties':
      return `${join(path, String(p.additionalProperty))} is not an allowed property`;
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
    case 'format':
      return `${path} must be a valid ${String(p.format)}`;
    default:
      return `${path} ${e.message ?? 'is invalid'}`;
  }
}

export function compileValidator<T>(schema: object, rootName = 'body'): (value: unknown) => Validated<T> {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return { ok: true, value: value as T };
    const first = validate.errors?.[0];
    return { ok: false, error: first ? describeError(first, rootName) : `${rootName} is invalid` };
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
