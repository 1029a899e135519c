import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

/**
 * The discovery documents are built from plain data: src/discovery imports no package (no MCP or
 * A2A SDK, nothing at all at run time) and nothing from the transport or agent layers; only the
 * configuration, the contract, the domain rules and its own modules.
 */
const DIR = new URL('../../src/discovery/', import.meta.url).pathname;
const ALLOWED = /^(\.\/|\.\.\/(config|contract|domain)\/)/;

test('src/discovery imports only config, contract, domain and itself', async () => {
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.ts'));
  assert.ok(files.includes('mcp-card.ts') && files.includes('agent-card.ts'));
  for (const file of files) {
    const text = await readFile(join(DIR, file), 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
    const dynamic = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!);
    for (const specifier of [...specifiers, ...dynamic])
      assert.match(specifier, ALLOWED, `${file} imports ${specifier}`);
  }
});
