import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type BenchBrowser, launchChromium, processRole } from '../support/chromium-cdp.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { createFolder, SKIP } from './browser.js';

/**
 * Chromium's memory stays bounded while the page uploads a file several times larger than the bound,
 * and while it downloads it again through the service worker (which borrows the page's crypto workers).
 *
 * It once grew with the file: every chunk PUT from the page went through the site's service worker
 * (a controlled page's requests are all offered to its fetch handler, bodies included), and the
 * worker's copy of each body was freed only when the worker's garbage collector ran, which it hardly
 * did: 1 GiB uploaded grew Chromium's browser process by 1 GiB. The worker now routes PUTs straight
 * to the network (web/src/workers/sw.ts). This samples every process of the browser's tree (VmRSS every
 * 100 ms, and each one's VmHWM at the end) and checks that none rose more than BOUND above its size
 * with the page open and idle.
 *
 * Chromium is driven without DevTools' Network domain (test/support/chromium-cdp.ts), as a person's
 * browser runs: with it (playwright) the browser keeps each request's body for the inspector a while
 * longer, which measures DevTools, not the site.
 */
const MIB = 1024 * 1024;
const FILE_MIB = 1024;
const BOUND_MIB = 300;

interface Usage {
  readonly role: string;
  readonly rssMiB: number;
  readonly hwmMiB: number;
}

/** Every process of the browser's tree (the browser, its zygotes, renderers, utilities). */
function chromiumUsage(browser: BenchBrowser): Map<number, Usage> {
  const out = new Map<number, Usage>();
  for (const pid of browser.pids()) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      out.set(pid, {
        role: `${processRole(pid)} (pid ${pid})`,
        rssMiB: kib('VmRSS') / 1024,
        hwmMiB: kib('VmHWM') / 1024,
      });
    } catch {
      /* exited between the listing and the read */
    }
  }
  return out;
}

describe('site: Chromium memory during a large upload and download (Chromium)', { skip: SKIP }, () => {
  let server: RunningServer;
  let browser: BenchBrowser;
  let dir: string;
  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '10', RATE_LIMIT_CHUNK: '100000' });
    browser = await launchChromium();
    dir = await tempDir('webfolder-memory-');
  });
  after(async () => {
    // Each step even if one before it fails: a server left running would keep this file alive.
    try {
      await browser?.close();
    } finally {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  });

  /** Samples every process's VmRSS (and VmHWM unless `rssOnly`) every 100 ms while `run` runs. */
  async function peaks(run: () => Promise<void>, rssOnly: boolean): Promise<Map<number, Usage>> {
    const peak = new Map<number, Usage>();
    const sample = () => {
      for (const [pid, usage] of chromiumUsage(browser)) {
        const seen = peak.get(pid);
        peak.set(pid, {
          role: usage.role,
          rssMiB: Math.max(usage.rssMiB, seen?.rssMiB ?? 0),
          hwmMiB: rssOnly ? 0 : Math.max(usage.hwmMiB, seen?.hwmMiB ?? 0),
        });
      }
    };
    const sampler = setInterval(sample, 100);
    try {
      await run();
    } finally {
      clearInterval(sampler);
    }
    sample();
    return peak;
  }

  /** Each process's growth above `idle`; the lines over BOUND_MIB. */
  function growth(idle: Map<number, Usage>, peak: Map<number, Usage>): { report: string[]; over: string[] } {
    const report: string[] = [];
    const over: string[] = [];
    for (const [pid, p] of peak) {
      // A process started during the transfer (a crypto worker lives in the page's renderer) is measured from nothing.
      const base = idle.get(pid)?.rssMiB ?? 0;
      const grown = Math.max(p.rssMiB, p.hwmMiB) - base;
      const line = `${p.role}: idle ${base.toFixed(0)} MiB, peak RSS ${p.rssMiB.toFixed(0)}${p.hwmMiB ? `, VmHWM ${p.hwmMiB.toFixed(0)}` : ''} (+${grown.toFixed(0)})`;
      report.push(line);
      if (grown > BOUND_MIB) over.push(line);
    }
    return { report, over };
  }

  test(`uploading ${FILE_MIB} MiB grows no Chromium process by more than ${BOUND_MIB} MiB`, async (t) => {
    // A sparse file: reads as zeros, takes no disk, costs the page the same reading and encryption.
    const path = join(dir, 'large.bin');
    const handle = await open(path, 'w');
    await handle.truncate(FILE_MIB * MIB);
    await handle.close();

    const folder = await createFolder(server.baseUrl, 'send', 'Memory');
    await browser.navigate(folder.folderUrl);
    await browser.waitFor(`document.querySelector('#file-input')`);
    // The service worker is running (it starts with the page) before the idle sizes are taken.
    await browser.waitFor('navigator.serviceWorker.controller');

    const idle = chromiumUsage(browser);
    assert.ok(idle.size >= 3, `found Chromium's processes (${[...idle.values()].map((u) => u.role).join(', ')})`);
    const peak = await peaks(async () => {
      await browser.setInputFiles('#file-input', [path]);
      await browser.waitFor(`document.querySelector('#upload-status[data-state="complete"]')`, 300_000);
    }, false);
    const { report, over } = growth(idle, peak);
    t.diagnostic(report.join('; '));
    assert.deepEqual(over, [], `over the ${BOUND_MIB} MiB bound:\n${report.join('\n')}`);
    // The upload really happened: the server holds the whole file.
    await browser.waitFor(`document.querySelector('#files li button.download:not([disabled])')`);
    const names = await browser.evaluate<string[]>(
      `[...document.querySelectorAll('#files li .name')].map((e) => e.textContent)`,
    );
    assert.deepEqual(names, ['large.bin']);
  });
  test(`downloading it again grows no Chromium process by more than ${BOUND_MIB} MiB`, async (t) => {
    // After the upload above, in the same page: its VmHWM already holds the upload's peak, so the
    // download is judged by VmRSS sampled every 100 ms.
    const button = '#files li button.download:not([disabled])';
    await browser.waitFor(`document.querySelector('${button}')`);
    const downloads = join(dir, 'downloads');
    const idle = chromiumUsage(browser);
    let received = 0;
    const peak = await peaks(async () => {
      const { finished } = await browser.nextDownload(downloads);
      await browser.evaluate(`document.querySelector('${button}').click()`);
      received = await finished;
    }, true);
    const { report, over } = growth(idle, peak);
    t.diagnostic(report.join('; '));
    assert.deepEqual(over, [], `over the ${BOUND_MIB} MiB bound:\n${report.join('\n')}`);
    assert.equal(received, FILE_MIB * MIB, 'the whole file was saved');
    // Every byte decrypted to what was uploaded (the sparse file's zeros).
    let nonZero = 0;
    const saved = await readdir(downloads); // named by the download's id (allowAndName)
    assert.equal(saved.length, 1);
    for await (const piece of createReadStream(join(downloads, saved[0]!))) {
      if ((piece as Buffer).some((b) => b !== 0)) nonZero++;
    }
    assert.equal(nonZero, 0);
  });
});
