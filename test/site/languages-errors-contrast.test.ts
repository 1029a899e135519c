import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { until } from '../support/poll.js';
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

/**
 * The page people trust: its languages, the walk-through fixes (Cancel then pick, a
 * corrected link in the same tab, no negative speed, no stale status, the offline retry message),
 * the HTML 404 for browsers, dark mode and the QR toggle — in a real Chromium against a real server.
 */
const MIB = 1024 * 1024;

/**
 * Slows this page's uploads (Chromium's own network emulation) so that a test can act during one;
 * returns what takes the page offline and back (the same emulation: navigator.onLine follows).
 */
async function throttleUploads(
  ctx: BrowserContext,
  page: Page,
  bytesPerSecond: number,
): Promise<(offline: boolean) => Promise<void>> {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  const set = async (offline: boolean) => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  };
  await set(false);
  return set;
}

/**
 * A context for the throttled tests: no service worker, whose own requests (a page it controls
 * fetches through it) Chromium's page emulation would not slow down.
 */
function plainContext(fx: ReturnType<typeof useBrowserFixture>): Promise<BrowserContext> {
  return fx.browser.newContext({
    serviceWorkers: 'block',
    acceptDownloads: true,
    viewport: { width: 1100, height: 900 },
  });
}

/** Every text and state `#upload-status` shows, in order (a MutationObserver in the page). */
async function recordStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { statusLog: string[] }).statusLog = log;
    let last = '';
    new MutationObserver(() => {
      const s = document.getElementById('upload-status');
      const now = s ? `${s.dataset.state ?? ''}|${s.textContent ?? ''}` : '';
      if (now && now !== last) {
        last = now;
        log.push(now);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { statusLog: string[] }).statusLog);
}

