import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from 'esbuild';

/** The library core must bundle for a browser: no node: module may be reachable from src/client/index.ts. */
test('src/client/index.ts bundles for the browser without any Node module', async () => {
  const result = await build({
    entryPoints: [new URL('../../src/client/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  assert.equal(result.errors.length, 0);
  const code = result.outputFiles[0]!.text;
  assert.ok(!/from\s*["']node:|require\(["']node:/.test(code), 'no node: imports in the browser bundle');
  assert.match(code, /X-Amz-Signature=/);
});
