import { downloadStream, encryptedLength, MAX_THUMBNAIL_BYTES } from '../core.js';
import type { FolderSession, OpenedFile } from '../state/index.js';
import { previewType, THUMBNAIL_SIZE, thumbnailSize } from '../state/preview.js';

/**
 * Thumbnails for the folder's grid. A file uploaded from the page has one stored beside it, made at
 * upload from the picked file (an image scaled down, a video's first frame) and encrypted under the
 * file's key (web/src/state sends it): the grid fetches and decrypts that. A file without one
 * (uploaded by the CLI or the API, or one the browser could not draw) gets one made here: the image
 * is decrypted like the viewer does, drawn scaled on an OffscreenCanvas, and kept as a `blob:` URL
 * for the page's lifetime; nothing is uploaded then. Two are made at a time, in the order the rows
 * scroll into view.
 */
const RUNNING = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The grid's picture of a file: its stored thumbnail, else (images only) one made in this browser. */
export function thumbnailUrl(session: FolderSession, opened: OpenedFile): Promise<string> {
  return slot(async () => {
    const stored = await session.reader.thumbnail(opened).catch(() => null);
    if (stored) return URL.createObjectURL(new Blob([stored as Uint8Array<ArrayBuffer>], { type: sniff(stored) }));
    if (previewType(opened.name ?? '', opened.mimetype).kind !== 'image') throw new Error('no thumbnail');
    // Fetching a file with a download limit needs a ticket, which counts a download: not for a tile.
    if (typeof opened.file.downloadsLeft === 'number') throw new Error('no thumbnail without a download');
    return localThumbnail(session, opened);
  });
}

/** A stored thumbnail is WebP or JPEG, by its first bytes (never the uploader's word). */
function sniff(bytes: Uint8Array): string {
  return bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : 'image/webp';
}

async function localThumbnail(session: FolderSession, opened: OpenedFile): Promise<string> {
  const { type } = previewType(opened.name ?? '', opened.mimetype);
  const bytes = await new Response(downloadStream(session.reader.downloadFile(opened))).arrayBuffer();
  const bitmap = await createImageBitmap(new Blob([bytes], { type }), { imageOrientation: 'from-image' });
  try {
    return URL.createObjectURL(await encode(bitmap, THUMBNAIL_SIZE, 0.8));
  } finally {
    bitmap.close();
  }
}

/** Images whose file is larger than this get no thumbnail at upload (decoding would hold it whole). */
const UPLOAD_SOURCE_LIMIT = 64 * 1024 * 1024;
/** Plaintext that still fits MAX_THUMBNAIL_BYTES once encrypted (one record). */
const MAX_PLAINTEXT = MAX_THUMBNAIL_BYTES - (encryptedLength(1) - 1);

/**
 * The thumbnail of a file being uploaded (WebP, JPEG where the browser writes no WebP), made from
 * the picked file before any encryption: an image (EXIF orientation applied) or a video's first
 * frame, scaled to fit THUMBNAIL_SIZE, re-encoded smaller until it fits MAX_THUMBNAIL_BYTES. Null
 * for anything else, or what this browser cannot decode.
 */
export async function makeThumbnail(file: Blob, name: string): Promise<Uint8Array | null> {
  const { kind, type } = previewType(name, file.type);
  let source: ImageBitmap | null = null;
  try {
    if (kind === 'image' && type !== 'image/svg+xml' && file.size <= UPLOAD_SOURCE_LIMIT)
      source = await createImageBitmap(file, { imageOrientation: 'from-image' });
    else if (kind === 'video') source = await firstFrame(file);
    if (!source) return null;
    for (const [size, quality] of [
      [THUMBNAIL_SIZE, 0.8],
      [THUMBNAIL_SIZE, 0.5],
      [THUMBNAIL_SIZE / 2, 0.5],
    ] as const) {
      const blob = await encode(source, size, quality);
      if (blob.size <= MAX_PLAINTEXT) return new Uint8Array(await blob.arrayBuffer());
    }
    return null;
  } catch {
    return null;
  } finally {
    source?.close();
  }
}

async function encode(source: ImageBitmap, max: number, quality: number): Promise<Blob> {
  const { width, height } = thumbnailSize(source.width, source.height, max);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.drawImage(source, 0, 0, width, height);
  const webp = await canvas.convertToBlob({ type: 'image/webp', quality });
  // A browser that cannot write WebP answers PNG: JPEG is smaller for a photo.
  return webp.type === 'image/webp' ? webp : canvas.convertToBlob({ type: 'image/jpeg', quality });
}

/** A video's first frame, from a muted element playing the picked file (never uploaded as such). */
async function firstFrame(file: Blob): Promise<ImageBitmap | null> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.playsInline = true;
  try {
    const ready = new Promise<boolean>((resolve) => {
      video.addEventListener('loadeddata', () => resolve(true), { once: true });
      video.addEventListener('error', () => resolve(false), { once: true });
      // A file the browser cannot play may never say so: give up rather than hold the upload.
      setTimeout(() => resolve(false), 15_000);
    });
    video.src = url;
    if (!(await ready) || video.videoWidth === 0) return null;
    return await createImageBitmap(video);
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}
