import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Answers, siteAnswerSchemas } from '../../src/contract/answers.js';

/**
 * The site routes' response schemas (src/contract/answers.ts siteAnswerSchemas) are what the
 * serialiser writes: a field of an answer's type that its schema does not state would be dropped
 * from every answer without a word. So every field of every answer type is stated (checked by the
 * type-checker below), and every object schema is strict and complete (checked here at run time).
 */
type SiteAnswer = keyof typeof siteAnswerSchemas;
type Unstated<K extends SiteAnswer> = Exclude<keyof Answers[K], keyof (typeof siteAnswerSchemas)[K]['properties']>;
/** `true` for each answer whose type's fields are all in its schema; the unstated names otherwise. */
type Stated = { [K in SiteAnswer]: [Unstated<K>] extends [never] ? true : Unstated<K> };
const everyFieldStated: Stated = {
  siteCreateFolder: true,
  folderInfo: true,
  register: true,
  registeredFile: true,
  fileList: true,
  siteFile: true,
  fileProgress: true,
  notifications: true,
  activity: true,
  downloadTicket: true,
  chunkLocation: true,
  takeDown: true,
  accountFolders: true,
  accountView: true,
  apiKeyList: true,
  apiKeyCreated: true,
};

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
  assert.deepEqual(Object.keys(everyFieldStated).sort(), Object.keys(siteAnswerSchemas).sort());
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
