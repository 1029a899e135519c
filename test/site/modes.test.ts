import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer } from '../support/server.js';
import {
  bytes,
  createFolder,
  downloadBytes,
  newContext,
  SKIP,
  screenshot,
  useBrowserFixture,
  watch,
  writeTemp,
} from './browser.js';

const MIB = 1024 * 1024;

async function upload(page: Page, paths: string[]) {
  await page.setInputFiles('#file-input', paths);
  await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
}

/** A fetch from inside the page, with the credentials its storage holds. */
async function pageFetch(page: Page, path: string, withOwnerOf?: string): Promise<number> {
  return page.evaluate(
    async ([p, folderId]) => {
      const headers: Record<string, string> = {};
      const secret = folderId ? localStorage.getItem(`webfolder:owner:${folderId}`) : null;
      if (secret) headers['x-owner-token'] = 'not-the-token-but-long-enough';
      return (await fetch(p!, { headers })).status;
    },
    [path, withOwnerOf] as const,
  );
}

describe('site: modes, zip, resume, keys (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('share folder: a visitor uploads too, and everyone downloads a zip of everything', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'Team drop');
    const a = bytes(6 * MIB, 11);
    const b = bytes(777, 12);
    const ctxA = await newContext(fx.browser);
    const ctxB = await newContext(fx.browser);
    const pa = await ctxA.newPage();
    const pb = await ctxB.newPage();
    const problems = [...watch(pa), ...watch(pb)];
    await pa.goto(folder.folderUrl);
    await upload(pa, [await writeTemp(fx.dir, 'a.bin', a)]);
    await pa.locator('#role[data-role="owner"]').waitFor();
    await pb.goto(folder.folderUrl);
    await pb.locator('#role[data-role="visitor"]').waitFor();
    await upload(pb, [await writeTemp(fx.dir, 'b.txt', b)]);
    await pb.locator('#files li[data-file-id]').nth(1).waitFor();
    assert.equal(
      await pb.locator('#role').getAttribute('data-role'),
      'visitor',
      'a later uploader does not become owner',
    );
    const zip = await downloadBytes(pb, () => pb.locator('#download-all').click());
    assert.equal(zip.name, 'Team drop.zip');
    const zipPath = join(fx.dir, 'all.zip');
    await writeFile(zipPath, zip.content);
    const listing = execFileSync('python3', [
      '-c',
      'import sys,zipfile,hashlib\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor i in z.infolist(): print(i.filename, i.file_size, hashlib.sha256(z.read(i)).hexdigest())',
      zipPath,
    ]).toString();
    const sha = require_sha256;
    assert.match(listing, new RegExp(`a\\.bin ${a.length} ${sha(a)}`));
    assert.match(listing, new RegExp(`b\\.txt ${b.length} ${sha(b)}`));
    assert.deepEqual(problems, []);
    await Promise.all([ctxA.close(), ctxB.close()]);
  });

  test('request folder: visitors upload sealed files, cannot list or download; the owner opens them', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'request', 'Send me your reports');
    const mine = bytes(100, 21);
    const theirs = bytes(5 * MIB + 3, 22);
    const ownerCtx = await newContext(fx.browser);
    const visitorCtx = await newContext(fx.browser);
    const po = await ownerCtx.newPage();
    const pv = await visitorCtx.newPage();
    await po.goto(folder.folderUrl);
    await upload(po, [await writeTemp(fx.dir, 'brief.txt', mine)]);
    await po.locator('#role[data-role="owner"]').waitFor();

    await pv.goto(folder.folderUrl);
    await pv.locator('#role[data-role="visitor"]').waitFor();
    await pv.locator('#no-list').waitFor();
    assert.equal(await pv.locator('#files').count(), 0);
    await upload(pv, [await writeTemp(fx.dir, 'report.pdf', theirs)]);
    await screenshot(pv, 'folder-request-visitor');
    // The server itself refuses the visitor's listing and downloads.
    const api = `${fx.server.baseUrl}/api/site/folders/${folder.folderId}`;
    assert.equal(await pageFetch(pv, `${api}/files`, folder.folderId), 403);
    const ownerList = (await (
      await fetch(`${api}/files`, { headers: { 'x-owner-token': await ownerToken(po, folder.folderId) } })
    ).json()) as { files: Array<{ fileId: string; sealedKey: string | null }> };
    assert.equal(ownerList.files.length, 2);
    const sealed = ownerList.files.find((f) => f.sealedKey)!;
    assert.ok(sealed, 'the visitor file carries a sealed key');
    assert.equal(await pageFetch(pv, `${api}/files/${sealed.fileId}/chunks/1`), 403);

    await po.reload();
    await po.locator('#files li', { hasText: 'report.pdf' }).locator('button.download:not([disabled])').waitFor();
    const got = await downloadBytes(po, () =>
      po.locator('#files li', { hasText: 'report.pdf' }).locator('button.download').click(),
    );
    assert.ok(got.content.equals(theirs));
    await screenshot(po, 'folder-request-owner');
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });

  /** A new empty folder open in two browsers, both still unclaimed, and one small file for each to upload. */
  async function twoBrowsersOnANewFolder(mode: string, title: string, prefix: string, seed: number) {
    const folder = await createFolder(fx.server.baseUrl, mode, title);
    const contexts = await Promise.all([newContext(fx.browser), newContext(fx.browser)]);
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    await Promise.all(pages.map((p) => p.goto(folder.folderUrl)));
    await Promise.all(pages.map((p) => p.locator('#role[data-role="unclaimed"]').waitFor()));
    const files = [
      await writeTemp(fx.dir, `${prefix}1.bin`, bytes(2000, seed)),
      await writeTemp(fx.dir, `${prefix}2.bin`, bytes(3000, seed + 1)),
    ];
    return { folder, contexts, pages, files };
  }

  test('two browsers racing for the first upload: exactly one owner', async () => {
    const { folder, contexts, pages, files } = await twoBrowsersOnANewFolder('share', 'Race', 'r', 31);
    await Promise.all(pages.map((p, i) => upload(p, [files[i]!])));
    // The page re-renders the role after it re-reads the folder: wait for that, then check it.
    await Promise.all(pages.map((p) => p.locator('#role:not([data-role="unclaimed"])').waitFor()));
    const roles = await Promise.all(pages.map((p) => p.locator('#role').getAttribute('data-role')));
    assert.deepEqual(roles.sort(), ['owner', 'visitor']);
    const secrets = await Promise.all(
      pages.map((p) => p.evaluate((id) => localStorage.getItem(`webfolder:owner:${id}`), folder.folderId)),
    );
    assert.equal(secrets.filter(Boolean).length, 1, 'only the winner keeps an owner secret');
    await Promise.all(contexts.map((c) => c.close()));
  });

  test('send folder race: the loser is told, and becomes a visitor without an upload control', async () => {
    const { contexts, pages, files } = await twoBrowsersOnANewFolder('send', 'Send race', 's', 33);
    await Promise.all(pages.map((p, i) => p.setInputFiles('#file-input', files[i]!)));
    const outcome = await Promise.all(
      pages.map((p) =>
        Promise.race([
          p
            .locator('#upload-status[data-state="complete"]')
            .waitFor({ timeout: 60_000 })
            .then(() => 'uploaded'),
          p
            .locator('#upload-error')
            .waitFor({ timeout: 60_000 })
            .then(() => 'refused'),
        ]),
      ),
    );
    assert.deepEqual([...outcome].sort(), ['refused', 'uploaded']);
    const loser = pages[outcome.indexOf('refused')]!;
    // The server's refusal (forbidden) in the page's words.
    assert.match(await loser.locator('#upload-error').innerText(), /only the owner of this folder may do it/);
    await loser.locator('#role:not([data-role="unclaimed"])').waitFor();
    assert.equal(await loser.locator('#role').getAttribute('data-role'), 'visitor');
    assert.equal(await loser.locator('#file-input').count(), 0);
    await Promise.all(contexts.map((c) => c.close()));
  });

  test('reload mid-upload, pick the same file again: only the missing chunks are sent', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Resume');
    const content = bytes(4 * 5 * MIB + 99, 41); // five chunks
    const path = await writeTemp(fx.dir, 'resume.bin', content);
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    // Let two chunks through, then fail every other PUT (the page retries with backoff) until the reload.
    let passed = 0;
    await page.route('**/v2/uploads/**', (route) => {
      if (passed < 2) {
        passed++;
        return route.continue();
      }
      return route.abort('connectionreset');
    });
    await page.setInputFiles('#file-input', path);
    const api = `${fx.server.baseUrl}/api/site/folders/${folder.folderId}`;
    let fileId = '';
    for (let i = 0; i < 300 && !fileId; i++) {
      await page.waitForTimeout(100);
      const pending = await page.evaluate((id) => localStorage.getItem(`webfolder:uploads:${id}`), folder.folderId);
      if (pending) fileId = (JSON.parse(pending) as Array<{ fileId: string }>)[0]!.fileId;
    }
    assert.ok(fileId, 'the page recorded the unfinished upload');
    const token = await ownerToken(page, folder.folderId);
    let status: { missing: number[] } = { missing: [] };
    for (let i = 0; i < 300; i++) {
      status = (await (
        await fetch(`${api}/files/${fileId}/status`, { headers: { 'x-owner-token': token } })
      ).json()) as { missing: number[] };
      if (status.missing.length === 3) break;
      await page.waitForTimeout(100);
    }
    assert.equal(status.missing.length, 3, JSON.stringify(status));
    // Reload before lifting the block: a retry timer of the old page must not slip a chunk through.
    await page.reload();
    await page.unroute('**/v2/uploads/**');
    await page
      .locator('#resume-note')
      .waitFor()
      .catch(async (error: Error) => {
        // Say what the page showed instead, and what it had kept, so that a failure can be understood.
        const shown = await page
          .locator('#main')
          .innerText()
          .catch(() => '(no #main)');
        const kept = await page.evaluate(() => Object.keys(localStorage).join(', '));
        throw new Error(`${error.message}\npage after reload: ${shown}\nlocalStorage keys: ${kept}`);
      });
    assert.match(await page.locator('#resume-note').innerText(), /resume\.bin/);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/v2/uploads/'))
        sent.push(new URL(r.url()).pathname.split('/').pop()!);
    });
    await upload(page, [path]);
    assert.deepEqual(sent.map(Number).sort(), status.missing);
    const got = await downloadBytes(page, () =>
      page.locator('#files li', { hasText: 'resume.bin' }).locator('button.download').click(),
    );
    assert.ok(got.content.equals(content));
    assert.equal(await page.evaluate((id) => localStorage.getItem(`webfolder:uploads:${id}`), folder.folderId), null);
    await ctx.close();
  });

  test('a tampered chunk is reported and the download fails, never saved as data', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Tamper');
    const content = bytes(5 * MIB + 500, 61);
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await upload(page, [await writeTemp(fx.dir, 't.bin', content)]);
    const list = (await (await fetch(`${fx.server.baseUrl}/api/site/folders/${folder.folderId}/files`)).json()) as {
      files: Array<{ fileId: string }>;
    };
    const chunkPath = join(fx.server.dataDir, 'blobs', folder.folderId, list.files[0]!.fileId, '00002');
    const stored = await readFile(chunkPath);
    stored[100] = stored[100]! ^ 1;
    await writeFile(chunkPath, stored);
    await page.reload();
    const button = page.locator('#files li button.download:not([disabled])').first();
    await button.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.ok(await download.failure(), 'the browser marks the download failed');
    await page.locator('#download-status .notice.error').waitFor();
    // Said in the page's words (the chunk that failed is named in the console).
    assert.match(
      await page.locator('#download-status').innerText(),
      /the file’s encrypted data did not pass its check/,
    );
    await screenshot(page, 'download-tampered');
    await ctx.close();
  });

  test('a picked folder keeps its relative paths; cancel stops an upload, which can be resumed', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'Folders');
    const tree = join(fx.dir, 'album');
    await mkdir(join(tree, 'day 1'), { recursive: true });
    await writeFile(join(tree, 'day 1', 'a.jpg'), bytes(300, 71));
    await writeFile(join(tree, 'b.jpg'), bytes(400, 72));
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.setInputFiles('#folder-input', tree);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#files li[data-file-id]').nth(1).waitFor();
    assert.deepEqual((await page.locator('#files li .name').allInnerTexts()).sort(), [
      'album/b.jpg',
      'album/day 1/a.jpg',
    ]);
    // One download saves the last segment of the path (src/transfer/names.ts), not `album_day 1_a.jpg`.
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#files li', { hasText: 'album/day 1/a.jpg' }).locator('button.download:not([disabled])').click(),
    ]);
    assert.equal(single.suggestedFilename(), 'a.jpg');
    await single.path();

    // Cancel: hold the chunk PUTs so the upload is surely in flight, then cancel.
    await page.route('**/v2/uploads/**', (route) => route.abort('connectionreset'));
    const big = await writeTemp(fx.dir, 'cancel.bin', bytes(2 * 5 * MIB, 73));
    await page.setInputFiles('#file-input', big);
    await page.locator('#cancel-upload').click();
    await page.locator('#upload-status[data-state="cancelled"]').waitFor();
    await page.reload();
    await page.unroute('**/v2/uploads/**');
    await page
      .locator('#resume-note')
      .waitFor()
      .catch(async (error: Error) => {
        // Say what the page showed instead, and what it had kept, so that a failure can be understood.
        const shown = await page
          .locator('#main')
          .innerText()
          .catch(() => '(no #main)');
        const kept = await page.evaluate(() => Object.keys(localStorage).join(', '));
        throw new Error(`${error.message}\npage after reload: ${shown}\nlocalStorage keys: ${kept}`);
      });
    await upload(page, [big]);
    await page.locator('#files li', { hasText: 'cancel.bin' }).locator('button.download:not([disabled])').waitFor();
    await ctx.close();
  });

  test('wrong key, missing key, unknown folder: clear messages, 404 page', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Keys');
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await upload(page, [await writeTemp(fx.dir, 'k.txt', bytes(10, 51))]);
    const other = await ctx.newPage();
    await other.goto(`${folder.folderUrl.split('#')[0]}#AAAAAAAAAAAAAAAAAAAAAA`);
    await other.locator('#error').waitFor();
    assert.equal(await other.locator('h1').innerText(), 'Wrong key for this folder');
    await screenshot(other, 'wrong-key');
    await other.goto(folder.folderUrl.split('#')[0]!);
    await other.locator('#error').waitFor();
    assert.equal(await other.locator('h1').innerText(), 'This link has no key');
    const res = await other.goto(`${fx.server.baseUrl}/f/AAAAAAAAAAAAAAAA#AAAAAAAAAAAAAAAAAAAAAA`);
    assert.equal(res?.status(), 404);
    await other.locator('#error').waitFor();
    assert.equal(await other.locator('h1').innerText(), 'Folder not found');
    await screenshot(other, 'unknown-folder');
    await ctx.close();
  });

  test('expired folder: the page says so (server clock 25 hours ahead)', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Too late');
    // No sweeper: its start-up sweep would delete the folder before the page reads it.
    const later = await startServer(
      { DATA_DIR: fx.server.dataDir, CLOCK_OFFSET_SECONDS: String(25 * 3600) },
      { sweeper: false },
    );
    try {
      const ctx = await newContext(fx.browser);
      const page = await ctx.newPage();
      const res = await page.goto(`${later.baseUrl}/f/${folder.folderId}#${folder.folderUrl.split('#')[1]}`);
      assert.equal(res?.status(), 404);
      await page.locator('#error').waitFor();
      assert.match(await page.locator('h1').innerText(), /expired/i);
      assert.match(await page.locator('#error').innerText(), /24 hours/);
      await screenshot(page, 'expired-folder');
      await ctx.close();
    } finally {
      await later.close();
    }
  });

  test('home page and a phone-sized folder page, keyboard reachable, no CSP violations', async () => {
    const ctx = await newContext(fx.browser, true);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.locator('#new-mode').selectOption('share');
    await screenshot(page, 'home-phone');
    await Promise.all([page.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), page.locator('button[type=submit]').click()]);
    // Made on the home page: created and claimed in one step, so this browser owns it at once.
    await page.locator('#role[data-role="owner"]').waitFor();
    // Every control has an accessible name, and the file picker is reachable from the keyboard.
    const unnamed = await page.evaluate(
      () =>
        [...document.querySelectorAll('input, button, select')].filter((el) => {
          const e = el as HTMLInputElement;
          return !(e.labels?.length || e.getAttribute('aria-label') || e.textContent?.trim());
        }).length,
    );
    assert.equal(unnamed, 0);
    let reached = false;
    for (let i = 0; i < 15 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.id === 'file-input');
    }
    assert.ok(reached, 'the file picker is reachable with Tab');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no horizontal scrolling on a phone (scrollWidth ${width})`);
    await screenshot(page, 'folder-empty-phone');
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});

async function ownerToken(page: Page, folderId: string): Promise<string> {
  // The page derives the token from the owner secret it stores; do the same derivation here.
  const secret = await page.evaluate((id) => localStorage.getItem(`webfolder:owner:${id}`), folderId);
  assert.ok(secret, 'owner secret stored');
  const { deriveOwnerCredentials } = await import('../../src/crypto/index.js');
  return (await deriveOwnerCredentials(secret)).authToken;
}

function require_sha256(x: Buffer): string {
  return createHash('sha256').update(x).digest('hex');
}
