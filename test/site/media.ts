import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launch } from './browser.js';

/** Test files the viewer opens, made here so nothing binary is shipped: a PNG, a PDF, a WebM. */

/** A PNG of `width` x `height` pixels, one colour (RGB, no alpha). */
export function png(width: number, height: number, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that says `text`, with a correct cross-reference table. */
export function pdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * The WebM of `webm` for a suite that drives another browser (Firefox, WebKit): made in a Chromium
 * of its own, closed once the video is made.
 */
export async function webmFromChromium(origin: string, minBytes: number): Promise<Buffer> {
  const maker = await launch();
  try {
    return await webm(maker, origin, minBytes);
  } finally {
    await maker.close();
  }
}

const MUXER = new URL('../../node_modules/webm-muxer/build/webm-muxer.js', import.meta.url).pathname;

/**
 * A seekable VP8 WebM (with duration and cues, written by webm-muxer) of at least `minBytes`,
 * encoded by Chromium's own WebCodecs from frames of noise (noise does not compress, so a few
 * seconds make several chunks). Made in a context without the site's CSP, on `origin` (a secure
 * context, as WebCodecs requires).
 */
export async function webm(browser: Browser, origin: string, minBytes: number): Promise<Buffer> {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/no-such-page`);
    await page.addScriptTag({ path: MUXER });
    // Plain JavaScript text: a function compiled by tsx would carry helpers the page does not have.
    const base64 = (await page.evaluate(`(async (min) => {
      const W = 640, H = 360, FPS = 10;
      const { Muxer, ArrayBufferTarget } = globalThis.WebMMuxer;
      const muxer = new Muxer({ target: new ArrayBufferTarget(), video: { codec: 'V_VP8', width: W, height: H, frameRate: FPS } });
      let bytes = 0;
      let failure = null;
      const encoder = new VideoEncoder({
        output: (chunk, meta) => { bytes += chunk.byteLength; muxer.addVideoChunk(chunk, meta); },
        error: (e) => { failure = e; },
      });
      encoder.configure({ codec: 'vp8', width: W, height: H, bitrate: 40000000, framerate: FPS });
      const canvas = new OffscreenCanvas(W, H);
      const ctx = canvas.getContext('2d');
      const image = ctx.createImageData(W, H);
      let seed = 1;
      for (let i = 0; (bytes < min || i < 20) && !failure; i++) {
        for (let p = 0; p < image.data.length; p += 4) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          image.data[p] = seed >>> 24; image.data[p + 1] = (seed >>> 16) & 255; image.data[p + 2] = (seed >>> 8) & 255; image.data[p + 3] = 255;
        }
        ctx.putImageData(image, 0, 0);
        const frame = new VideoFrame(canvas, { timestamp: (i * 1000000) / FPS, duration: 1000000 / FPS });
        encoder.encode(frame, { keyFrame: true });
        frame.close();
        if (i % 5 === 4) await encoder.flush();
      }
      if (failure) throw failure;
      await encoder.flush();
      muxer.finalize();
      const buffer = new Uint8Array(muxer.target.buffer);
      let s = '';
      for (let i = 0; i < buffer.length; i += 0x8000) s += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
      return btoa(s);
    })(${minBytes})`)) as string;
    return Buffer.from(base64, 'base64');
  } finally {
    await context.close();
  }
}

interface VideoState {
  t: number;
  d: number;
  r: number;
  s: boolean;
  e: string | null;
}

function videoState(): VideoState | null {
  const v = document.getElementById('viewer-media') as HTMLVideoElement | null;
  return v && { t: v.currentTime, d: v.duration, r: v.readyState, s: v.seeking, e: v.error?.message ?? null };
}

/** Polls the video's state until `done` holds (no fixed sleeps); says where it stopped if it never does. */
async function until(page: Page, what: string, done: (v: VideoState) => boolean): Promise<VideoState> {
  let last: VideoState | null = null;
  for (let i = 0; i < 300; i++) {
    last = await page.evaluate(videoState);
    if (last && done(last)) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}: not reached in 30 s; video: ${JSON.stringify(last)}`);
}

/** The viewer's video plays, then seeks to the middle and to its last 0.3 s, each reaching a frame. */
export async function playsAndSeeks(page: Page): Promise<void> {
  const first = await until(page, 'first frame', (v) => v.r >= 2 && Number.isFinite(v.d));
  assert.ok(first.d >= 2, `duration ${first.d}`);
  await page.evaluate(() => {
    const v = document.getElementById('viewer-media') as HTMLVideoElement;
    v.muted = true;
    return v.play();
  });
  await until(page, 'playing', (v) => v.t > 0);
  // The middle, then the last chunk (the video is at least 3 chunks long; its last 0.3 s are in the last).
  for (const target of [first.d / 2, first.d - 0.3]) {
    await page.evaluate((t) => {
      (document.getElementById('viewer-media') as HTMLVideoElement).currentTime = t;
    }, target);
    await until(page, `seek to ${target}`, (v) => !v.s && v.r >= 2 && v.t >= target - 0.05);
  }
}
