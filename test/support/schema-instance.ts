import fc from 'fast-check';

/**
 * A valid instance of a request JSON Schema of src/contract, with EVERY property present (optional
 * ones too) and one item in every array, so that a test can then spoil each string field in turn.
 * It covers the keywords the contract's request schemas use; a schema it cannot satisfy makes the
 * caller's own validity check fail, never a silent skip. Patterns are satisfied by fast-check's
 * `stringMatching` with a fixed seed (the same instance every run).
 */
type Schema = Record<string, unknown>;

export function instanceOf(schema: Schema, seed = 21): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.oneOf)) return instanceOf(schema.oneOf[0] as Schema, seed);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'string':
      return stringOf(schema, seed);
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
      return 1;
    }
    case 'boolean':
      return true;
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : 1;
      const count = Math.min(Math.max(min, 1), max);
      return Array.from({ length: count }, (_, i) => instanceOf((schema.items ?? {}) as Schema, seed + i));
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(properties).map(([k, s], i) => [k, instanceOf(s, seed + i)]));
    }
    case 'null':
      return null;
    default:
      return 'a';
  }
}

function stringOf(schema: Schema, seed: number): string {
  if (schema.format === 'email') return 'someone@example.org';
  if (schema.format === 'uri') return 'https://example.org/';
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern);
    // A non-empty match where the pattern allows one: an empty string has no character to spoil.
    const samples = fc.sample(fc.stringMatching(re), { numRuns: 50, seed });
    return samples.find((s) => s.length > 0) ?? samples[0]!;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  return 'a'.repeat(Math.max(min, 1));
}

/** Every string in `value` with its JSON pointer-like path (`files/0/filename`). */
export function stringLeaves(value: unknown, path: string[] = []): { path: string[]; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
}

/** A deep copy of `value` with the string at `path` replaced. */
export function withString(value: unknown, path: string[], replacement: string): unknown {
  if (path.length === 0) return replacement;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as Record<string, unknown>) };
  const [head, ...rest] = path as [string, ...string[]];
  (copy as Record<string, unknown>)[head] = withString((copy as Record<string, unknown>)[head], rest, replacement);
  return copy;
}
