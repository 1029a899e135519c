import type { UploadUrls } from '../contract/types.js';
import { decodeLinkPart, parseFragment, redactLink } from '../domain/links.js';
import { InputError } from './errors.js';
import { MODES, type Mode } from './v2.js';

/**
 * What `resume` needs to finish an interrupted upload: small, JSON-serialisable, written by the CLI
 * to a state file (mode 0600: it holds the folder secret and uploadAuth) right after the files are
 * registered and before the first chunk is sent. Which chunks are missing is not kept here: the
 * server's upload-status is the truth, so a state file never goes stale as chunks arrive.
 */
export interface UploadState {
  readonly version: 1;
  /** API base address the folder was created on. */
  readonly server: string;
  readonly folderId: string;
  /** Share URL without the fragment. */
  readonly folderUrl: string;
  readonly uploadAuth: string;
  /** The folder secret (base64url); the share link is folderUrl + "#" + secret. */
  readonly secret: string;
  /**
   * The secret the files are encrypted under when it is not `secret`: a password folder's effective
   * secret (src/crypto/password.ts), so that a resume needs no password prompt.
   */
  readonly key?: string;
  /** The mode asked for at creation, when one was (the server's default otherwise). */
  readonly mode?: Mode;
  readonly files: readonly UploadStateFile[];
}

export interface UploadStateFile {
  /** Absolute local path (Node), or null for a source without one (a browser Blob). */
  readonly path: string | null;
  /** Plaintext name as registered (encrypted on the wire). */
  readonly name: string;
  readonly fileId: string;
  readonly size: number;
  /** Modification time in ms when registered; null when unknown. */
  readonly mtime: number | null;
  readonly chunkSize: number;
  readonly chunks: number;
  readonly uploadUrls: UploadUrls;
}

/** Checks the shape of a parsed state file; throws InputError naming the first problem. */
export function parseUploadState(value: unknown): UploadState {
  const fail = (what: string): never => {
    throw new InputError(`not a webfolder upload state: ${what}`);
  };
  if (!value || typeof value !== 'object') fail('not an object');
  const s = value as Record<string, unknown>;
  if (s.version !== 1) fail('version must be 1');
  for (const k of ['server', 'folderId', 'folderUrl', 'uploadAuth', 'secret'] as const)
    if (typeof s[k] !== 'string' || !s[k]) fail(`${k} is missing`);
  if (s.key !== undefined && (typeof s.key !== 'string' || !s.key)) fail('key must be a secret');
  if (s.mode !== undefined && !(MODES as readonly unknown[]).includes(s.mode))
    fail(`mode must be one of ${MODES.join(', ')}`);
  if (!Array.isArray(s.files) || s.files.length === 0) fail('files is missing');
  (s.files as unknown[]).forEach((f, i) => {
    const file = f as Record<string, unknown>;
    if (!file || typeof file !== 'object') fail(`files[${i}] is not an object`);
    if (file.path !== null && typeof file.path !== 'string') fail(`files[${i}].path`);
    for (const k of ['name', 'fileId'] as const) if (typeof file[k] !== 'string') fail(`files[${i}].${k}`);
    for (const k of ['size', 'chunkSize', 'chunks'] as const)
      if (!Number.isSafeInteger(file[k]) || (file[k] as number) <= 0) fail(`files[${i}].${k}`);
    if (file.mtime !== null && typeof file.mtime !== 'number') fail(`files[${i}].mtime`);
    const urls = file.uploadUrls as Record<string, unknown> | undefined;
    if (
      !urls ||
      typeof urls.head !== 'string' ||
      typeof urls.path !== 'string' ||
      typeof urls.tail !== 'string' ||
      !Array.isArray(urls.signatures) ||
      typeof urls.headers !== 'object'
    ) {
      fail(`files[${i}].uploadUrls`);
    }
  });
  return value as UploadState;
}

export interface ParsedLink {
  /** The link without its fragment. */
  readonly folderUrl: string;
  /** Origin of the link (where the site and, by default, the API live). */
  readonly origin: string;
  readonly folderId: string;
  readonly secret: string;
  /** On an owner link (`#<secret>&owner=<owner secret>`, the page's "owner key"): the owner secret. */
  readonly ownerSecret?: string;
}

/**
 * Splits a share link `https://host/f/<folderId>#<secret>`, or an owner link
 * `…#<secret>&owner=<owner secret>`; throws InputError when it is not one.
 */
export function parseShareLink(link: string): ParsedLink {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new InputError(`not a share link: ${redactLink(link)}`);
  }
  const { secret, ownerSecret } = parseFragment(url.hash);
  if (!secret) throw new InputError('the share link has no secret after "#": copy the whole link');
  const segments = url.pathname.split('/').filter(Boolean);
  const folderId = decodeLinkPart(segments[segments.length - 1] ?? '');
  if (!folderId) throw new InputError('the share link has no folder id in its path');
  url.hash = '';
  return {
    folderUrl: url.toString(),
    origin: url.origin,
    folderId,
    secret,
    ...(ownerSecret ? { ownerSecret } : {}),
  };
}
