import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CDP from 'chrome-remote-interface';
import { CHROMIUM, CHROMIUM_ARGS } from '../site/browser.js';

/**
 * Chromium for the browser benchmarks and the memory test, driven over the DevTools protocol with
 * only the domains they need (Runtime, DOM, Browser) and never `Network`.
 *
 * Why not playwright, as the tests use: playwright enables the Network domain on every page, so the
 * browser reports every request, and every piece of every response body received, to the driver.
 * Measured on this machine that cut the page's chunk download rate by about half (transport-only GET
 * of 1 GiB: 74-136 MB/s with playwright attached, 193-275 MB/s without), and it made byte-array
 * request bodies crawl. A person's browser has no driver attached; this is closer to it.
 */
export interface BenchBrowser {
  readonly version: string;
  /** Evaluates `expression` in the page, awaiting a promise, and returns the value (JSON-able). */
  evaluate<T>(expression: string): Promise<T>;
  /** Evaluates `expression` as a person's click would run it (with user activation: a file picker may open). */
  gesture(expression: string): Promise<void>;
  navigate(url: string): Promise<void>;
  /** Polls until `expression` is truthy in the page. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  /** Sets the files of the `<input type=file>` matching `selector`, which fires its change event. */
  setInputFiles(selector: string, paths: readonly string[]): Promise<void>;
  /** Downloads go to `dir`; resolves with the bytes received when the next download completes. */
  nextDownload(dir: string): Promise<{ finished: Promise<number> }>;
  /** Process ids of the browser and all its children (renderer, network service, ...). */
  pids(): number[];
  close(): Promise<void>;
}

const ARGS = [...CHROMIUM_ARGS, '--remote-debugging-port=0'];

/** Chromium writes its DevTools port and the browser target's path to this file once it listens. */
async function devToolsEndpoint(
  userDataDir: string,
  child: ChildProcess,
): Promise<{ port: number; browserPath: string }> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`chromium exited with ${child.exitCode}`);
    try {
      const [port, browserPath] = (await readFile(join(userDataDir, 'DevToolsActivePort'), 'utf8')).split('\n');
      if (port && browserPath) return { port: Number(port), browserPath };
    } catch {
      /* not written yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('chromium did not open its DevTools port within 30 s');
}

/** A Chromium process's role from its command line: browser, renderer, NetworkService, gpu-process, ... */
export function processRole(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const type = /--type=([a-z-]+)/.exec(args)?.[1];
    // network.mojom.NetworkService -> NetworkService
    const sub = /--utility-sub-type=([\w.]+)/.exec(args)?.[1]?.split('.').pop();
    return sub ?? type ?? 'browser';
  } catch {
    return 'gone';
  }
}

function childPids(root: number): number[] {
  const out = [root];
  // /proc/<pid>/task/<tid>/children lists the children that thread started (Chromium starts its
  // utility processes from a launcher thread); walk the tree breadth first.
  for (let i = 0; i < out.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${out[i]}/task`)) {
        const text = readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8');
        for (const pid of text.split(' ').filter(Boolean)) out.push(Number(pid));
      }
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * `extraArgs`: more command-line switches (a benchmark's `--proxy-server`, for one). `display`: a
 * headed Chromium on that X display (test/support/xvfb.ts), where file pickers can be shown.
 */
export async function launchChromium(
  extraArgs: readonly string[] = [],
  { display }: { display?: string } = {},
): Promise<BenchBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'webfolder-bench-chromium-'));
  const args = display ? ARGS.filter((a) => a !== '--headless') : ARGS;
  const child = spawn(CHROMIUM, [...args, ...extraArgs, `--user-data-dir=${userDataDir}`, 'about:blank'], {
    stdio: 'ignore',
    ...(display ? { env: { ...process.env, DISPLAY: display, HOME: userDataDir } } : {}),
  });
  const { port, browserPath } = await devToolsEndpoint(userDataDir, child);
  const browserClient = await CDP({ target: `ws://127.0.0.1:${port}${browserPath}` });
  const { product } = await browserClient.Browser.getVersion();
  const targets = await CDP.List({ port });
  const pageTarget = targets.find((t) => t.type === 'page');
  if (!pageTarget) throw new Error('chromium opened no page');
  const page = await CDP({ port, target: pageTarget.id });

  const evaluate = async <T>(expression: string): Promise<T> => {
    const { result, exceptionDetails } = await page.Runtime.evaluate({
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails)
      throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as T;
  };
  const waitFor = async (expression: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await evaluate<boolean>(`!!(${expression})`))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  return {
    version: product,
    evaluate,
    async gesture(expression) {
      const { exceptionDetails } = await page.Runtime.evaluate({ expression, userGesture: true });
      if (exceptionDetails)
        throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    },
    waitFor,
    async navigate(url) {
      await page.Page.enable();
      const loaded = page.Page.loadEventFired();
      await page.Page.navigate({ url });
      await loaded;
    },
    async setInputFiles(selector, paths) {
      const { root } = await page.DOM.getDocument({ depth: 0 });
      const { nodeId } = await page.DOM.querySelector({ nodeId: root.nodeId, selector });
      if (!nodeId) throw new Error(`no element matches ${selector}`);
      await page.DOM.setFileInputFiles({ nodeId, files: [...paths] });
    },
    async nextDownload(dir) {
      await browserClient.Browser.setDownloadBehavior({
        behavior: 'allowAndName',
        downloadPath: dir,
        eventsEnabled: true,
      });
      const finished = new Promise<number>((resolve, reject) => {
        const off = browserClient.Browser.downloadProgress((event) => {
          if (event.state === 'completed') {
            off();
            resolve(event.receivedBytes);
          }
          if (event.state === 'canceled') {
            off();
            reject(new Error('the download was cancelled'));
          }
        });
      });
      return { finished };
    },
    pids: () => childPids(child.pid!),
    async close() {
      await page.close().catch(() => {});
      await browserClient.close().catch(() => {});
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      // The browser's children (renderers, utilities) may still be writing into the profile for a
      // moment after it exits: rm retries on ENOTEMPTY/EBUSY instead of failing the suite's teardown.
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}
