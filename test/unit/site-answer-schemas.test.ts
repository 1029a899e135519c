import assert from 'node:assert/strict';
import { test } from 'node:test';
import { siteAnswerSchemas } from '../../src/contract/site-answers.js';

/**
 * The site routes' response schemas (src/contract/site-answers.ts) are what the
 * serialiser writes, and the answers' types are made from them (src/contract/site.ts): so every
 * object schema must be strict and complete, or a field a handler sets would be dropped from every
 * answer without a word, and a client's type would call it optional.
 */
/** Every object schema in `schema`, with its path. */
function* objects(schema: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (schema === null || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' && s.properties) yield [path, s];
  for (const [key, value] of Object.entries(s)) {
    if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* objects(v, `${path}.${key}[${i}]`);
    else yield* objects(value, `${path}.${key}`);
  }
}

test('every site answer schema is strict and requires each property it states', () => {
  let checked = 0;
  for (const [name, schema] of Object.entries(siteAnswerSchemas)) {
    for (const [path, o] of objects(schema, name)) {
      checked++;
      assert.equal(o.additionalProperties, false, `${path} lets unstated properties through`);
      assert.deepEqual(
        [...(o.required as string[])].sort(),
        Object.keys(o.properties as object).sort(),
        `${path}: every stated property is required`,
      );
    }
  }
  assert.ok(checked >= Object.keys(siteAnswerSchemas).length);
});
