import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decryptChunk, IntegrityError } from '../../crypto/index.js';
import { encryptedLength } from '../../domain/chunk-plan.js';
import { AbortedError, InputError } from '../errors.js';
import type { HttpOptions } from '../http.js';
import { fetchChunk, type ListedFile, listFolder, type SiteOptions } from '../site.js';

export { listFolder } from '../site.js';

/**
 * Downloads every complete file of a folder into `destination`: names decrypted, chunks fetched
 * with bounded parallelism, each decrypted and authenticated (RFC 8188: AES-GCM per record plus
 * the final-record marker, so a truncated or altered chunk fails), checked for its exact plaintext
 * length, and written at its offset into `<name>.webfolder-part`, renamed to the name only once the
 * whole file verified. Existing files are never overwritten: a numbered name is chosen instead.
 */
export interface DownloadOptions extends SiteOptions {
  /** Chunks fetched in parallel (default 4). */
  readonly concurrency?: number;
  readonly onFile?: (file: { name: string; size: number; path: string }) => void;
}

export interface DownloadResult {
  readonly folderId: string;
  readonly title: string | null;
  readonly directory: string;
  readonly files: readonly {
    readonly name: string;
    readonly size: number;
    readonly path: string;
    readonly fileId: string;
  }[];
  /** Files not downloaded: still uploading, or sealed to the owner (request mode). */
  readonly skipped: readonly { readonly name: string; readonly fileId: string; readonly reason: string }[];
}

export async function download(
  link: string,
  destination: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  const listing = await listFolder(link, options);
  await mkdir(destination, { recursive: true });
  const files: { name: string; size: number; path: string; fileId: string }[] = [];
  const skipped: { name: string; fileId: string; reason: string }[] = [];
  const taken = new Set<string>();
  for (const file of listing.files) {
    if (file.sealed) {
      skipped.push({ name: file.name, fileId: file.fileId, reason: 'sealed to the folder owner (request mode)' });
      continue;
    }
    if (!file.complete) {
      skipped.push({ name: file.name, fileId: file.fileId, reason: 'upload not complete' });
      continue;
    }
    const path = await freePath(destination, safeName(file.name, file.fileId), taken);
    await downloadFile(listing, file, path, options);
    files.push({ name: file.name, size: file.size, path, fileId: file.fileId });
    options.onFile?.({ name: file.name, size: file.size, path });
  }
  return { folderId: listing.folderId, title: listing.title, directory: destination, files, skipped };
}

async function downloadFile(
  listing: Awaited<ReturnType<typeof listFolder>>,
  file: ListedFile,
  path: string,
  options: DownloadOptions,
): Promise<void> {
  if (file.chunks !== Math.ceil(file.size / file.chunkSize)) {
    throw new IntegrityError(
      `${file.name}: ${file.chunks} chunks of ${file.chunkSize} bytes cannot hold ${file.size} bytes`,
    );
  }
  const part = `${path}.webfolder-part`;
  const handle = await open(part, 'w', 0o600);
  const http: HttpOptions = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  try {
    let next = 1;
    let failure: unknown = null;
    const worker = async () => {
      while (failure === null && next <= file.chunks) {
        const n = next++;
        try {
          if (options.signal?.aborted) throw new AbortedError();
          const expected = n < file.chunks ? file.chunkSize : file.size - file.chunkSize * (file.chunks - 1);
          const message = await fetchChunk(listing, file, n, http);
          if (message.byteLength !== encryptedLength(expected)) {
            throw new IntegrityError(
              `chunk ${n} of ${file.name} is ${message.byteLength} bytes, expected ${encryptedLength(expected)}`,
            );
          }
          const plaintext = await decryptChunk(listing.key, message);
          if (plaintext.byteLength !== expected)
            throw new IntegrityError(
              `chunk ${n} of ${file.name} has ${plaintext.byteLength} bytes, expected ${expected}`,
            );
          let written = 0;
          while (written < expected) {
            const { bytesWritten } = await handle.write(
              plaintext,
              written,
              expected - written,
              (n - 1) * file.chunkSize + written,
            );
            written += bytesWritten;
          }
        } catch (error) {
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, file.chunks)) }, worker));
    if (failure !== null) throw failure;
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(part, { force: true });
    throw error;
  }
  await handle.close();
  if ((await stat(part)).size !== file.size) {
    await rm(part, { force: true });
    throw new IntegrityError(`${file.name} does not have its registered size of ${file.size} bytes`);
  }
  await rename(part, path);
}

/** A decrypted name as a plain file name: no directories, no control characters, no dot-names. */
export function safeName(name: string, fallback: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '_').trim();
  if (!cleaned || cleaned === '.' || cleaned === '..') return fallback;
  return cleaned.slice(0, 255);
}

async function freePath(dir: string, name: string, taken: Set<string>): Promise<string> {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 0; i < 10_000; i++) {
    const candidate = join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
    if (taken.has(candidate)) continue;
    try {
      await stat(candidate);
    } catch {
      taken.add(candidate);
      return candidate;
    }
  }
  throw new InputError(`no free name for ${name} in ${dir}`);
}
