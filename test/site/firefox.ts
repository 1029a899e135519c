import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { engineSkip, NOT_BUILT, SCREENSHOTS } from './browser.js';

/**
 * Firefox for the site's end-to-end tests: Debian's Firefox ESR (there is no geckodriver package, and
 * Playwright's Firefox is a patched build that cannot be downloaded here), driven over WebDriver BiDi
 * by puppeteer-core. `FIREFOX_PATH` (set by scripts/ci/12-firefox.sh) or /usr/bin/firefox-esr; when
 * it is missing the suite skips with a message saying how to get it, except when
 * TEST_REQUIRE_FIREFOX=1 (set by that script), where it fails, so that CI never passes by skipping.
 */
export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
export const MISSING = existsSync(FIREFOX)
  ? NOT_BUILT
  : `Firefox not found at ${FIREFOX}: install it (apt-get install -y firefox-esr) or set FIREFOX_PATH`;
export const SKIP = engineSkip('Firefox', 'TEST_REQUIRE_FIREFOX', MISSING);

export interface Firefox {
  readonly browser: Browser;
  readonly downloads: string;
  /** A page in a fresh private context (its own storage and service workers), 1100×900. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

/** Firefox preferences a suite adds to or overrides in launchFirefox's own. */
export type FirefoxPrefs = Record<string, string | number | boolean>;

/**
 * A headless Firefox that saves every download, without asking, into `root`/downloads: Firefox
 * writes `name.part` while a download runs and renames it when done. `prefs` are added to those.
 * A download that fails through the service worker makes Firefox show a window-modal alert that
 * WebDriver BiDi does not report, and no new tab opens in that Firefox after it: a test that makes
 * one fail runs its visitor in a Firefox of its own. `env` is added to Firefox's environment (TZ for
 * its time zone).
 */
export async function launchFirefox(
  root: string,
  prefs: FirefoxPrefs = {},
  env: Record<string, string> = {},
): Promise<Firefox> {
  const downloads = join(root, 'downloads');
  await mkdir(downloads, { recursive: true });
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    env: { ...process.env, ...env },
    extraPrefsFirefox: {
      'browser.download.folderList': 2,
      'browser.download.dir': downloads,
      'browser.download.useDownloadDir': true,
      'browser.download.start_downloads_in_tmp_dir': false,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.download.manager.showWhenStarting': false,
      'browser.download.alwaysOpenPanel': false,
      'browser.helperApps.neverAsk.saveToDisk': 'application/octet-stream,application/zip,text/plain',
      'pdfjs.disabled': true,
      ...prefs,
    },
  });
  return {
    browser,
    downloads,
    async page() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 1100, height: 900 });
      return page;
    },
    close: () => browser.close(),
  };
}

/**
 * A screenshot kept as a CI artifact: artifacts/screenshots/firefox-<name>.png; the whole page, or
 * only the viewport for an overlay such as the viewer (which covers the viewport, not the page).
 */
export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `firefox-${name}.png`) as `${string}.png`, fullPage });
}
