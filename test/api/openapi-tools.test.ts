import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, startServer, tempDir } from '../support/server.js';

/**
 * The served OpenAPI document as API tooling reads it: Redocly CLI's `recommended` rules and
 * Spectral's `spectral:oas` find nothing (no error, no warning), and openapi-typescript generates
 * types from it that real create responses of both variants, and the requests a client sends,
 * type-check against (with the project's tsc).
 *
 * The tools are exact versions that run on Node 20.19+ and 22.12+ (so on CI's Node 24 too), under the
 * Node running this test. Redocly CLI and Spectral are devDependencies; openapi-typescript is the tool
 * package tools/openapi-types (its own lockfile, with the TypeScript 5 it prints with; installed by
 * scripts/tools.sh, which scripts/test.sh runs): the generated types are then checked by the
 * project's own tsc (TypeScript 7).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const bin = (path: string) => join(ROOT, 'node_modules', path);
const OPENAPI_TYPES = join(ROOT, 'tools/openapi-types/node_modules/openapi-typescript/bin/cli.js');

let server: RunningServer;
let dir: string;
let docPath: string;

before(async () => {
  server = await startServer();
  dir = await tempDir('webfolder-openapi-');
  docPath = join(dir, 'openapi.json');
  const res = await fetch(`${server.baseUrl}/openapi.json`);
  assert.equal(res.status, 200);
  await writeFile(docPath, await res.text());
});
after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { cwd?: string; command?: string } = {}): Promise<Run> {
  const child = spawn(options.command ?? process.execPath, args, {
    cwd: options.cwd ?? dir,
    // No telemetry or update checks from the linters: tests make no outside calls.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the OpenAPI document under API tooling', () => {
  test('Redocly CLI lint, recommended ruleset: no error, no warning', async () => {
    const r = await run([
      bin('@redocly/cli/bin/cli.js'),
      'lint',
      '--extends',
      'recommended',
      '--format',
      'json',
      docPath,
    ]);
    const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    assert.deepEqual(report.problems, [], 'problems');
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    assert.equal(r.code, 0, r.stderr);
  });

  test('Spectral, spectral:oas ruleset: no error, no warning', async () => {
    const ruleset = join(dir, '.spectral.yaml');
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    const output = join(dir, 'spectral.json');
    const r = await run([
      bin('@stoplight/spectral-cli/dist/index.js'),
      'lint',
      '--ruleset',
      ruleset,
      '--format',
      'json',
      '--output',
      output,
      '--fail-severity',
      'warn',
      docPath,
    ]);
    const results = JSON.parse(await readFile(output, 'utf8')) as { severity: number; code: string }[];
    assert.deepEqual(
      results.filter((p) => p.severity <= 1),
      [],
      'errors (0) and warnings (1)',
    );
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  });

  test('openapi-typescript types: both create variants, as a real server answers them, type-check', async () => {
    const typesPath = join(dir, 'api.d.ts');
    // Not a skip: without the tool package this test fails and says how to install it.
    assert.ok(existsSync(OPENAPI_TYPES), 'tools/openapi-types is not installed: run bash scripts/tools.sh');
    // Request types with `mode` optional although it has a default (openapi-typescript otherwise
    // makes every defaulted property required, requests included): docs/direct-upload.md says to generate so.
    const gen = await run([OPENAPI_TYPES, docPath, '--default-non-nullable=false', '-o', typesPath]);
    assert.equal(gen.code, 0, gen.stderr);

    const post = async (body: unknown) => {
      const res = await fetch(`${server.baseUrl}/v2/folders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200);
      return res.json();
    };
    const empty = await post({ title: 'Holiday photos' });
    const direct = await post({ encryption: { ske: 'x' }, files: [{ filename: 'bmFtZQ==', filesize: 3 }] });

    // Requests as clients write them (mode left out: it has a default, it is not required), the
    // two answers as received, each narrowed the way a client does; and what must not compile.
    const client = `import type { components, operations } from './api';
type Schemas = components['schemas'];
type CreateRequest = NonNullable<operations['createV2Folder']['requestBody']>['content']['application/json'];
type CreateResponse = operations['createV2Folder']['responses']['200']['content']['application/json'];
type Status = operations['getV2UploadStatus']['responses']['200']['content']['application/json'];

const emptyRequest: CreateRequest = { title: 'Holiday photos' };
const noBody: Schemas['V2FolderCreateRequest'] = {};
const directRequest: CreateRequest = { encryption: { ske: 's' }, files: [{ filename: 'n', filesize: 1 }] };

const emptyAnswer: CreateResponse = ${JSON.stringify(empty)};
const directAnswer: CreateResponse = ${JSON.stringify(direct)};

export function linkOf(answer: CreateResponse): string {
  if ('uploadAuth' in answer) {
    const auth: string = answer.uploadAuth;
    const first: Schemas['V2RegisteredFile'] | undefined = answer.files[0];
    const signatures: string[] = first ? first.uploadUrls.signatures : [];
    return answer.folderUrl + auth.length + signatures.length;
  }
  const hours: number = answer.uploadRequiredWithinHours;
  return answer.folderUrl + answer.folderUrlBase + hours;
}
const status: Status = { complete: false, missing: [2, 5] };

// @ts-expect-error mode is one of send, share, request
const badMode: CreateRequest = { mode: 'upload' };
// @ts-expect-error a direct answer without uploadAuth is no variant
const noAuth: Schemas['V2FolderCreateResponseDirect'] = { ...directAnswer, uploadAuth: undefined };
// @ts-expect-error filesize is a number
const badSize: CreateRequest = { files: [{ filename: 'n', filesize: '1' }] };

export const used = [emptyRequest, noBody, directRequest, emptyAnswer, directAnswer, status, badMode, noAuth, badSize];
`;
    await writeFile(join(dir, 'client.ts'), client);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: [],
          skipLibCheck: false,
        },
        files: ['client.ts', 'api.d.ts'],
      }),
    );
    const tsc = await run(['-p', join(dir, 'tsconfig.json')], { command: bin('.bin/tsc') });
    assert.equal(tsc.code, 0, `${tsc.stdout}\n${tsc.stderr}\n--- client.ts\n${client}`);
  });
});
