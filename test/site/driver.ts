import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import type { Gate } from '../support/gate.js';
import { type RunningServer, type ServerPlan, type SpawnedServer, useServer } from '../support/server.js';
import { useGatedServer } from './gated.js';

/**
 * One driver for the site's browser tests: a scenario is written once against `DriverPage` and run in
 * each engine by `eachEngine`, and each engine's library stays in its adapter (driver-chromium.ts:
 * playwright-core; driver-firefox.ts: puppeteer-core over WebDriver BiDi; driver-webkit.ts:
 * selenium-webdriver and WebKitWebDriver). Selectors are plain CSS (no engine's own extensions), and
 * page-side code is a JavaScript expression's source (see probes.ts for why not a function).
 */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** How a page is shown. What an engine cannot set for one page (Firefox: colour scheme, locale) it refuses. */
export interface PageOptions {
  /** CSS pixels; 1100×900 unless set (or 390×844 for a phone). */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** A phone: touch, mobile layout, 390×844 unless `viewport` says otherwise. */
  readonly phone?: boolean;
  readonly colorScheme?: 'light' | 'dark';
  /** The browser's language (navigator.language, Accept-Language), e.g. 'de-DE'. */
  readonly locale?: string;
}

/** Options of a browser as a whole (in Chromium, the defaults of each of its pages). */
export interface LaunchOptions {
  /** false: no service worker registers (the page downloads in memory). */
  readonly serviceWorkers?: boolean;
  /** The colour scheme pages get (Firefox: its content colour-scheme preference). */
  readonly colorScheme?: 'light' | 'dark';
  /** The browser's language, e.g. 'de-DE' (Firefox: intl.accept_languages). */
  readonly locale?: string;
  /** The browser's time zone, e.g. 'Asia/Tokyo' (Firefox: TZ in its environment). */
  readonly timeZone?: string;
}

export type WaitState = 'visible' | 'attached' | 'hidden' | 'detached';

/**
 * One page in a fresh context of its own (its own storage, cookies and service workers). `waitFor`
 * waits for the first element a selector matches; the actions and reads need it to match exactly one
 * (as Playwright's locators do), so that a scenario never acts on another element than it meant.
 */
