import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { type UploadState, upload } from '../../src/client/node/index.js';
import { type Gate, startGate } from '../support/gate.js';
import { until } from '../support/poll.js';
import { freePort, type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import { bytes, writeTemp } from './browser.js';
import { type Firefox, launchFirefox, MISSING, SKIP, sha256, shot } from './firefox.js';

const MIB = 1024 * 1024;

/**
 * Issue #25 item 2 in Firefox: a visitor's page downloads a file while its sender (the library, as
 * the CLI runs it) is still uploading. The sender's chunk PUTs after the first wait in its fetch until
 * the test lets them go; the gate in front of the server sees the visitor's request for chunk 2 pass
 * while that chunk is held at the sender, so the download provably waited for it. Bytes compared.
 */
describe('site in Firefox: a visitor downloads a file while it arrives', { skip: SKIP || Boolean(MISSING) }, () => {
  let server: SpawnedServer;
  let gate: Gate;
  let firefox: Firefox;
  let dir: string;
  before(async () => {
    dir = await tempDir('webfolder-arriving-ff-');
    const port = await freePort();
    gate = await startGate(port);
    server = await spawnServer({ DATA_DIR: dir, BASE_URL: gate.url, CHUNK_SIZE_MIB: '5', LOG_LEVEL: 'warn' }, port);
    firefox = await launchFirefox(dir);
  });
  after(async () => {
    await firefox?.close();
    await gate?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('the download starts while the upload runs and is byte for byte', async () => {
    const content = bytes(11 * MIB + 777, 61);
    const path = await writeTemp(dir, 'arriving-ff.bin', content);
    let open!: () => void;
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gatedFetch: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (init?.method === 'PUT' && /\/0000[23](\?|$)/.test(url)) await held;
      return fetch(input, init);
    };
    let stated!: (s: UploadState) => void;
    const state = new Promise<UploadState>((resolve) => {
      stated = resolve;
    });
    const done = upload([path], { server: gate.url, concurrency: 1, fetch: gatedFetch, onState: (s) => stated(s) });
    done.catch(() => {}); // awaited below
    const { folderUrl, secret } = await state;
    const seen: string[] = [];
    gate.hold((req) => {
      if (req.method === 'GET' && /\/chunks\/00002$/.test(req.url ?? '')) seen.push('GET 2');
      return false;
    });

    const page = await firefox.page();
    await page.goto(`${folderUrl}#${secret}`);
    await page.waitForSelector('#files li .arriving[data-stored="1"]', { timeout: 60_000 });
    await shot(page, 'arriving-row');
    await page.click('#files li button.download');
    await until('the visitor asking for chunk 2 before it is stored', () => seen.includes('GET 2'), 60_000);
    open();
    await done;
    const got = await firefox.downloaded('arriving-ff.bin', content.length);
    assert.equal(sha256(got), sha256(content), 'the file downloaded while arriving is the uploaded file');
  });
});
