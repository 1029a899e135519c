import type {
  CreateRequest,
  CreateResponseDirect,
  CreateResponseEmpty,
  FileEntry,
  UploadStatusResponse,
  UploadUrls,
} from '../contract/types.js';
import { InputError } from './errors.js';
import { foreignRequest, homeJson } from './outbound.js';
import type { HttpOptions } from './retry.js';
import { apiUrl, chunkUrl } from './urls.js';

/**
 * The two v2 operations and the chunk PUT, typed with the contract's own types (derived from the
 * same JSON Schemas the server validates with). Isomorphic: only `fetch` (or a `Fetch` transport) is used.
 */
export type Mode = NonNullable<CreateRequest['mode']>;
export const MODES: readonly Mode[] = ['send', 'share', 'request'];

export interface ServerOptions extends HttpOptions {
  /** API base address, e.g. http://127.0.0.1:8080 (no trailing slash needed). */
  readonly server: string;
}

export interface CreateEmptyFolderOptions extends ServerOptions {
  readonly title?: string | null;
  readonly mode?: Mode;
  /** Ask the service to generate the secret (the only strategy the spec knows; default). */
  readonly keyStrategy?: 'server_generated';
  readonly files?: readonly [];
}

export interface CreateDirectFolderOptions extends ServerOptions {
  readonly title?: string | null;
  readonly mode?: Mode;
  /** Encrypted share key (`createSke`); required by the spec when files are given. */
  readonly ske: string;
  /** 1 to 10 entries; filenames should already be encrypted (`encryptText`). */
  readonly files: readonly [FileEntry, ...FileEntry[]];
}

/**
 * `createV2Folder`: without files, the empty-folder flow (the answer's `folderUrl` holds a
 * server-generated secret in its fragment); with files, the direct-upload flow (the answer holds
 * `uploadAuth` and the presigned `uploadUrls` of each file).
 */
export async function createFolder(options: CreateDirectFolderOptions): Promise<CreateResponseDirect>;
export async function createFolder(options: CreateEmptyFolderOptions): Promise<CreateResponseEmpty>;
export async function createFolder(
  options: CreateEmptyFolderOptions | CreateDirectFolderOptions,
): Promise<CreateResponseEmpty | CreateResponseDirect> {
  const body: CreateRequest = {};
  if (options.title !== undefined) body.title = options.title;
  if (options.mode !== undefined) body.mode = options.mode;
  const files = options.files ?? [];
  if (files.length > 10) throw new InputError(`a folder takes at most 10 files per request, got ${files.length}`);
  if (files.length > 0) {
    const direct = options as CreateDirectFolderOptions;
    body.encryption = { ske: direct.ske };
    body.files = files.map((f) => ({ ...f }));
  } else if ((options as CreateEmptyFolderOptions).keyStrategy) {
    body.encryption = { keyStrategy: 'server_generated' };
  }
  // The answer is checked against the variant asked for: a direct create without uploadAuth, or an
  // empty one without a link, is refused here rather than printed as `undefined`.
  const url = apiUrl(options.server, '/v2/folders');
  const init = { method: 'POST', json: body };
  if (files.length > 0) return homeJson('create folder', url, 'v2CreateDirect', init, options);
  return homeJson('create folder', url, 'v2CreateEmpty', init, options);
}

export interface UploadStatusOptions extends ServerOptions {
  readonly folderId: string;
  readonly fileId: string;
  readonly uploadAuth?: string;
}

/** `getV2UploadStatus`: which chunks of a directly uploaded file are still missing. */
export async function getUploadStatus(options: UploadStatusOptions): Promise<UploadStatusResponse> {
  const query = options.uploadAuth ? `?uploadAuth=${encodeURIComponent(options.uploadAuth)}` : '';
  const path = `/v2/folders/${encodeURIComponent(options.folderId)}/files/${encodeURIComponent(options.fileId)}/upload-status${query}`;
  // `uploadAuth` rides in the query: a home request, so a redirect cannot take it elsewhere.
  return homeJson('upload status', apiUrl(options.server, path), 'v2UploadStatus', {}, options);
}

/**
 * PUTs one encrypted chunk with every header of `uploadUrls.headers` plus Content-Length (the exact
 * RFC 8188 length, which the URL's signature is bound to). Retries per `options.retry`. The body is
 * the ciphertext's bytes, or a browser's `Blob` of them (the page's, built from the message's parts
 * its crypto worker answered: web/src/workers/crypto-ports.ts).
 */
export async function putChunk(
  urls: UploadUrls,
  n: number,
  body: Uint8Array | Blob,
  operation: string,
  options: HttpOptions = {},
  onUploadProgress?: (sentBytes: number) => void,
): Promise<void> {
  const headers: Record<string, string> = {
    ...urls.headers,
    'Content-Length': String(body instanceof Uint8Array ? body.byteLength : body.size),
  };
  // A presigned address (object storage's, or the local backend's imitation): no credential of ours.
  const response = await foreignRequest(
    operation,
    chunkUrl(urls, n),
    { method: 'PUT', headers, body: body as BodyInit, ...(onUploadProgress ? { onUploadProgress } : {}) },
    options,
  );
  // Drain the answer so the connection can be reused (S3 answers an empty 200, ours a small JSON).
  await response.arrayBuffer().catch(() => undefined);
}
