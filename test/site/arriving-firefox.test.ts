import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type UploadState, upload } from '../../src/client/node/index.js';
import { until } from '../support/poll.js';
import { bytes, writeTemp } from './browser.js';
import { MISSING, SKIP, sha256, shot, useGatedFirefox } from './firefox.js';
import { chunkNumber } from './gated.js';

const MIB = 1024 * 1024;

/**
 * Issue #25 item 2 in Firefox: a visitor's page downloads a file while its sender (the library, as
 * the CLI runs it) is still uploading. The sender's chunk PUTs after the first wait in its fetch until
 * the test lets them go; the gate in front of the server sees the visitor's request for chunk 2 pass
 * while that chunk is held at the sender, so the download provably waited for it. Bytes compared.
 */
describe('site in Firefox: a visitor downloads a file while it arrives', { skip: SKIP || Boolean(MISSING) }, () => {
  const suite = useGatedFirefox('webfolder-arriving-ff-');

  test('the download starts while the upload runs and is byte for byte', async () => {
    const { dir, firefox, gate } = suite;
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
      if (chunkNumber(req) === 2) seen.push('GET 2');
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
