import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { test } from 'node:test';
import { importsOf, sourceFiles } from '../support/imports.js';

/**
 * The discovery documents are built from plain data: src/discovery imports no package (no MCP or
 * A2A SDK, nothing at all at run time) and nothing from the transport or agent layers; only the
 * configuration, the contract, the domain rules and its own modules.
 */
const ALLOWED = /^(\.\/|\.\.\/(config|contract|domain)\/)/;

test('src/discovery imports only config, contract, domain and itself', async () => {
  const files = await sourceFiles('src/discovery');
  assert.ok(files.some((f) => f.endsWith('/mcp-card.ts')) && files.some((f) => f.endsWith('/agent-card.ts')));
  for (const file of files)
    for (const { specifier } of await importsOf(file))
      assert.match(specifier, ALLOWED, `${basename(file)} imports ${specifier}`);
});
