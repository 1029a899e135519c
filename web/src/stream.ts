import { decryptChunk, importSecret } from '../../src/crypto/index.js';

/**
 * Download and decrypt one file chunk by chunk as a stream: the code shared by the service worker
 * (streamed downloads) and the page (the in-memory fallback). Several chunks are fetched ahead while
 * one is decrypted. Every chunk must decrypt (RFC 8188 authenticates it and detects truncation)
 * and must have exactly the plaintext length its position requires, or the stream errors: a bad
 * chunk is never handed on as data.
 */
export interface DownloadFile {
  /** Decrypted name (a path inside a zip). */
  readonly name: string;
  readonly size: number;
  readonly mimetype: string | null;
  readonly chunkSize: number;
  readonly chunks: number;
  /** The secret the file is encrypted under (folder secret, or the file's own in request mode). */
  readonly secret: string;
  /** URL of chunk n is `${chunkBase}/${n}`. */
  readonly chunkBase: string;
}

export interface DownloadJob {
  readonly kind: 'file' | 'zip';
  readonly name: string;
  readonly files: readonly DownloadFile[];
  /** Credential headers for the site endpoints. */
  readonly headers: Record<string, string>;
}

/**
 * Chunks fetched and decrypted ahead of the one being handed on: three keep fetching and decrypting
 * overlapped (more measured no faster: Chromium's download manager drains the stream at its own
 * pace, see docs/benchmarks.md), and the count falls for large chunks so that memory stays near
 * AHEAD_BYTES of ciphertext plus as much plaintext (a chunk can be 105 MiB; at least two chunks).
 */
const AHEAD_BYTES = 64 * 1024 * 1024;
/**
 * A decrypted chunk is handed on in pieces of this size (views, not copies). The browser drains a
 * service worker's response into its download manager through a pipe; in Chromium, whole 10 MiB
 * chunks downloaded at 0.47 of what a plain file download reaches on the same machine, 1 MiB pieces
 * at 0.56-0.60 (bench/browser.ts, alternating runs; see docs/benchmarks.md).
 */
const HAND_ON_PIECE = 1024 * 1024;
const MAX_AHEAD = 3;
export function chunksAhead(chunkSize: number): number {
  return Math.max(1, Math.min(MAX_AHEAD, Math.floor(AHEAD_BYTES / chunkSize)));
}

async function fetchChunk(url: string, headers: Record<string, string>): Promise<Uint8Array> {
  let last = '';
  for (let attempt = 1; attempt <= 4; attempt++) {
    try {
      let res = await fetch(url, {
        headers: { ...headers, accept: 'application/octet-stream, application/json' },
        cache: 'no-store',
      });
      if (res.ok && /^application\/json/.test(res.headers.get('content-type') ?? '')) {
        // Object storage: the server answers with a presigned URL, fetched without our credentials.
        const { url: presigned } = (await res.json()) as { url: string };
        res = await fetch(presigned, { cache: 'no-store', credentials: 'omit' });
      }
      if (res.ok) return new Uint8Array(await res.arrayBuffer());
      let message = `HTTP ${res.status}`;
      try {
        message = ((await res.json()) as { error?: string }).error ?? message;
      } catch {
        /* not JSON */
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new Error(message);
      last = message;
    } catch (error) {
      if (error instanceof Error && !(error instanceof TypeError)) throw error;
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
  throw new Error(`download failed: ${last}`);
}

/** RFC 8188 length of a message carrying `p` plaintext bytes (record size 65536). */
export function encryptedLength(p: number): number {
  return 21 + p + 17 * Math.ceil(p / 65519);
}

export function decryptedStream(file: DownloadFile, headers: Record<string, string>): ReadableStream<Uint8Array> {
  if (!(file.size > 0 && file.chunkSize > 0 && file.chunks === Math.ceil(file.size / file.chunkSize))) {
    throw new Error(`${file.name}: the server reports an inconsistent chunk plan`);
  }
  const ahead = chunksAhead(file.chunkSize);
  let n = 1;
  let keyPromise: ReturnType<typeof importSecret> | undefined;
  const pending = new Map<number, Promise<Uint8Array>>();
  // Fetch, check and decrypt chunk k. Several run at once (fetching and decrypting overlap), but
  // their results are handed on strictly in chunk order, and the first failure ends the stream.
  const open = async (k: number): Promise<Uint8Array> => {
    keyPromise ??= importSecret(file.secret);
    const expected = k < file.chunks ? file.chunkSize : file.size - file.chunkSize * (file.chunks - 1);
    const message = await fetchChunk(`${file.chunkBase}/${k}`, headers);
    if (message.length !== encryptedLength(expected)) {
      throw new Error(
        `chunk ${k} of ${file.name} has ${message.length} bytes, expected ${encryptedLength(expected)}: it is truncated or damaged`,
      );
    }
    let plaintext: Uint8Array;
    try {
      plaintext = await decryptChunk(await keyPromise, message);
    } catch (error) {
      throw new Error(
        `chunk ${k} of ${file.name} failed its integrity check (${(error as Error).message}); nothing after it was written`,
      );
    }
    if (plaintext.length !== expected)
      throw new Error(`chunk ${k} of ${file.name} has ${plaintext.length} bytes, expected ${expected}`);
    return plaintext;
  };
  const start = (k: number) => {
    if (k <= file.chunks && !pending.has(k)) {
      const p = open(k);
      p.catch(() => {}); // observed when its turn comes
      pending.set(k, p);
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (n > file.chunks) {
          controller.close();
          return;
        }
        for (let k = n; k <= n + ahead; k++) start(k);
        const plaintext = await pending.get(n)!;
        pending.delete(n);
        for (let at = 0; at < plaintext.length; at += HAND_ON_PIECE)
          controller.enqueue(plaintext.subarray(at, at + HAND_ON_PIECE));
        n++;
      },
      cancel() {
        pending.clear();
      },
    },
    { highWaterMark: 1 },
  );
}

/** Names made unique for a zip ("a.txt", "a (2).txt"), so that no entry hides another. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    const name = raw.replace(/^\/+/, '').replace(/\.\.\//g, '') || 'file';
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let i = 2; ; i++) {
      const candidate = `${stem} (${i})${ext}`;
      if (!seen.has(candidate)) {
        seen.add(candidate);
        return candidate;
      }
    }
  });
}

export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
