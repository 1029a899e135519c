import { readdirSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { until } from '../support/poll.js';
import { downloadDir } from './download-dir.js';
import type { Driver, DriverPage, Engine, LaunchOptions, PageOptions, WaitState } from './driver.js';
import { launchFirefox, MISSING, SKIP, shot } from './firefox.js';

/**
 * Firefox ESR through puppeteer-core over WebDriver BiDi (firefox.ts launches it and says when it is
 * missing). Each page is a fresh private context of the one Firefox; downloads land in its download
 * directory. A colour scheme or locale cannot be set for one page here: asking for one is refused.
 */
export const firefox: Engine = {
  name: 'firefox',
  skip: SKIP || (MISSING ? MISSING : false),
  async launch(dir: string, options: LaunchOptions = {}): Promise<Driver> {
    const ff = await launchFirefox(
      dir,
      {
        ...(options.serviceWorkers === false ? { 'dom.serviceWorkers.enabled': false } : {}),
        // 0 dark, 1 light: the colour scheme Firefox gives pages.
        ...(options.colorScheme
          ? { 'layout.css.prefers-color-scheme.content-override': options.colorScheme === 'dark' ? 0 : 1 }
          : {}),
        ...(options.locale ? { 'intl.accept_languages': `${options.locale}, ${options.locale.slice(0, 2)}` } : {}),
      },
      options.timeZone ? { TZ: options.timeZone } : {},
    );
    return {
      engine: 'firefox',
      async page(pageOptions: PageOptions = {}) {
        if (pageOptions.colorScheme || pageOptions.locale)
          throw new Error('Firefox over WebDriver BiDi sets no colour scheme or locale for one page');
        const page = await ff.page();
        if (pageOptions.phone || pageOptions.viewport) {
          const size = pageOptions.viewport ?? { width: 390, height: 844 };
          await page.setViewport({
            ...size,
            isMobile: pageOptions.phone ?? false,
            hasTouch: pageOptions.phone ?? false,
          });
        }
        return wrap(page, ff.downloads);
      },
      close: () => ff.close(),
    };
  },
};

/** The names a download of `name` may be saved under: Firefox adds (1) when a file of the name is there. */
function savedNames(name: string): string[] {
  const dot = name.lastIndexOf('.');
  return [name, dot > 0 ? `${name.slice(0, dot)}(1)${name.slice(dot)}` : `${name}(1)`];
}

/**
 * Waits until `name` (or its (1) twin, when a failed download left an empty file of the name) has
 * `size` bytes in `downloads` and no partial file of the name remains. Files of those names left by
 * earlier downloads are removed first.
 */
function downloaded(downloads: string, name: string, size: number): Promise<Buffer> {
  const names = savedNames(name);
  for (const n of names) rmSync(join(downloads, n), { force: true });
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return until(
    `${name} downloaded with ${size} bytes`,
    async () => {
      if (readdirSync(downloads).some((e) => e.endsWith('.part') && e.startsWith(stem))) return false;
      for (const candidate of names) {
        const path = join(downloads, candidate);
        const got = await stat(path).then(
          (st) => st.size,
          () => -1,
        );
        if (got === size) return readFile(path);
      }
      return false;
    },
    120_000,
  );
}

const q = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;

function wrap(page: Page, downloads: string, tab = false): DriverPage {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content-Security-Policy|Content Security Policy|Refused to/.test(m.text()))
      problems.push(`csp: ${m.text()}`);
  });
  const evaluate = <T>(expression: string) => page.evaluate(expression) as Promise<T>;
  /** Fails unless `selector` matches exactly one element (Playwright's strictness, for the same scenario). */
  const only = async (selector: string) => {
    const n = await evaluate<number>(`document.querySelectorAll(${JSON.stringify(selector)}).length`);
    if (n !== 1) throw new Error(`${selector} matches ${n} elements, not one`);
  };
  const visible = async (selector: string) => {
    await page.waitForSelector(selector, { visible: true, timeout: 30_000 });
    await only(selector);
  };
  const found = async <T>(selector: string, expression: string): Promise<T> => {
    await page.waitForSelector(selector, { timeout: 30_000 });
    await only(selector);
    return evaluate<T>(`((e) => ${expression})(${q(selector)})`);
  };
  return {
    engine: 'firefox',
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
    waitForUrl: (pattern, timeoutMs = 30_000) =>
      until(`an address matching ${pattern}`, () => pattern.test(page.url()) && page.url(), timeoutMs),
    async waitFor(selector, { state = 'visible', timeoutMs = 30_000 }: { state?: WaitState; timeoutMs?: number } = {}) {
      if (state === 'detached') await until(`${selector} gone`, () => evaluate(`!${q(selector)}`), timeoutMs);
      else
        await page.waitForSelector(selector, {
          timeout: timeoutMs,
          ...(state === 'visible' ? { visible: true } : state === 'hidden' ? { hidden: true } : {}),
        });
    },
    async waitUntil(expression, timeoutMs = 30_000) {
      await until(`the page to hold ${expression}`, () => evaluate(expression).then(Boolean), timeoutMs);
    },
    evaluate,
    async click(selector) {
      await visible(selector);
      await page.click(selector);
    },
    async fill(selector, text) {
      await visible(selector);
      await page.focus(selector);
      await evaluate(
        `((e) => { e.value = ''; e.dispatchEvent(new Event('input', { bubbles: true })); })(${q(selector)})`,
      );
      if (text) await page.keyboard.type(text);
    },
    async select(selector, value) {
      await visible(selector);
      await page.select(selector, value);
    },
    async pickFiles(selector, paths) {
      const input = (await page.waitForSelector(selector, { timeout: 30_000 })) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(...paths);
    },
    async focus(selector) {
      await visible(selector);
      await page.focus(selector);
    },
    press: (key) => page.keyboard.press(key as Parameters<Page['keyboard']['press']>[0]),
    type: (text) => page.keyboard.type(text),
    text: (selector) => found(selector, `e.textContent ?? ''`),
    renderedText: (selector) => found(selector, 'e.innerText'),
    value: (selector) => found(selector, 'e.value'),
    attribute: (selector, name) => found(selector, `e.getAttribute(${JSON.stringify(name)})`),
    count: (selector) => evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`),
    onDialog(answer) {
      page.on('dialog', (d) => void (answer === 'accept' ? d.accept() : d.dismiss()).catch(() => {}));
    },
    download: (name, size) => downloaded(downloads, name, size),
    downloadWhen(name, check) {
      for (const n of savedNames(name)) rmSync(join(downloads, n), { force: true });
      return downloadDir(downloads).when(name, check);
    },
    downloadFailure: () =>
      Promise.reject(new Error('Firefox tells a failed download with an alert WebDriver BiDi does not report')),
    screenshot: (name, { fullPage = true } = {}) => shot(page, name, fullPage),
    show: () => page.bringToFront(),
    async look({ viewport, colorScheme }) {
      if (colorScheme) throw new Error('Firefox over WebDriver BiDi sets no colour scheme for one page');
      if (viewport) await page.setViewport(viewport);
    },
    newTab: async () => wrap(await page.browserContext().newPage(), downloads, true),
    close: () => (tab ? page.close() : page.browserContext().close()),
  };
}
