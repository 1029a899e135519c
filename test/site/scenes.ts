import { writeTemp } from './browser.js';
import { type DriverPage, FOLDER_LINK, type Site } from './driver.js';
import type { DownloadLine } from './gated.js';

/**
 * Steps the driver-written scenarios share (driver.ts): what a person does on the site, in any engine.
 */

/**
 * A send folder made on the home page with a download `limit` ('' for none) and one file uploaded by
 * its owner (whose page is closed after): the folder's share link.
 */
export async function sendFolder(site: Site, limit: string, content: Buffer, name: string): Promise<string> {
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

/** The page's download line: its state (data-download-state) and words, for `answerUntilPaused`. */
export function downloadLine(page: DriverPage): () => Promise<DownloadLine> {
  return () =>
    page.evaluate<DownloadLine>(
      `(() => { const e = document.getElementById('download-status');
        return { state: e?.dataset.downloadState ?? '', text: e?.textContent ?? '' }; })()`,
    );
}

/**
 * Firefox reports the frame of a download the service worker failed as a page error ("A ServiceWorker
 * intercepted the request and encountered an unexpected error"): where a test makes a download fail,
 * that is the failure it made, not a problem. The page's other problems, in any engine.
 */
export function problemsBesidesFailedDownload(page: DriverPage): string[] {
  const made = /A ServiceWorker intercepted the request and encountered an unexpected error/;
  return page.problems.filter((p) => !(page.engine === 'firefox' && made.test(p)));
}
