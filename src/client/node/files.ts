import { open, readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { UploadFile } from '../../transfer/direct-upload.js';
import { InputError, LocalFileChangedError } from '../../transfer/errors.js';
import { uploadName } from '../../transfer/names.js';

/**
 * Node-only file sources: each read opens the file, reads exactly one chunk at its offset and
 * closes it again, so no file is ever held in memory and no descriptor outlives a chunk. Every read
 * also re-checks size and mtime: a file that changes under an upload stops it with
 * LocalFileChangedError instead of sending a mix of old and new bytes.
 */
export async function diskFile(path: string, options: { name?: string; mimetype?: string } = {}): Promise<UploadFile> {
  const absolute = resolve(path);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (info.isDirectory()) throw new InputError(`${path} is a directory: upload it with diskFiles`);
  if (!info.isFile()) throw new InputError(`${path} is not a regular file`);
  return fileSource(
    absolute,
    options.name ?? uploadNameOf(path),
    info.size,
    info.mtimeMs,
    options.mimetype ?? guessMimetype(absolute),
  );
}

/** What the paths given to `upload` hold: their files, and the empty ones left out. */
export interface DiskSelection {
  readonly files: UploadFile[];
  /** Empty files found inside directories: the service takes files of at least 1 byte, so they stay behind. */
  readonly skippedEmpty: string[];
}

/**
 * The files of command-line paths, as the site's folder picker gives them: a file as itself, a
 * directory as every regular file below it (sorted, symbolic links not followed), each named by the
 * directory's stored name and its path inside it (`photos/2024/a.jpg`), so download recreates the
 * tree. Empty files inside a directory are left out and reported, as the site does; an empty file
 * named on its own is still refused by the upload (the person asked for it by name).
 */
export async function diskFiles(paths: readonly string[]): Promise<DiskSelection> {
  const files: UploadFile[] = [];
  const skippedEmpty: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (!info?.isDirectory()) {
      files.push(await diskFile(path));
      continue;
    }
    const top = resolve(path);
    const prefix = uploadNameOf(path);
    const entries = await readdir(top, { recursive: true, withFileTypes: true });
    const found = entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath ?? e.path, e.name))
      .sort();
    for (const absolute of found) {
      const inside = relative(top, absolute).split(sep).join('/');
      const file = await diskFile(absolute, { name: uploadName(`${prefix}/${inside}`, basename(absolute)) });
      if (file.size === 0) skippedEmpty.push(`${prefix}/${inside}`);
      else files.push(file);
    }
    if (found.length === 0) throw new InputError(`${path} is an empty directory: there is nothing to upload`);
  }
  return { files, skippedEmpty };
}

/**
 * The stored name of a path given on the command line (src/transfer/names.ts): a relative path
 * below the current directory keeps its folders (`a/sub/b.txt`), as zip and tar do; an absolute
 * path or one that climbs out with `..` keeps only its file name.
 */
export function uploadNameOf(path: string): string {
  const base = basename(resolve(path));
  if (isAbsolute(path)) return base;
  const relative = normalize(path);
  if (relative === '..' || relative.startsWith(`..${sep}`)) return base;
  return uploadName(relative.split(sep).join('/'), base);
}

export function fileSource(path: string, name: string, size: number, mtime: number, mimetype?: string): UploadFile {
  return {
    name,
    size,
    ...(mimetype ? { mimetype } : {}),
    path,
    mtime,
    async read(offset, length, into) {
      const handle = await open(path, 'r');
      try {
        const now = await handle.stat();
        if (now.size !== size) throw new LocalFileChangedError(path, `size ${size} -> ${now.size}`);
        if (now.mtimeMs !== mtime) throw new LocalFileChangedError(path, 'modification time changed');
        const buffer = into && into.byteLength >= length ? into : new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) throw new LocalFileChangedError(path, `ended at ${offset + filled} bytes`);
          filled += bytesRead;
        }
        return buffer.subarray(0, length);
      } finally {
        await handle.close();
      }
    },
  };
}

const TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  bin: 'application/octet-stream',
};

/** A media type from the file extension (a short table; unknown extensions get none). */
export function guessMimetype(path: string): string | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext ? TYPES[ext] : undefined;
}
