import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { test } from 'node:test';
import { ROOT, sourceFiles } from '../support/imports.js';

/**
 * The SQLite driver is loaded in one place, src/store/sqlite/connection.ts, which picks
 * better-sqlite3 12 on Node 20 and 13 (the alias better-sqlite3-napi) on Node 22 and later. A value
 * import of either package anywhere else loads the build of the wrong Node: a test that did so passed
 * on Node 20 and failed on Node 24 with NODE_MODULE_VERSION 115 against 137. Type imports are fine.
 */
const DRIVER_LOADER = 'src/store/sqlite/connection.ts';
const THIS_TEST = 'test/unit/sqlite-driver.test.ts';
const VALUE_IMPORT =
  /(?:^|\n)\s*import\s+(?!type\b)[^'"`;]*?from\s*['"](better-sqlite3(?:-napi)?)['"]|(?:require|import)\(\s*['"](better-sqlite3(?:-napi)?)['"]\s*\)/g;

function driverLoads(text: string): string[] {
  return [...text.matchAll(VALUE_IMPORT)].map((m) => m[1] ?? m[2] ?? '');
}

test('the scan sees value imports and requires, and passes type imports', () => {
  assert.deepEqual(driverLoads("import Database from 'better-sqlite3';"), ['better-sqlite3']);
  assert.deepEqual(driverLoads("const D = require('better-sqlite3-napi');"), ['better-sqlite3-napi']);
  assert.deepEqual(driverLoads("await import('better-sqlite3')"), ['better-sqlite3']);
  assert.deepEqual(driverLoads("import type Database from 'better-sqlite3';"), []);
});

test(`only ${DRIVER_LOADER} loads the SQLite driver`, async () => {
  const files = (await Promise.all(['src', 'test', 'bench', 'scripts'].map((dir) => sourceFiles(dir)))).flat();
  const offenders: string[] = [];
  for (const file of files) {
    const path = relative(ROOT, file);
    if (path === DRIVER_LOADER || path === THIS_TEST) continue;
    for (const name of driverLoads(await readFile(file, 'utf8'))) offenders.push(`${path} loads ${name}`);
  }
  assert.deepEqual(offenders, [], 'load the driver through openConnection (src/store/sqlite/connection.ts)');
});
