import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { type Gate, startGate } from '../support/gate.js';
import { until } from '../support/poll.js';
import { freePort, type SpawnedServer, spawnServer, tempDir } from '../support/server.js';
import { launch } from './browser.js';

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

/** A download's count: the page asks the server for a ticket (`POST …/files/<id>/downloads`). */
export function downloadStart(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  return req.method === 'POST' && /\/files\/[^/]+\/downloads$/.test(req.url ?? '');
}

/**
 * From now on the gate counts the download starts it sees into `starts` (each `POST …/downloads` is one
 * count at the server) and holds the requests `cut` names (none unless given). The gate's `answer`,
 * `release` or `drop` ends both: call again after them to go on counting.
 */
export function watchGate(
  gate: Gate,
  starts: { n: number },
  cut: (req: IncomingMessage) => boolean = () => false,
): void {
  gate.hold((req) => {
    if (downloadStart(req)) starts.n++;
    return cut(req);
  });
}

/**
 * An outage of a download's chunks, made at the gate, for every browser's pause tests (a download
 * that an outage interrupts pauses and goes on, uncounted): while it lasts, each chunk request but
 * those of `spared` chunks (by default the first, so that the download has begun) is held, and
 * `answerHeld` answers the held ones 503 with `Retry-After: 0`, which the retry policy retries at
 * once, so that its attempts are spent in seconds rather than in the minutes an outage of cut
 * connections takes. It also records what the gate saw: the chunk requests let through, by chunk
 * number (a paused download must fetch none twice), the 503s answered, by chunk number, and the
 * downloads counted (`POST …/downloads`).
 */
export class ChunkOutage {
  /** Chunk requests let through to the server, by chunk number. */
  readonly through = new Map<number, number>();
  /** Chunk requests answered 503, by chunk number. */
  readonly answered = new Map<number, number>();
  /** Downloads counted (tickets asked for) since the outage began. */
  starts = 0;
  private cutting = true;

  constructor(
    private readonly gate: Gate,
    private readonly spared: ReadonlySet<number> = new Set([1]),
  ) {
    this.watch();
  }

  /** The 503s answered so far, all chunks together. */
  get answeredTotal(): number {
    return [...this.answered.values()].reduce((a, b) => a + b, 0);
  }

  /** Answers the chunk requests held now 503 (retried at once) and goes on cutting; how many it answered. */
  answerHeld(): number {
    const held = this.gate.held();
    for (const req of held) {
      const n = chunkNumber(req) ?? 0;
      this.answered.set(n, (this.answered.get(n) ?? 0) + 1);
    }
    if (held.length > 0) {
      this.gate.answer(503, { 'retry-after': '0' });
      this.watch();
    }
    return held.length;
  }

  /** The server is back: the requests still held (of chunks fetched ahead) go on, and nothing more is cut. */
  end(): void {
    this.cutting = false;
    for (const req of this.gate.held()) this.letThrough(req);
    this.gate.release();
    this.watch();
  }

  private letThrough(req: IncomingMessage): void {
    const n = chunkNumber(req) ?? 0;
    this.through.set(n, (this.through.get(n) ?? 0) + 1);
  }

  private watch(): void {
    this.gate.hold((req) => {
      if (downloadStart(req)) this.starts++;
      const n = chunkNumber(req);
      if (n === null) return false;
      const cut = this.cutting && !this.spared.has(n);
      if (!cut) this.letThrough(req);
      return cut;
    });
  }
}

/** What the page's download line says: `#download-status`'s state (data-download-state) and words. */
export interface DownloadLine {
  readonly state: string;
  readonly text: string;
}

/**
 * Answers the outage's held chunk requests until the page's download line says "paused" (and `also`
 * holds, when given); a line that says "failed" instead fails the test with its words. `read` reads
 * the line in whichever browser the test drives. Resolves with the paused line.
 */
export async function answerUntilPaused(
  outage: ChunkOutage,
  read: () => Promise<DownloadLine>,
  also: () => boolean = () => true,
): Promise<DownloadLine> {
  return until(
    'the download paused',
    async () => {
      outage.answerHeld();
      const line = await read();
      if (line.state === 'failed') throw new Error(`the download failed instead of pausing: ${line.text}`);
      return line.state === 'paused' && also() && line;
    },
    120_000,
  );
}
