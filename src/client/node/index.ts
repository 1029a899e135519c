import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  resumeUpload,
  type TransferOptions,
  type UploadFile,
  type UploadOptions,
  type UploadResult,
  upload as uploadCore,
} from '../../transfer/direct-upload.js';
import { InputError, LocalFileChangedError } from '../../transfer/errors.js';
import { parseUploadState, type UploadState } from '../../transfer/state.js';
import { nodeEncryptChunk } from './encrypt.js';
import { diskFiles, fileSource } from './files.js';
import { nodeFetch } from './transport.js';

/**
 * The Node entry of the client library: everything of the isomorphic core, plus uploads from paths
 * on disk, resume from a state file, and downloads to a directory.
 */
export * from '../index.js';
export { type DownloadOptions, type DownloadResult, download } from './download.js';
export { diskFile, diskFiles, fileSource, guessMimetype, uploadNameOf } from './files.js';
export { failFast, nodeFetch, ServerUnreachableError, withApiKey, withOriginAuthorization } from './transport.js';

/**
 * Uploads files given as paths (a directory: its files, with their paths inside it; see diskFiles)
 * or as ready UploadFile sources.
 */
export async function upload(files: readonly (string | UploadFile)[], options: UploadOptions): Promise<UploadResult> {
  const sources: UploadFile[] = [];
  for (const f of files) sources.push(...(typeof f === 'string' ? (await diskFiles([f])).files : [f]));
  return uploadCore(sources, {
    ...options,
    fetch: options.fetch ?? nodeFetch,
    encrypt: options.encrypt ?? nodeEncryptChunk,
  });
}

/**
 * Resumes from a state (or the path of a state file): re-opens each file from its path, refuses it
 * if its size or mtime differ from the state, asks upload-status and sends only missing chunks.
 */
export async function resume(
  state: UploadState | string,
  options: Omit<TransferOptions, 'server'> & { server?: string } = {},
): Promise<UploadResult> {
  const s = typeof state === 'string' ? await readStateFile(state) : state;
  const sources = await Promise.all(
    s.files.map(async (f) => {
      if (!f.path)
        throw new InputError(`${f.name} has no local path in the state: resume it with resumeUpload() and its source`);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(f.path);
      } catch {
        throw new LocalFileChangedError(f.path, 'it no longer exists');
      }
      if (info.size !== f.size) throw new LocalFileChangedError(f.path, `size was ${f.size}, is ${info.size}`);
      if (f.mtime !== null && info.mtimeMs !== f.mtime)
        throw new LocalFileChangedError(f.path, 'modification time changed');
      return fileSource(f.path, f.name, f.size, info.mtimeMs);
    }),
  );
  return resumeUpload(s, sources, {
    ...options,
    server: options.server ?? s.server,
    fetch: options.fetch ?? nodeFetch,
    encrypt: options.encrypt ?? nodeEncryptChunk,
  });
}

/** Where the CLI keeps state files: $WEBFOLDER_STATE_DIR, else $XDG_STATE_HOME/webfolder, else ~/.local/state/webfolder. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WEBFOLDER_STATE_DIR) return env.WEBFOLDER_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'webfolder');
}

/** Writes a state file atomically, readable by its owner only (it holds the secret and uploadAuth). */
export async function writeStateFile(path: string, state: UploadState): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
  await rename(temp, path);
}

export async function readStateFile(path: string): Promise<UploadState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(
      `cannot read state file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InputError(`state file ${path} is not JSON`);
  }
  return parseUploadState(parsed);
}

export async function removeStateFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** The most recently written state file in `dir`, or null. */
export async function latestStateFile(dir: string): Promise<string | null> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return null;
  }
  const withTimes = await Promise.all(
    names.map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime);
  return withTimes[0]?.path ?? null;
}
