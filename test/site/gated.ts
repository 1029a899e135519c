import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { after, before } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { type Gate, startGate } from '../support/gate.js';
import { freePort, type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import { launch, newContext, writeTemp } from './browser.js';

/**
 * A real server reached through the gate (test/support/gate.ts), for the site's tests that cut, hold
 * or answer the page's requests: the server's BASE_URL is the gate's address, so the chunk URLs it
 * hands out lead through the gate too. Browser-agnostic: the Chromium, Firefox and WebKit suites
 * each add their own browser.
 */
export interface GatedServer {
  readonly server: SpawnedServer;
  readonly gate: Gate;
  /** The server's data directory, also the place for files to upload; removed after the suite. */
  readonly dir: string;
}

/** What the suite opens besides the server (a browser), closed before the server stops. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Registers the suite's before/after hooks: a temporary directory, a free port, the gate in front of
 * it, the server spawned on that port (5 MiB chunks, so that small files span several chunks; `env`
 * is added to the server's) and, when `open` is given, what it opens (a browser, given the directory
 * for its profile) as `browser`. Teardown closes the browser first, then the gate and the server, then
 * removes the directory. Call inside `describe`; read the fields inside hooks and tests.
 */
export function useGatedServer<B extends Closable = never>(
  env: Record<string, string> = {},
  options: { prefix?: string; open?: (dir: string) => Promise<B> } = {},
): GatedServer & { readonly browser: B } {
  const fixture = {} as { server: SpawnedServer; gate: Gate; dir: string; browser: B };
  before(async () => {
    fixture.dir = await tempDir(options.prefix ?? 'webfolder-gated-');
    const port = await freePort();
    fixture.gate = await startGate(port);
    fixture.server = await spawnServer(
      { DATA_DIR: fixture.dir, BASE_URL: fixture.gate.url, CHUNK_SIZE_MIB: '5', LOG_LEVEL: 'warn', ...env },
      port,
    );
    if (options.open) fixture.browser = await options.open(fixture.dir);
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.gate?.close();
    await fixture.server?.stop();
    if (fixture.dir) await rm(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}

/** A download's chunk request (`GET …/chunks/<n>`), for `gate.hold`. */
export function chunkRequest(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  return req.method === 'GET' && /\/chunks\//.test(req.url ?? '');
}

/** The chunk number of a download's chunk request (`GET …/chunks/00002`), else null. */
export function chunkNumber(req: Pick<IncomingMessage, 'method' | 'url'>): number | null {
  const n = req.method === 'GET' ? /\/chunks\/(\d{5})/.exec(req.url ?? '')?.[1] : undefined;
  return n === undefined ? null : Number(n);
}

/** The gated server and a Chromium. */
export function useGatedChromium(env: Record<string, string> = {}, prefix?: string): GatedSite {
  return useGatedServer(env, { prefix, open: () => launch() });
}

/** A gated server with a Chromium. */
export type GatedSite = GatedServer & { readonly browser: Browser };

/**
 * A send folder made on the home page in Chromium, with a download `limit` ('' for none) and one file
 * uploaded: its share link and the owner's context (the caller closes it).
 */
export async function folderWithFile(
  site: GatedSite,
  limit: string,
  content: Buffer,
  name: string,
): Promise<{ ownerCtx: BrowserContext; link: string }> {
  const ownerCtx = await newContext(site.browser);
  const owner = await ownerCtx.newPage();
  await owner.goto(`${site.gate.url}/`);
  await owner.locator('#new-mode').selectOption('send');
  await owner.locator('#new-limit').fill(limit);
  await Promise.all([owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), owner.locator('button[type=submit]').click()]);
  await owner.setInputFiles('#file-input', [await writeTemp(site.dir, name, content)]);
  await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
  return { ownerCtx, link: owner.url() };
}