export interface DriverPage {
  readonly engine: EngineName;
  /** Page errors and Content-Security-Policy violations seen so far: a test asserts there were none. */
  readonly problems: string[];
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  back(): Promise<void>;
  url(): Promise<string>;
  /** Waits until the URL matches (a navigation the page made itself). */
  waitForUrl(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Waits for the first element `selector` matches to be in `state` ('visible' unless said). */
  waitFor(selector: string, options?: { state?: WaitState; timeoutMs?: number }): Promise<void>;
  /** Waits until the expression is truthy in the page. */
  waitUntil(expression: string, timeoutMs?: number): Promise<void>;
  /** The value of a JavaScript expression in the page (a promise is awaited). */
  evaluate<T>(expression: string): Promise<T>;
  click(selector: string): Promise<void>;
  /** Replaces an input's value as typing does (input events). */
  fill(selector: string, text: string): Promise<void>;
  /** Chooses the option of a `<select>` by value (input and change events). */
  select(selector: string, value: string): Promise<void>;
  /** Picks files in a file input, as the file chooser does. */
  pickFiles(selector: string, paths: readonly string[]): Promise<void>;
  focus(selector: string): Promise<void>;
  /** Presses a key on the focused element: 'Enter', 'Tab', 'Escape', 'ArrowRight', 'Home', 'End'. */
  press(key: string): Promise<void>;
  /** Types text into the focused element. */
  type(text: string): Promise<void>;
  /** The element's textContent. */
  text(selector: string): Promise<string>;
  /** The element's rendered text (innerText). */
  renderedText(selector: string): Promise<string>;
  /** The value of an input, select or textarea. */
  value(selector: string): Promise<string>;
  attribute(selector: string, name: string): Promise<string | null>;
  count(selector: string): Promise<number>;
  /** Answers every dialog (alert, confirm) the page opens from now on. */
  onDialog(answer: 'accept' | 'dismiss'): void;
  /**
   * Starts waiting for a download of `name` with `size` bytes (call before the click that starts it);
   * resolves with its bytes. A file of that name left by a failed download is no answer.
   */
  download(name: string, size: number): Promise<Buffer>;
  /**
   * Starts waiting for a download of `name` whose size is not known in advance (a zip); resolves with
   * what `check` answers for the saved file, once the browser has finished it and `check` accepts it
   * (`check` throws while the file is not whole).
   */
  downloadWhen<T>(name: string, check: (path: string) => T | Promise<T>): Promise<T>;
  /**
   * Starts waiting for a download of `name` that ends; resolves with why the browser says it failed,
   * or null when it completed. Chromium only: Firefox tells a failed download with a window-modal
   * alert that WebDriver BiDi does not report.
   */
  downloadFailure(name: string): Promise<string | null>;
  /**
   * Saves artifacts/screenshots/<prefix><name>.png (prefix: none in Chromium, `firefox-`, `webkit-`):
   * the whole page, or the viewport only (an overlay such as the viewer; WebDriver has nothing else).
   */
  screenshot(name: string, options?: { fullPage?: boolean }): Promise<void>;
  /**
   * Brings the page to the front, as a person switching to its tab does: a page in a background tab is
   * hidden in Firefox (document.visibilityState), and the site polls only while it is visible.
   */
  show(): Promise<void>;
  /**
   * Shows the page at another size or colour scheme, for screenshots of one state in several looks
   * (Firefox: size only, as for a new page).
   */
  look(options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' }): Promise<void>;
  /** Another tab in this page's context (its cookies and local storage, not its session storage). */
  newTab(): Promise<DriverPage>;
  /** Closes the page and its context (a tab from newTab: the tab only). */
  close(): Promise<void>;
}

/** A launched browser. */
export interface Driver {
  readonly engine: EngineName;
  page(options?: PageOptions): Promise<DriverPage>;
  close(): Promise<void>;
}

/** A browser engine the site is tested in. */
export interface Engine {
  readonly name: EngineName;
  /** false, or why this engine's suites skip (the browser is missing and not required). */
  readonly skip: string | false;
  /** A browser with its profile and downloads under `dir`. */
  launch(dir: string, options?: LaunchOptions): Promise<Driver>;
}

/**
 * Registers `scenario` once per engine, each in its own `describe` named "<title> (<engine>)" and
 * skipped when that engine is missing (and not required).
 */
export function eachEngine(title: string, engines: readonly Engine[], scenario: (engine: Engine) => void): void {
  for (const engine of engines) {
    describe(`${title} (${engine.name})`, { skip: engine.skip }, () => scenario(engine));
  }
}

/** A suite's server and browser: read the fields inside tests, not at describe time. */
export interface Site {
  readonly engine: Engine;
  readonly browser: Driver;
  /** A temporary directory (server data when spawned, files to upload, browser profile), removed after. */
  readonly dir: string;
  /** The address pages open: the server's own, or the gate's in front of it. */
  readonly url: string;
  /** Another browser of the suite's engine, with its own profile, closed after the suite. */
  launch(options?: LaunchOptions): Promise<Driver>;
}

function extraBrowsers(engine: Engine, dir: () => string) {
  const opened: Driver[] = [];
  after(async () => {
    for (const b of opened.splice(0)) await b.close().catch(() => {});
  });
  return async (options?: LaunchOptions) => {
    const b = await engine.launch(await mkdtemp(join(dir(), 'extra-')), options);
    opened.push(b);
    return b;
  };
}

/**
 * Registers a suite's hooks: a temporary directory, a real server in this process (5 MiB chunks
 * unless `plan` says otherwise) and the engine's browser, all closed and removed after. Call inside
 * `describe` (or `eachEngine`'s scenario).
 */
export function useSite(engine: Engine, plan: ServerPlan = {}): Site & { readonly server: RunningServer } {
  const launch = extraBrowsers(engine, () => served.dir);
  const served = useServer(
    async () => {
      const { env, port } = typeof plan === 'function' ? await plan() : { env: plan, port: undefined };
      return { env: { CHUNK_SIZE_MIB: '5', ...env }, port };
    },
    { prefix: `webfolder-${engine.name}-`, open: (dir) => engine.launch(dir) },
  );
  return {
    engine,
    launch,
    server: served,
    get browser() {
      return served.opened;
    },
    get dir() {
      return served.dir;
    },
    get url() {
      return served.baseUrl;
    },
  };
}

/**
 * A suite whose site is reached through the gate in front of a spawned server (gated.ts): a test can
 * hold, cut or answer the requests it names. Call inside `describe`.
 */
export function useGatedSite(
  engine: Engine,
  env: Record<string, string> = {},
): Site & { readonly gate: Gate; readonly server: SpawnedServer } {
  const fixture = useGatedServer(env, {
    prefix: `webfolder-gated-${engine.name}-`,
    open: (dir) => engine.launch(dir),
  });
  const launch = extraBrowsers(engine, () => fixture.dir);
  // Getters: the hooks fill the fixture in only when the suite runs.
  return {
    engine,
    launch,
    get browser() {
      return fixture.browser;
    },
    get dir() {
      return fixture.dir;
    },
    get url() {
      return fixture.gate.url;
    },
    get gate() {
      return fixture.gate;
    },
    get server() {
      return fixture.server;
    },
  };
}

/** The folder id in a folder page's address. */
export function folderIdOf(url: string): string {
  const id = /\/f\/([A-Za-z0-9_-]{16})/.exec(url)?.[1];
  if (!id) throw new Error(`not a folder link: ${url}`);
  return id;
}

/** The address pattern of a folder's page with its key. */
export const FOLDER_LINK = /\/f\/[A-Za-z0-9_-]{16}#/;
