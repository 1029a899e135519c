import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { By, Key, type WebDriver } from 'selenium-webdriver';
import { until } from '../support/poll.js';
import { downloadDir } from './download-dir.js';
import type { Driver, DriverPage, Engine, LaunchOptions, PageOptions, WaitState } from './driver.js';
import { MISSING, SKIP, shot, startWebKit } from './webkit.js';

/**
 * WebKitGTK's MiniBrowser through WebKitWebDriver and selenium-webdriver (webkit.ts starts them and
 * says when they are missing). WebKitWebDriver runs one session at a time: each page is a fresh
 * MiniBrowser, and a scenario closes one person's page before it opens the next one's. WebDriver
 * reports no page errors (`problems` stays empty), sets no colour scheme or locale, and answers no
 * dialog here: asking for those is refused.
 */
export const webkit: Engine = {
  name: 'webkit',
  skip: SKIP || (MISSING ? MISSING : false),
  async launch(dir: string, options: LaunchOptions = {}): Promise<Driver> {
    if (options.colorScheme || options.locale) throw new Error('WebKitWebDriver sets no colour scheme or locale');
    const wk = await startWebKit(dir);
    const args = options.serviceWorkers === false ? ['--features=-ServiceWorkers'] : [];
    return {
      engine: 'webkit',
      async page(pageOptions: PageOptions = {}) {
        if (pageOptions.colorScheme || pageOptions.locale)
          throw new Error('WebKitWebDriver sets no colour scheme or locale for one page');
        const session = await wk.session(args);
        const size = pageOptions.viewport ?? (pageOptions.phone ? { width: 390, height: 844 } : null);
        if (size) await session.manage().window().setRect(size);
        return wrap(session, wk.downloads);
      },
      close: () => wk.close(),
    };
  },
};

const KEYS: Record<string, string> = {
  Enter: Key.ENTER,
  Tab: Key.TAB,
  Escape: Key.ESCAPE,
  ArrowRight: Key.ARROW_RIGHT,
  ArrowLeft: Key.ARROW_LEFT,
  Home: Key.HOME,
  End: Key.END,
  Backspace: Key.BACK_SPACE,
};

const q = (selector: string) => `document.querySelector(${JSON.stringify(selector)})`;

function wrap(session: WebDriver, downloads: string): DriverPage {
  const evaluate = <T>(expression: string) => session.executeScript(`return (${expression});`) as Promise<T>;
  const only = async (selector: string) => {
    const n = await until(
      `${selector} on the page`,
      async () => (await evaluate<number>(`document.querySelectorAll(${JSON.stringify(selector)}).length`)) || false,
    );
    if (n !== 1) throw new Error(`${selector} matches ${n} elements, not one`);
    return session.findElement(By.css(selector));
  };
  const read = async <T>(selector: string, expression: string) => {
    await only(selector);
    return evaluate<T>(`((e) => ${expression})(${q(selector)})`);
  };
  const shown = (selector: string) =>
    `((e) => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')(${q(selector)})`;
  const refused = (what: string) => () => Promise.reject(new Error(`WebKitWebDriver: ${what}`));
  return {
    engine: 'webkit',
    problems: [],
    goto: (url) => session.get(url),
    reload: () => session.navigate().refresh(),
    back: () => session.navigate().back(),
    url: () => session.getCurrentUrl(),
    waitForUrl: (pattern, timeoutMs = 30_000) =>
      until(
        `an address matching ${pattern}`,
        async () => {
          const url = await session.getCurrentUrl();
          return pattern.test(url) && url;
        },
        timeoutMs,
      ),
    async waitFor(selector, { state = 'visible', timeoutMs = 30_000 }: { state?: WaitState; timeoutMs?: number } = {}) {
      const check = {
        visible: shown(selector),
        attached: `!!${q(selector)}`,
        hidden: `!${shown(selector)}`,
        detached: `!${q(selector)}`,
      }[state];
      await until(`${selector} ${state}`, () => evaluate<boolean>(check), timeoutMs);
    },
    async waitUntil(expression, timeoutMs = 30_000) {
      await until(`the page to hold ${expression}`, async () => Boolean(await evaluate(expression)), timeoutMs);
    },
    evaluate,
    async click(selector) {
      await (await only(selector)).click();
    },
    async fill(selector, text) {
      const e = await only(selector);
      await evaluate(
        `((e) => { e.value = ''; e.dispatchEvent(new Event('input', { bubbles: true })); })(${q(selector)})`,
      );
      if (text) await e.sendKeys(text);
    },
    async select(selector, value) {
      await only(selector);
      await session.findElement(By.css(`${selector} option[value=${JSON.stringify(value)}]`)).click();
    },
    async pickFiles(selector, paths) {
      await (await only(selector)).sendKeys(paths.join('\n'));
    },
    async focus(selector) {
      await only(selector);
      await evaluate(`${q(selector)}.focus()`);
    },
    press: (key) =>
      session
        .switchTo()
        .activeElement()
        .sendKeys(KEYS[key] ?? key),
    type: (text) => session.switchTo().activeElement().sendKeys(text),
    text: (selector) => read(selector, `e.textContent ?? ''`),
    renderedText: (selector) => read(selector, 'e.innerText'),
    value: (selector) => read(selector, 'e.value'),
    attribute: (selector, name) => read(selector, `e.getAttribute(${JSON.stringify(name)})`),
    count: (selector) => evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`),
    onDialog() {
      throw new Error('WebKitWebDriver: dialogs are not answered here');
    },
    download(name, size) {
      rmSync(join(downloads, name), { force: true });
      return downloadDir(downloads).file(name, size);
    },
    downloadWhen(name, check) {
      rmSync(join(downloads, name), { force: true });
      return downloadDir(downloads).when(name, check);
    },
    downloadFailure: refused('a failed download is not reported'),
    screenshot: async (name) => {
      await shot(session, name);
    },
    show: async () => {},
    async look({ viewport, colorScheme }) {
      if (colorScheme) throw new Error('WebKitWebDriver sets no colour scheme');
      if (viewport) await session.manage().window().setRect(viewport);
    },
    newTab: refused('one session at a time: no second tab'),
    close: () => session.quit(),
  };
}
