import { downloadStream } from '../../src/transfer/download.js';
import { previewType, thumbnailSize } from './preview.js';
import type { FolderSession, OpenedFile } from './session.js';

/**
 * Thumbnails made in this browser for the folder's grid: the image is decrypted (like the viewer
 * does), drawn scaled to fit 256 px (EXIF orientation applied) on an OffscreenCanvas and kept as a
 * small WebP `blob:` URL for the page's lifetime. Nothing is uploaded. Two are made at a time, in
 * the order the rows scroll into view.
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

export function localThumbnail(session: FolderSession, opened: OpenedFile): Promise<string> {
  return slot(async () => {
    const { type } = previewType(opened.name ?? '', opened.mimetype);
    const bytes = await new Response(downloadStream(session.downloadFile(opened))).arrayBuffer();
    const bitmap = await createImageBitmap(new Blob([bytes], { type }), { imageOrientation: 'from-image' });
    try {
      const { width, height } = thumbnailSize(bitmap.width, bitmap.height);
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.drawImage(bitmap, 0, 0, width, height);
      return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 }));
    } finally {
      bitmap.close();
    }
  });
}
