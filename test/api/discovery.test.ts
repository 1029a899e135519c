import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  createRequestSchema,
  createResponseSchema,
  publishedSchemas,
  uploadStatusResponseSchema,
} from '../../src/contract/schemas.js';
import { useServer } from '../support/server.js';

const srv = useServer({ DOCS_URL: 'https://docs.example.test/webfolder' });

const get = async (path: string, accept = 'application/json') => {
  const res = await fetch(`${srv.baseUrl}${path}`, { headers: { accept } });
  return { res, text: await res.text() };
};

test('one OpenAPI 3.1 document at both addresses, version 2.0.0, both operations with every error status', async () => {
  const a = await get('/openapi.json');
  const b = await get('/.well-known/openapi.json');
  assert.equal(a.res.status, 200);
  assert.equal(a.text, b.text);
  const doc = JSON.parse(a.text);
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '2.0.0');
  assert.equal(doc.servers[0].url, srv.baseUrl);
  const create = doc.paths['/v2/folders'].post;
  const status = doc.paths['/v2/folders/{folderId}/files/{fileId}/upload-status'].get;
  assert.equal(create.operationId, 'createV2Folder');
  assert.equal(status.operationId, 'getV2UploadStatus');
  assert.deepEqual(Object.keys(create.responses).sort(), ['200', '400', '429', '500']);
  assert.deepEqual(Object.keys(status.responses).sort(), ['200', '400', '404', '429', '500']);
  assert.equal(create.requestBody.required, false);
  assert.match(
    doc.info.description,
    /head \+ path \+ "\/" \+ NNNNN \+ "\?" \+ tail \+ "&X-Amz-Signature=" \+ signatures\[n-1\]/,
  );
  // Derived from the contract schemas, not written again.
  assert.deepEqual(doc.components.schemas.V2UploadStatusResponse, uploadStatusResponseSchema);
  assert.equal(
    doc.components.schemas.V2FolderCreateRequest.properties.title.maxLength,
    createRequestSchema.properties.title.maxLength,
  );
  // Every example in the document is valid against its schema.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const check = (ref: string, value: unknown) =>
    assert.ok(ajv.validate({ $ref: `doc${ref}` }, value), `${ref}: ${JSON.stringify(ajv.errors)}`);
  for (const ex of Object.values(create.requestBody.content['application/json'].examples) as Array<{ value: unknown }>)
    check('#/components/schemas/V2FolderCreateRequest', ex.value);
  for (const ex of Object.values(create.responses['200'].content['application/json'].examples) as Array<{
    value: unknown;
  }>)
    check('#/components/schemas/V2FolderCreateResponse', ex.value);
  check('#/components/schemas/V2UploadStatusResponse', status.responses['200'].content['application/json'].example);
});

test('the published schemas are the contract schemas with an absolute $id', async () => {
  const pairs: Array<[string, object]> = [
    ['v2-folder-create-request.json', createRequestSchema],
    ['v2-folder-create-response.json', createResponseSchema],
    ['v2-upload-status-response.json', uploadStatusResponseSchema],
  ];
  assert.deepEqual(Object.keys(publishedSchemas).sort(), pairs.map(([name]) => name).sort(), 'every one is served');
  for (const [name, schema] of pairs) {
    const { res, text } = await get(`/schemas/${name}`);
    assert.equal(res.status, 200);
    const published = JSON.parse(text);
    assert.equal(published.$id, `${srv.baseUrl}/schemas/${name}`);
    const { $id, $schema, ...rest } = published;
    assert.equal($schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(rest, JSON.parse(JSON.stringify(schema)));
  }
});

test('the service index lists name, version, docs, every discovery address and both endpoints', async () => {
  const { res, text } = await get('/');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  const index = JSON.parse(text);
  assert.equal(index.version, 'v2');
  assert.equal(index.documentation, 'https://docs.example.test/webfolder');
  const all = JSON.stringify(index.surfaces);
  for (const path of [
    '/openapi.json',
    '/.well-known/openapi.json',
    '/llms.txt',
    '/.well-known/llms.txt',
    '/mcp',
    '/.well-known/mcp.json',
    '/.well-known/agent-card.json',
    '/a2a',
    '/.well-known/ai-plugin.json',
    '/schemas/v2-folder-create-request.json',
    '/schemas/v2-folder-create-response.json',
    '/schemas/v2-upload-status-response.json',
  ]) {
    assert.ok(all.includes(`"${srv.baseUrl}${path}"`), path);
  }
  assert.deepEqual(
    index.endpoints.map((e: { operationId: string }) => e.operationId),
    ['createV2Folder', 'getV2UploadStatus'],
  );
  const html = await get('/', 'text/html,application/xhtml+xml');
  assert.match(html.res.headers.get('content-type') ?? '', /text\/html/);
});

test('the service index and the OpenAPI document say the same of each operation', async () => {
  const index = JSON.parse((await get('/')).text);
  const doc = JSON.parse((await get('/openapi.json')).text);
  for (const endpoint of index.endpoints) {
    const path = decodeURI(new URL(endpoint.url).pathname);
    const operation = doc.paths[path]?.[endpoint.method.toLowerCase()];
    assert.ok(operation, `${endpoint.method} ${path} is in the OpenAPI document`);
    assert.equal(operation.operationId, endpoint.operationId);
    assert.equal(operation.summary, endpoint.summary, endpoint.operationId);
  }
  assert.equal(index.endpoints.length, Object.keys(doc.paths).length, 'no operation is missing from the index');
});
