import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';

/**
 * Baseline for the server's transfer cost: a minimal node:http server. `GET /slice/<n>` sends the
 * n-th slice of one file from disk (1 MiB reads), as a plain static-file server sends a file's parts;
 * `PUT /up/<n>` streams the body to a file in UPLOAD_DIR and fsyncs it before answering, as a plain
 * upload server that keeps what it acknowledged would. FILE: the file; SLICE_BYTES: the slice size.
 */
const file = process.env.FILE!;
const slice = Number(process.env.SLICE_BYTES);
const uploads = process.env.UPLOAD_DIR!;
const { size } = await stat(file);
createServer((req, res) => {
  const up = /^\/up\/(\d+)$/.exec(req.url ?? '');
  if (req.method === 'PUT' && up) {
    const out = createWriteStream(join(uploads, up[1]!), { flush: true });
    req.pipe(out).on('finish', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    return;
  }
  const n = Number(/^\/slice\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
  const start = (n - 1) * slice;
  if (n < 1 || start >= size) {
    res.writeHead(req.url === '/' ? 200 : 404).end();
    return;
  }
  const end = Math.min(size, start + slice) - 1;
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(end - start + 1) });
  createReadStream(file, { start, end, highWaterMark: 1024 * 1024 }).pipe(res);
}).listen(Number(process.env.PORT), '127.0.0.1');
