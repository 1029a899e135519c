import assert from 'node:assert/strict';
import { createFolder, writeTemp } from './browser.js';
import { type DriverPage, FOLDER_LINK, type Site } from './driver.js';
import type { DownloadLine } from './gated.js';

/**
 * Steps the driver-written scenarios share (driver.ts): what a person does on the site, in any engine.
 */

/**
 * A send folder made on the home page with a download `limit` ('' for none) and one file uploaded by
 * its owner (whose page is closed after): the folder's share link.
 */
export async function sendFolder(
  site: Pick<Site, 'browser' | 'url' | 'dir'>,
  limit: string,
  content: Buffer,
  name: string,
): Promise<string> {
  const owner = await site.browser.page();
  try {
    await owner.goto(`${site.url}/`);
    await owner.select('#new-mode', 'send');
    await owner.fill('#new-limit', limit);
    await owner.click('button[type=submit]');
    await owner.waitForUrl(FOLDER_LINK);
    await owner.pickFiles('#file-input', [await writeTemp(site.dir, name, content)]);
    await owner.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    return await owner.url();
  } finally {
    await owner.close();
  }
}

/** Signs in as `login` on the test's OpenID provider's form (test/support/oidc.ts), which takes any password. */
export async function signInAtProvider(page: DriverPage, login: string): Promise<void> {
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', 'any password');
  await page.click('button[type="submit"]');
}

/** The selector of the file row whose name is `name`. */
export async function rowOf(page: DriverPage, name: string): Promise<string> {
  const id = await page.evaluate<string | null>(
    `[...document.querySelectorAll('#files li[data-file-id]')].find((li) => li.querySelector('.name')?.textContent === ${JSON.stringify(name)})?.dataset.fileId ?? null`,
  );
  if (!id) throw new Error(`no ${name} in the list`);
  return `#files li[data-file-id="${id}"]`;
}

/** The page's download line: its state (data-download-state) and words, for `answerUntilPaused`. */
export function downloadLine(page: Pick<DriverPage, 'evaluate'>): () => Promise<DownloadLine> {
  return () =>
    page.evaluate<DownloadLine>(
      `(() => { const e = document.getElementById('download-status');
        return { state: e?.dataset.downloadState ?? '', text: e?.textContent ?? '' }; })()`,
    );
}

/**
 * Accepts the page's dialogs (a confirm before a deletion, the question before leaving an upload).
 * WebKitWebDriver answers none here: its sessions dismiss them, as WebDriver does by default.
 */
export function acceptDialogs(page: DriverPage): void {
  if (page.engine !== 'webkit') page.onDialog('accept');
}

/**
 * Firefox may tell a failed download with an alert: dismissed (it is the browser's, not the page's).
 * WebKitWebDriver answers no dialog, and the MiniBrowser shows none for a download.
 */
export function dismissDialogs(page: DriverPage): void {
  if (page.engine !== 'webkit') page.onDialog('dismiss');
}

/**
 * Firefox reports a download the test made fail as a page error: the frame of one through the service
 * worker ("A ServiceWorker intercepted the request and encountered an unexpected error"), and the
 * stream of one in memory ("Failed to read data from the ReadableStream: …", with the gate's refusal
 * in it). That is the failure the test made, not a problem. The page's other problems, in any engine.
 */
export function problemsBesidesFailedDownload(page: DriverPage): string[] {
  const made = [
    /A ServiceWorker intercepted the request and encountered an unexpected error/,
    /Failed to read data from the ReadableStream: .*answered 404 by the test's gate/,
  ];
  return page.problems.filter((p) => !(page.engine === 'firefox' && made.some((m) => m.test(p))));
}

/**
 * An empty send folder's 24-hour rule is told to its uploader, not to a visitor; the API's
 * empty-folder flow is unchanged (its first visitor may upload and is told the rule). One person's
 * page at a time, so that it runs in WebKit too (one WebDriver session at a time).
 */
export async function emptySendFolderRule(site: Site): Promise<void> {
  const page = await site.browser.page();
  let link: string;
  try {
    await page.goto(`${site.url}/`);
    await page.select('#new-mode', 'send');
    await page.click('button[type=submit]');
    link = await page.waitForUrl(FOLDER_LINK, 60_000);
    await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
    await page.waitFor('#deadline');
  } finally {
    await page.close();
  }
  const visitor = await site.browser.page();
  try {
    await visitor.goto(link);
    await visitor.waitFor('#role[data-role="visitor"]', { timeoutMs: 60_000 });
    assert.equal(await visitor.count('#deadline'), 0, 'a send-mode visitor is not told to upload');
    const api = await createFolder(site.url, 'share');
    await visitor.goto(api.folderUrl);
    await visitor.waitFor('#deadline', { timeoutMs: 60_000 });
  } finally {
    await visitor.close();
  }
}
