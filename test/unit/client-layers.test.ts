import assert from 'node:assert/strict';
import { dirname, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { importsOf, ROOT, sourceFiles } from '../support/imports.js';

/**
 * The client side's layer rules, read from the import statements themselves:
 * - src/client and src/transfer import no server code (only the pure src/domain, src/contract and
 *   src/crypto); the CLI's `serve` is started by bin/webfolder.js, not by src/client;
 * - src/transfer is isomorphic: no node: module;
 * - the page (web/src) reaches into src/ only for the transfer core and those pure folders.
 */
const PURE = ['src/domain', 'src/contract', 'src/crypto'];

/** Imports of `dir`'s files that resolve into src/ outside the allowed folders. */
async function violations(dir: string, allowed: readonly string[], forbidNode = false): Promise<string[]> {
  const out: string[] = [];
  for (const file of await sourceFiles(dir)) {
    for (const { specifier: spec } of await importsOf(file)) {
      const where = relative(ROOT, file);
      if (spec.startsWith('node:')) {
        if (forbidNode) out.push(`${where} imports ${spec}`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(dirname(file), spec));
      if (!target.startsWith('src/') && target !== 'src') continue;
      if (!allowed.some((a) => target === a || target.startsWith(`${a}/`) || target === `${a}.js`))
        out.push(`${where} imports ${target}`);
    }
  }
  return out;
}

test('src/client imports no server code', async () => {
  assert.deepEqual(await violations('src/client', ['src/client', 'src/transfer', ...PURE]), []);
});

test('src/transfer imports no server code and no Node module (it runs in browsers)', async () => {
  assert.deepEqual(await violations('src/transfer', ['src/transfer', ...PURE], true), []);
});

test('the page uses the transfer core and the pure folders only', async () => {
  assert.deepEqual(await violations('web/src', ['src/transfer', ...PURE], true), []);
});

test('the check sees real imports: the server entry does import server code', async () => {
  const found = await violations('src', [...PURE, 'src/transfer', 'src/client']);
  assert.ok(
    found.some((v) => v.startsWith('src/server.ts imports src/http/')),
    found.join('\n'),
  );
});
