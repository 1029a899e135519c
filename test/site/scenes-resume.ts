import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { deriveOwnerCredentials } from '../../src/crypto/index.js';
import type { Gate } from '../support/gate.js';
import { until } from '../support/poll.js';
import { bytes, writeTemp } from './browser.js';
import { FOLDER_LINK, folderIdOf, type Site } from './driver.js';
import { clickDownload } from './scenes-visit.js';

const MIB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A chunk of an upload on its way (`PUT /v2/uploads/<id>/<n>`). */
const uploadChunk = (req: IncomingMessage) => req.method === 'PUT' && (req.url ?? '').startsWith('/v2/uploads/');
const chunkOf = (req: IncomingMessage) => Number((req.url ?? '').split('?')[0]!.split('/').pop());

/**
 * An upload a reload cut off, resumed, written once for the engines whose own suites run it
 * (first-minute.test.ts in Chromium and Firefox, webkit-downloads.test.ts in WebKit), through the gate in front of the server: two chunks of
 * three reach the server and the others are held until the upload is cancelled and the page
 * reloaded; the reloaded page says which upload did not finish; the same file picked again takes the note away as soon as it resumes
 * and sends only the chunks the server is missing; the file then downloads with its bytes. Call
 * inside `eachEngine`, with the suite's gated site.
 */
export function resumeScenario(site: Site & { readonly gate: Gate }): void {
  test('an upload a reload cut off is said not to have finished; picked again, it sends only the missing chunks', async () => {
    const content = bytes(2 * 5 * MIB + 99, 73); // three chunks of 5 MiB
    const path = await writeTemp(site.dir, 'resumes.bin', content);
    const page = await site.browser.page();
    try {
      await page.goto(`${site.url}/`);
      await page.select('#new-mode', 'share');
      await page.click('button[type=submit]');
      const folderId = folderIdOf(await page.waitForUrl(FOLDER_LINK, 60_000));
      await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });

      let passed = 0;
      site.gate.hold((req) => uploadChunk(req) && ++passed > 2);
      await page.pickFiles('#file-input', [path]);
      // What the server holds, asked as the owner the page is.
      const kept = await until('the page to record its unfinished upload', () =>
        page
          .evaluate<[string | null, string | null]>(
            `[localStorage.getItem('webfolder:uploads:${folderId}'), localStorage.getItem('webfolder:owner:${folderId}')]`,
          )
          .then(([uploads, secret]) => (uploads && secret ? ([uploads, secret] as const) : false)),
      );
      const fileId = (JSON.parse(kept[0]) as Array<{ fileId: string }>)[0]!.fileId;
      const token = (await deriveOwnerCredentials(kept[1])).authToken;
      const missing = await until('two chunks on the server, the third held at the gate', async () => {
        const res = await fetch(`${site.url}/api/site/folders/${folderId}/files/${fileId}/status`, {
          headers: { 'x-owner-token': token },
        });
        const status = (await res.json()) as { missing?: number[] };
        return status.missing?.length === 1 && site.gate.held().length > 0 && status.missing;
      });

      // Cancelled while the rest is held (a reload now would be asked about first: the upload runs),
      // and the page reloaded: it still knows what did not finish.
      await page.click('#cancel-upload');
      await page.waitFor('#upload-status[data-state="cancelled"]', { timeoutMs: 60_000 });
      site.gate.drop();
      await page.reload();
      await page.waitFor('#resume-note', { timeoutMs: 60_000 });
      assert.match(await page.text('#resume-note'), /resumes\.bin/);

      // The same file again: while its first chunk is held on its way, the note is gone.
      const sent: number[] = [];
      let holding = true;
      const watch = (req: IncomingMessage) => {
        if (!uploadChunk(req)) return false;
        sent.push(chunkOf(req));
        return holding;
      };
      site.gate.hold(watch);
      await page.pickFiles('#file-input', [path]);
      await until('the resumed upload at the gate', () => site.gate.held().length > 0, 60_000);
      assert.equal(await page.count('#resume-note'), 0, 'no "did not finish" while it resumes');
      holding = false;
      site.gate.release();
      site.gate.hold(watch);
      await page.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 120_000 });
      assert.deepEqual(
        [...sent].sort((a, b) => a - b),
        missing,
        'only the chunks the server was missing are sent',
      );
      assert.equal(await page.count('#resume-note'), 0, 'nothing left unfinished');

      await page.waitFor('#files li[data-file-id] button.download:not([disabled])', { timeoutMs: 60_000 });
      const got = page.download('resumes.bin', content.length);
      await clickDownload(page, '#files li[data-file-id] button.download');
      assert.equal(sha256(await got), sha256(content), 'the resumed file downloads with its bytes');
    } finally {
      site.gate.release();
      await page.close();
    }
  });
}
