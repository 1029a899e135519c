import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { migrationsLine } from '../../src/http/logging.js';
import { humanLogger, readyLine } from '../../src/ops/startup.js';
import { spawnServer, tempDir } from '../support/server.js';

/**
 * What an operator reads first: under `npm start` (npm sets npm_lifecycle_event) the log is readable
 * lines even off a terminal; start-up says in one line where the service listens and where its data
 * is, and the migrations in one line; requests are not info lines; LOG_FORMAT=json keeps JSON.
 */
const ESC = String.fromCharCode(27);

test('the ready line names the address and the data; migrations are one line', () => {
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '8080', DATA_DIR: '/srv/webfolder' });
  assert.equal(
    readyLine(config),
    'webfolder is ready at http://127.0.0.1:8080 (data: SQLite in /srv/webfolder; files in /srv/webfolder)',
  );
  assert.equal(migrationsLine('sqlite', [1, 2, 3, 4]), 'applied schema migrations 1–4 (sqlite)');
  assert.equal(migrationsLine('postgres', [7]), 'applied schema migration 7 (postgres)');
  const pretty = (env: NodeJS.ProcessEnv, format = 'auto') =>
    'transport' in (humanLogger(loadConfig({ LOG_FORMAT: format }), false, env) as object);
  assert.equal(pretty({ npm_lifecycle_event: 'start' }), true, 'npm start: readable');
  assert.equal(pretty({}), false, 'a supervisor or a pipe: JSON');
  assert.equal(pretty({ npm_lifecycle_event: 'start' }, 'json'), false, 'LOG_FORMAT=json wins');
});

test('under npm start, off a terminal: readable lines, one ready line, one migrations line, no request lines', {
  timeout: 120_000,
}, async () => {
  const dataDir = await tempDir();
  const node = await spawnServer({ DATA_DIR: dataDir, LOG_FORMAT: '', npm_lifecycle_event: 'start' });
  for (let i = 0; i < 3; i++) assert.equal((await fetch(`${node.baseUrl}/healthz`)).status, 200);
  await node.stop();
  const lines = node
    .output()
    .split('\n')
    .filter((l) => l.trim() !== '');
  assert.ok(
    lines.every((l) => !l.trimStart().startsWith('{') && !l.includes(ESC)),
    `readable lines, no colours off a terminal:\n${node.output()}`,
  );
  const ready = lines.filter((l) => l.includes('webfolder is ready'));
  assert.equal(ready.length, 1, node.output());
  assert.match(
    ready[0]!,
    new RegExp(`INFO.*webfolder is ready at ${node.baseUrl} \\(data: SQLite in ${dataDir}; files in ${dataDir}\\)`),
  );
  assert.equal(lines.filter((l) => /applied schema migrations? /.test(l)).length, 1, node.output());
  assert.equal(lines.filter((l) => /healthz|incoming request|request completed/.test(l)).length, 0, node.output());
});
