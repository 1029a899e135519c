import type { ErrorObject } from 'ajv';

/**
 * The wording of a schema failure (`files[2].filesize must be greater than 0`), for every validator
 * of the contract: the server's (./validation.ts) and the clients' answer checks (./answer-check.ts,
 * and the page's copy built ahead of time). No Ajv at run time here: the page imports this module.
 */
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
