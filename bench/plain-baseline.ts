/**
 * The plain baselines the browser benchmarks compare webfolder with (bench/browser.ts,
 * bench/browser-save-file.ts): a file of pseudo-random bytes, and a minimal node:http server with no
 * encryption and no webfolder that serves it, takes uploads, and hosts the service-worker
 * pass-through (the streaming ceiling of any end-to-end encrypted download).
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const MIB = 1024 * 1024;
/** The chunk size of every browser benchmark (CHUNK_SIZE_MIB of the webfolder server they start). */
export const CHUNK_MIB = 10;

/** Writes `size` bytes of a fixed pseudo-random pattern to `path`; answers their sha256 (hex). */
export async function writeBigFile(path: string, size: number): Promise<string> {
  const piece = Buffer.alloc(8 * MIB);
  for (let i = 0; i < piece.length; i++) piece[i] = (i * 2654435761) >>> 24;
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    hash.update(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return hash.digest('hex');
}

/** The sha256 (hex) of a file, read as a stream. */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const part of createReadStream(path)) hash.update(part as Buffer);
  return hash.digest('hex');
}

/**
 * The pass-through baseline's service worker (scope /sw/, so the plain pages stay uncontrolled): it
 * answers /sw/plain.bin with a stream that fetches the file's 10 MiB slices, 3 ahead, and hands each
 * on in 1 MiB pieces: webfolder's download (src/transfer/download.ts) without the cryptography and
 * without the crypto workers' hand-offs.
 */
const passThroughWorker = (size: number) => `
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (!event.request.url.endsWith('/sw/plain.bin')) return;
  const total = ${size}, slice = ${CHUNK_MIB * MIB}, count = Math.ceil(total / slice), ahead = 3;
  const pending = new Map();
  let index = 0;
  const start = (n) => {
    if (n < count && !pending.has(n))
      pending.set(n, fetch('/slice/' + n).then((r) => { if (!r.ok) throw new Error('slice ' + n); return r.arrayBuffer(); }));
  };
  const body = new ReadableStream({
    async pull(controller) {
      if (index === count) { controller.close(); return; }
      for (let n = index; n <= index + ahead; n++) start(n);
      const bytes = new Uint8Array(await pending.get(index));
      pending.delete(index);
      for (let at = 0; at < bytes.length; at += 1048576) controller.enqueue(bytes.subarray(at, at + 1048576));
      index++;
    },
  }, { highWaterMark: 1 });
  event.respondWith(new Response(body, { headers: {
    'content-type': 'application/octet-stream',
    'content-length': String(total),
    'content-disposition': 'attachment; filename="passthrough.bin"',
  } }));
});`;

/**
 * The plain baselines: a minimal node:http server with no encryption and no webfolder. `GET /` is a
 * page with a file input, `PUT /up/<n>` streams a body to a file (no fsync), `GET /plain.bin` sends
 * the test file as an attachment, streamed from disk in 1 MiB reads as common static servers do,
 * `GET /slice/<n>` its n-th 10 MiB slice, and /sw/ the pass-through service worker and its page.
 */
export async function plainServer(file: string, size: number, dir: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    if (req.method === 'PUT' && req.url?.startsWith('/up/')) {
      const out = createWriteStream(join(dir, `up-${req.url.slice(4).replace(/\W/g, '')}`));
      req.pipe(out);
      out.on('finish', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
      return;
    }
    const slice = /^\/slice\/(\d+)$/.exec(req.url ?? '');
    if (slice) {
      const start = Number(slice[1]) * CHUNK_MIB * MIB;
      const end = Math.min(size, start + CHUNK_MIB * MIB) - 1;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(end - start + 1) });
      createReadStream(file, { start, end, highWaterMark: MIB }).pipe(res);
      return;
    }
    if (req.url === '/sw/sw.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(passThroughWorker(size));
      return;
    }
    if (req.url === '/sw/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>pass-through');
      return;
    }
    if (req.url === '/plain.bin') {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(size),
        'content-disposition': 'attachment; filename="plain.bin"',
      });
      createReadStream(file, { highWaterMark: MIB }).pipe(res);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><input type="file" id="f">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