/** WCAG contrast ratio of two CSS colours (`rgb(r, g, b)` or `#rrggbb`). */
function contrast(a: string, b: string): number {
  const rgb = (c: string) => {
    const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(c.trim());
    const hex = short
      ? [c, `${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}`]
      : /^#([0-9a-f]{6})$/i.exec(c.trim());
    const parts = hex
      ? [0, 2, 4].map((i) => Number.parseInt(hex[1]!.slice(i, i + 2), 16))
      : (/rgba?\(([^)]+)\)/.exec(c)?.[1] ?? '').split(',').map((x) => Number(x.trim()));
    return parts.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
  };
  const lum = (c: string) => {
    const [r, g, b] = rgb(c) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

describe('site: languages, walk-through fixes, 404, dark mode (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('German from the browser’s languages, Korean from the switch, kept across pages', async () => {
    const ctx = await fx.browser.newContext({ locale: 'de-DE', viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${fx.server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Dateien senden, Ende-zu-Ende-verschlüsselt' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await page.locator('#language').inputValue(), 'de');
    assert.equal(await page.locator('header .tag').innerText(), 'Ende-zu-Ende-verschlüsselte Dateiübertragung');
    await screenshot(page, 'home-de');

    const folder = await createFolder(fx.server.baseUrl, 'share', 'Sprachen');
    await page.goto(folder.folderUrl);
    await page.locator('#role[data-role="unclaimed"]').waitFor();
    assert.match(await page.locator('#role').innerText(), /gehört noch niemandem/);
    await page.setInputFiles('#file-input', [
      await writeTemp(fx.dir, 'eins.txt', bytes(100, 1)),
      await writeTemp(fx.dir, 'zwei.txt', bytes(200, 2)),
    ]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#upload-status').innerText(), 'Hochladen fertig: 2 Dateien.');

    // The switch: Korean at once (no reload), and remembered.
    await page.locator('#language').selectOption('ko');
    await page.locator('#role[data-role="owner"]', { hasText: '내가 소유한 폴더입니다.' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
    assert.equal(await page.locator('#files-h').innerText(), '파일');
    assert.equal(await page.locator('#files li button.download').first().innerText(), '내려받기');
    await screenshot(page, 'folder-ko');
    await page.goto(`${fx.server.baseUrl}/`);
    await page.getByRole('heading', { name: '종단 간 암호화로 파일 보내기' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('webfolder:language')), 'ko');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('German and Korean fit a phone: no horizontal scrolling, the switch reachable', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'share', 'Telefon');
    for (const locale of ['de-DE', 'ko-KR']) {
      const ctx = await fx.browser.newContext({
        locale,
        viewport: { width: 375, height: 740 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await ctx.newPage();
      const problems = watch(page);
      for (const url of [`${fx.server.baseUrl}/`, folder.folderUrl]) {
        await page.goto(url);
        await page.locator('main h1').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 1, `${locale} ${url}: no horizontal scrolling (${overflow}px)`);
        const box = (await page.locator('#language').boundingBox())!;
        assert.ok(box.height >= 44 && box.x + box.width <= 375, `${locale}: the switch is on screen`);
      }
      await screenshot(page, `folder-phone-${locale.slice(0, 2)}`);
      assert.deepEqual(problems, []);
      await ctx.close();
    }
  });

  test('a corrected link pasted into the same tab opens the folder without a reload', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Fragment');
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    const secret = new URL(folder.folderUrl).hash;
    await page.goto(`${folder.folderUrl.replace(/#.*$/, '')}#not-a-valid-key`);
    await page.locator('#error').waitFor();
    assert.match(await page.locator('h1').innerText(), /damaged/);
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    await page.evaluate((hash) => {
      location.hash = hash;
    }, secret);
    await page.locator('#role[data-role="unclaimed"]').waitFor();
    assert.equal(await page.locator('#folder-title').innerText(), 'Fragment');
    assert.equal(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), true);
    // The skip link moves focus and leaves the fragment (the key) alone.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(new URL(page.url()).hash, secret);
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('Cancel, then files picked at once: the new upload is shown, never the old "cancelled"; no negative speed', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Cancel race');
    const ctx = await plainContext(fx);
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(folder.folderUrl);
    await page.locator('#file-input').waitFor({ state: 'attached' });
    const log = await recordStatus(page);
    await throttleUploads(ctx, page, 2 * MIB);
    const first = await writeTemp(fx.dir, 'first.bin', bytes(20 * MIB, 3));
    await page.setInputFiles('#file-input', [first]);
    await page.locator('#cancel-upload').waitFor();
    // Not stale while it runs: the claim made this browser the owner, and the list shows the file uploading.
    await page.locator('#role[data-role="owner"]').waitFor();
    await page.locator('#files li', { hasText: 'first.bin' }).locator('button', { hasText: 'Uploading…' }).waitFor();
    assert.equal(await page.getByText('No files yet.').count(), 0);
    // Some bytes on their way, then Cancel and a new pick at once.
    await page.waitForFunction(() => /[1-9]\d* %/.test(document.querySelector('#uploads')?.textContent ?? ''));
    // Cancel and the new pick in the same task (a person is fast; the cancelled upload settles later).
    await page.evaluate(() => {
      const input = document.getElementById('file-input') as HTMLInputElement;
      const picked = new DataTransfer();
      picked.items.add(new File([new Uint8Array(3000).fill(7)], 'second.txt', { lastModified: 1 }));
      (document.getElementById('cancel-upload') as HTMLButtonElement).click();
      input.files = picked.files;
      input.dispatchEvent(new Event('change'));
    });
    const second = Buffer.alloc(3000, 7);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#upload-status').innerText(), 'Upload complete: 1 file.');
    const seen = await log();
    const started = seen.findLastIndex((s) => s.includes('Encrypting'));
    assert.ok(started > 0, `the second upload started: ${seen.join(' / ')}`);
    assert.deepEqual(
      seen.slice(started).filter((s) => s.startsWith('cancelled|')),
      [],
      'the cancelled upload never covers the new one',
    );
    assert.deepEqual(
      seen.filter((s) => /-\d/.test(s.split('·')[2] ?? '')),
      [],
      'no negative speed',
    );
    // The cancelled file is incomplete, not "Uploading…" forever; the new one downloads.
    await page.locator('#files li', { hasText: 'first.bin' }).locator('button', { hasText: 'Incomplete' }).waitFor();
    const got = await downloadBytes(page, () =>
      page.locator('#files li', { hasText: 'second.txt' }).locator('button.download').click(),
    );
    assert.ok(got.content.equals(second));
    await screenshot(page, 'folder-after-cancel');
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  test('offline during an upload: a visible "offline, retrying" status, then the upload completes', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Offline');
    const ctx = await plainContext(fx);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    await page.locator('#file-input').waitFor({ state: 'attached' });
    // More chunks than the page sends at once (4): going offline stops none in flight, the next ones fail.
    const setOffline = await throttleUploads(ctx, page, 8 * MIB);
    const content = bytes(8 * 5 * MIB, 5);
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'offline.bin', content)]);
    await page.locator('#cancel-upload').waitFor();
    const log = await recordStatus(page);
    await setOffline(true);
    const waiting = page.locator('#upload-status[data-state="waiting"][data-why="offline"]');
    await waiting.waitFor({ timeout: 30_000 }).catch(async (e) => {
      throw new Error(`${e}: ${(await log()).join(' / ')}`);
    });
    assert.match(await waiting.innerText(), /^Waiting: this device is offline; retrying in \d+ s\./);
    await screenshot(page, 'upload-offline');
    await setOffline(false);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 120_000 });
    const got = await downloadBytes(page, () => page.locator('#files li button.download').first().click());
    assert.ok(got.content.equals(content));
    await ctx.close();
  });

  test('a wrong address: an HTML page for a browser, {error, code} for programs and under the API', async () => {
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    const problems = watch(page);
    const res = await page.goto(`${fx.server.baseUrl}/no/such/page`);
    assert.equal(res?.status(), 404);
    assert.match(res?.headers()['content-type'] ?? '', /^text\/html/);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    const home = page.getByRole('link', { name: 'Go to the home page' });
    const style = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    assert.match(style, /system-ui/, 'its style applies under its CSP');
    await screenshot(page, 'not-found');
    await home.click();
    await page.getByRole('heading', { name: 'Send files, end-to-end encrypted' }).waitFor();
    assert.deepEqual(problems, []);
    await ctx.close();

    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const [path, accept] of [
      ['/no/such/page', undefined],
      ['/no/such/page', '*/*'],
      ['/no/such/page', 'application/json'],
      ['/no/such/page', 'application/json, text/html;q=0.5'],
      ['/v2/no-such-route', browserAccept],
      ['/api/site/nothing-here', browserAccept],
    ] as const) {
      const r = await fetch(`${fx.server.baseUrl}${path}`, accept ? { headers: { accept } } : {});
      assert.equal(r.status, 404, `${path} ${accept}`);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${path} ${accept}`);
      const body = (await r.json()) as { error: string; code: string };
      assert.equal(body.code, 'not_found');
      assert.match(body.error, /no route/);
    }
    const html = await fetch(`${fx.server.baseUrl}/no/such/page`, { headers: { accept: browserAccept } });
    assert.equal(html.status, 404);
    assert.match(html.headers.get('content-security-policy') ?? '', /style-src 'sha256-/);
    assert.doesNotMatch(html.headers.get('content-security-policy') ?? '', /unsafe-inline|script-src/);
  });

  test('dark mode follows the system, every text keeps a 4.5:1 contrast; the QR toggle is a 44 px target with the focus ring', async () => {
    const folder = await createFolder(fx.server.baseUrl, 'send', 'Dark');
    const ctx = await newContext(fx.browser);
    const page = await ctx.newPage();
    await page.goto(folder.folderUrl);
    // The share card shows once the folder has an owner: the first upload claims it.
    await page.setInputFiles('#file-input', [await writeTemp(fx.dir, 'dark.txt', bytes(500, 6))]);
    await page.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await page.locator('#share-link').waitFor();
    const colours = () =>
      page.evaluate(() => {
        const root = getComputedStyle(document.documentElement);
        const names: Record<string, string> = {};
        for (const n of [
          '--fg',
          '--muted',
          '--bg',
          '--card',
          '--accent',
          '--accent-fg',
          '--danger',
          '--error-bg',
          '--notice-bg',
        ])
          names[n] = root.getPropertyValue(n).trim();
        return { bg: root.backgroundColor, names };
      });
    const pairs: Array<[string, string]> = [
      ['--fg', '--bg'],
      ['--fg', '--card'],
      ['--muted', '--card'],
      ['--muted', '--bg'],
      ['--accent', '--card'],
      ['--accent-fg', '--accent'],
      ['--danger', '--error-bg'],
      ['--fg', '--notice-bg'],
    ];
    const light = await colours();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await colours();
    assert.notEqual(dark.bg, light.bg, 'the page changes with the system setting');
    assert.ok(contrast(dark.bg, '#ffffff') > 12, `a dark background (${dark.bg})`);
    for (const scheme of [light, dark])
      for (const [a, b] of pairs) {
        const ratio = contrast(scheme.names[a]!, scheme.names[b]!);
        assert.ok(ratio >= 4.5, `${a} on ${b}: ${ratio.toFixed(2)} (${scheme.names[a]} / ${scheme.names[b]})`);
      }
    const summary = page.locator('details.qr-toggle > summary');
    // boundingBox() does not wait, and a live update may redraw the share card under it: poll for the box.
    const box = await until('the QR toggle laid out', async () => (await summary.boundingBox()) ?? undefined);
    assert.ok(box.height >= 44 && box.width >= 44, `QR toggle ${box.width}x${box.height}`);
    // The ways to pass the link on (e-mail, share sheet where there is one) come just before the toggle.
    await page.locator('.share-ways > :last-child').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SUMMARY');
    const outline = await summary.evaluate((el) => {
      const s = getComputedStyle(el);
      return `${s.outlineStyle} ${s.outlineWidth}`;
    });
    assert.equal(outline, 'solid 3px', 'the site’s focus ring');
    await page.keyboard.press('Enter');
    await page.locator('.qr svg').waitFor();
    // The QR code stays dark on white in dark mode (phones scan it).
    assert.equal(
      await page.locator('.qr').evaluate((el) => getComputedStyle(el).backgroundColor),
      'rgb(255, 255, 255)',
    );
    await screenshot(page, 'folder-dark');
    await ctx.close();
  });
});
