import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Baseline for chunk ingest: a minimal node:http server that streams each PUT body to its own file.
 * With DURABLE=1 it also fsyncs each file, which is what webfolder does for every chunk; comparing
 * both shows what durability costs apart from everything else.
 */
const dir = process.env.DATA_DIR!;
const durable = process.env.DURABLE === '1';
await mkdir(dir, { recursive: true });
let counter = 0;
createServer(async (req, res) => {
  if (req.method !== 'PUT') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  const out = createWriteStream(join(dir, String(counter++)), { highWaterMark: 1 << 20 });
  await pipeline(req, out);
  if (durable) {
    const { open } = await import('node:fs/promises');
    const h = await open(out.path as string, 'r+');
    await h.sync();
    await h.close();
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
}).listen(Number(process.env.PORT), '127.0.0.1');
