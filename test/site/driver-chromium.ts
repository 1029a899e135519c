import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { until } from '../support/poll.js';
import { launch, SCREENSHOTS, SKIP, watch } from './browser.js';
import type { Driver, DriverPage, Engine, LaunchOptions, PageOptions, Site, WaitState } from './driver.js';
import type { GatedSite } from './gated.js';

/** Chromium through playwright-core (browser.ts finds it and says when it is missing). */
export const chromium: Engine = {
  name: 'chromium',
  skip: SKIP,
  launch: async (_dir: string, options: LaunchOptions = {}) => chromiumDriver(await launch(), options),
};

/** A Chromium the test launched itself as the driver's browser (closing it closes that Chromium). */
export function chromiumDriver(browser: Browser, options: LaunchOptions = {}): Driver {
  return {
    engine: 'chromium',
    page: (pageOptions) => chromiumPage(browser, pageOptions, options),
    close: () => browser.close(),
  };
}

/** A gated Chromium suite (gated.ts) as the driver's site, for the scenes written once (scenes.ts). */
export function chromiumSite(site: GatedSite): Pick<Site, 'browser' | 'url' | 'dir'> {
  return { browser: chromiumDriver(site.browser), url: site.gate.url, dir: site.dir };
}

async function chromiumPage(browser: Browser, options: PageOptions = {}, launched: LaunchOptions): Promise<DriverPage> {
  const context = await browser.newContext({
    acceptDownloads: true,
    viewport: options.viewport ?? (options.phone ? { width: 390, height: 844 } : { width: 1100, height: 900 }),
    ...(options.phone ? { isMobile: true, hasTouch: true } : {}),
    ...((options.colorScheme ?? launched.colorScheme)
      ? { colorScheme: options.colorScheme ?? launched.colorScheme }
      : {}),
    ...((options.locale ?? launched.locale) ? { locale: options.locale ?? launched.locale } : {}),
    ...(launched.timeZone ? { timezoneId: launched.timeZone } : {}),
    ...(launched.serviceWorkers === false ? { serviceWorkers: 'block' as const } : {}),
  });
  const page = await context.newPage();
  return wrap(page, watch(page));
}

function wrap(page: Page, problems: string[], tab = false): DriverPage {
  const one = (selector: string) => page.locator(selector);
  return {
    engine: 'chromium',
    problems,
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    async back() {
      await page.goBack();
    },
    url: async () => page.url(),
    async waitForUrl(pattern, timeoutMs = 30_000) {
      await page.waitForURL(pattern, { timeout: timeoutMs });
      return page.url();
    },
    async waitFor(selector, { state = 'visible', timeoutMs = 30_000 }: { state?: WaitState; timeoutMs?: number } = {}) {
      await one(selector).first().waitFor({ state, timeout: timeoutMs });
    },
    // Polled from here: Playwright's waitForFunction evaluates a string with eval, which the site's
    // Content-Security-Policy refuses.
    async waitUntil(expression, timeoutMs = 30_000) {
      await until(`the page to hold ${expression}`, () => page.evaluate(expression).then(Boolean), timeoutMs);
    },
    evaluate: (expression) => page.evaluate(expression),
    click: (selector) => one(selector).click(),
    fill: (selector, text) => one(selector).fill(text),
    async select(selector, value) {
      await one(selector).selectOption(value);
    },
    pickFiles: (selector, paths) => page.setInputFiles(selector, [...paths]),
    focus: (selector) => one(selector).focus(),
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    text: async (selector) => (await one(selector).textContent()) ?? '',
    renderedText: (selector) => one(selector).innerText(),
    value: (selector) => one(selector).inputValue(),
    attribute: (selector, name) => one(selector).getAttribute(name),
    count: (selector) => one(selector).count(),
    onDialog(answer) {
      page.on('dialog', (d) => void (answer === 'accept' ? d.accept() : d.dismiss()).catch(() => {}));
    },
    async download(name, size) {
      const download = await page.waitForEvent('download', {
        timeout: 300_000,
        predicate: (d) => d.suggestedFilename() === name,
      });
      const failure = await download.failure();
      if (failure) throw new Error(`the download of ${name} failed: ${failure}`);
      const content = await readFile(await download.path());
      if (content.length !== size) throw new Error(`${name}: ${content.length} bytes of ${size}`);
      return content;
    },
    async downloadWhen(name, check) {
      const download = await page.waitForEvent('download', {
        timeout: 300_000,
        predicate: (d) => d.suggestedFilename() === name,
      });
      const failure = await download.failure();
      if (failure) throw new Error(`the download of ${name} failed: ${failure}`);
      return check(await download.path());
    },
    async downloadFailure(name) {
      const download = await page.waitForEvent('download', {
        timeout: 120_000,
        predicate: (d) => d.suggestedFilename() === name,
      });
      return download.failure();
    },
    async screenshot(name, { fullPage = true } = {}) {
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
    },
    show: () => page.bringToFront(),
    async look({ viewport, colorScheme }) {
      if (viewport) await page.setViewportSize(viewport);
      if (colorScheme) await page.emulateMedia({ colorScheme });
    },
    async newTab() {
      const other = await page.context().newPage();
      return wrap(other, watch(other), true);
    },
    close: () => (tab ? page.close() : page.context().close()),
  };
}
