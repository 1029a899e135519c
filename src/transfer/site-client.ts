import type { TakeDownInfo } from '../contract/admin.js';
import type { AnswerName, Answers } from '../contract/answers.js';
import type {
  DownloadTicket,
  FileProgress,
  FolderInfo,
  SiteActivity,
  SiteCreateFolderRequest,
  SiteCreateFolderResponse,
  SiteFile,
  SiteFileEntry,
  SiteFileList,
  SiteFileUpdate,
  SiteFolderUpdate,
  SiteNotifications,
  SiteNotificationsUpdate,
  SiteRegisteredFile,
  SiteRegisterResponse,
  SiteSending,
} from '../contract/site.js';
import { AbortedError, NetworkError, ProtocolError, WebfolderError } from './errors.js';
import {
  foreignRequest,
  homeEmpty,
  homeJson,
  homeRequest,
  readAnswer,
  redirectTarget,
  responseBytes,
} from './outbound.js';
import type { ByteRange } from './range.js';
import { backoffDelay, DEFAULT_RETRY, type HttpOptions, isRedirect, sleep } from './retry.js';
import { folderApiUrl, siteChunkUrl } from './urls.js';

/**
 * The typed client of the browser site's endpoints (`<site>/api/site/folders/<id>/...`, see
 * src/contract/site.ts), used by the page, its service worker, the library and the CLI. Every call
 * goes through the one retry policy (`exchange`) and fails with the same typed errors.
 *
 * Credentials: the page presents `X-Owner-Token` / `X-Visitor-Token`, the library the folder's
 * `X-Upload-Auth`. They go to the site's own address only, through the outbound-request layer
 * (./outbound.ts), which refuses every redirect of a call that carries them and checks every answer
 * against its contract schema: a chunk download asks for the object storage's presigned URL as
 * JSON (or, when answered with a redirect anyway, does not follow it with them) and fetches that
 * URL as a foreign request, without any of them, so no token ever travels to another origin.
 */
export interface Credentials {
  readonly ownerToken?: string | undefined;
  readonly visitorToken?: string | undefined;
  /** The direct-upload flow's `uploadAuth`: the owner's rights on the site. */
  readonly uploadAuth?: string | undefined;
}

export function credentialHeaders(c: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  if (c.ownerToken) headers['x-owner-token'] = c.ownerToken;
  if (c.visitorToken) headers['x-visitor-token'] = c.visitorToken;
  if (c.uploadAuth) headers['x-upload-auth'] = c.uploadAuth;
  return headers;
}

export interface RegisterExtra {
  readonly ske?: string;
  readonly ownerPublicKey?: string;
}

export class SiteClient {
  constructor(
    /** The site API address, e.g. https://files.example.com/api/site (or a path on the page's origin). */
    readonly siteApi: string,
    readonly folderId: string,
    /** Changed by the page as it claims a folder or drops a stale owner credential. */
    public credentials: Credentials = {},
    readonly http: HttpOptions = {},
  ) {}

  /** The credential headers this client presents (to the site's own address only). */
  credentialHeaders(): Record<string, string> {
    return credentialHeaders(this.credentials);
  }

  private get base(): string {
    return folderApiUrl(this.siteApi, this.folderId);
  }

  private call<N extends AnswerName>(
    operation: string,
    method: string,
    path: string,
    answer: N,
    json?: unknown,
  ): Promise<Answers[N]> {
    const credentials = credentialHeaders(this.credentials);
    return homeJson(operation, `${this.base}${path}`, answer, { method, credentials, json }, this.http);
  }

  /** A call answered 204 (no body). */
  private callEmpty(operation: string, method: string, path: string): Promise<void> {
    return homeEmpty(operation, `${this.base}${path}`, { method, credentials: this.credentialHeaders() }, this.http);
  }

  /**
   * Creates a folder already owned by `ownerToken` (from deriveOwnerCredentials): create and claim
   * in one step. Answers its id and page address (without the fragment, which the caller adds).
   */
  static createFolder(
    siteApi: string,
    ownerToken: string,
    request: SiteCreateFolderRequest,
    http: HttpOptions = {},
  ): Promise<SiteCreateFolderResponse> {
    const url = `${siteApi.replace(/\/+$/, '')}/folders`;
    const credentials = credentialHeaders({ ownerToken });
    return homeJson('create folder', url, 'siteCreateFolder', { method: 'POST', credentials, json: request }, http);
  }

  info(): Promise<FolderInfo> {
    return this.call('open folder', 'GET', '', 'folderInfo');
  }
  /** Why the operator took the folder down (only for a folder answered `taken_down`). */
  takeDownNotice(): Promise<TakeDownInfo> {
    return this.call('read take-down notice', 'GET', '/take-down', 'takeDown');
  }
  register(files: readonly SiteFileEntry[], extra: RegisterExtra = {}): Promise<SiteRegisterResponse> {
    return this.call('register files', 'POST', '/files', 'register', { files, ...extra });
  }
  /** One page of the folder's files (the server's default page without `cursor`); see `listAll`. */
  list(page: { readonly cursor?: string | null; readonly limit?: number } = {}): Promise<SiteFileList> {
    const query = new URLSearchParams();
    if (page.cursor) query.set('cursor', page.cursor);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const q = query.toString();
    return this.call('list folder', 'GET', q ? `/files?${q}` : '/files', 'fileList');
  }
  /** Every file of the folder, page after page. */
  async listAll(): Promise<SiteFileList['files']> {
    const files: SiteFileList['files'] = [];
    let cursor: string | null = null;
    do {
      const page: SiteFileList = await this.list({ cursor });
      files.push(...page.files);
      cursor = page.nextCursor;
    } while (cursor);
    return files;
  }
  status(fileId: string): Promise<FileProgress> {
    return this.call('upload status', 'GET', `/files/${encodeURIComponent(fileId)}/status`, 'fileProgress');
  }
  uploadUrls(fileId: string): Promise<SiteRegisteredFile> {
    return this.call('sign upload URLs', 'POST', `/files/${encodeURIComponent(fileId)}/upload-urls`, 'registeredFile');
  }

  /** The owner's notification settings (owner credentials only: anyone else gets 403). */
  notifications(): Promise<SiteNotifications> {
    return this.call('read notifications', 'GET', '/notifications', 'notifications');
  }
  setNotifications(update: SiteNotificationsUpdate): Promise<SiteNotifications> {
    return this.call('change notifications', 'PUT', '/notifications', 'notifications', update);
  }
  clearNotifications(): Promise<void> {
    return this.callEmpty('clear notifications', 'DELETE', '/notifications');
  }

  // ---- The owner's controls (owner credentials only: anyone else gets 403) ----------------------
  /** Changes the folder's settings (expiry, default download limit, note, password once). */
  updateFolder(update: SiteFolderUpdate): Promise<FolderInfo> {
    return this.call('change folder', 'PATCH', '', 'folderInfo', update);
  }
  /** Deletes the folder: when this returns, its bytes are gone and it reads as not found. */
  deleteFolder(): Promise<void> {
    return this.callEmpty('delete folder', 'DELETE', '');
  }
  /** Deletes one file: when this returns, its bytes are gone. */
  deleteFile(fileId: string): Promise<void> {
    return this.callEmpty('delete file', 'DELETE', `/files/${encodeURIComponent(fileId)}`);
  }
  /** Sets the file's own download limit (null: the folder's applies). */
  updateFile(fileId: string, update: SiteFileUpdate): Promise<SiteFile> {
    return this.call('change file', 'PATCH', `/files/${encodeURIComponent(fileId)}`, 'siteFile', update);
  }
  /**
   * The uploading browser's heartbeat (src/domain/sending.ts): it still sends these of its files, or
   * (`sending` false) stopped them. `keepalive` lets the last word go out as the page closes; such a
   * call is sent once, not retried.
   */
  sending(fileIds: readonly string[], sending: boolean, options: { readonly keepalive?: boolean } = {}): Promise<void> {
    const body: SiteSending = { fileIds, sending };
    return homeEmpty(
      sending ? 'say still sending' : 'say stopped',
      `${this.base}/sending`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: this.credentialHeaders(),
        body: JSON.stringify(body),
        ...(options.keepalive ? { keepalive: true } : {}),
      },
      options.keepalive ? { ...this.http, retry: { ...this.http.retry, retries: 0 } } : this.http,
    );
  }
  /** The folder's recent uploads, downloads and deletions, newest first. */
  activity(): Promise<SiteActivity> {
    return this.call('read activity', 'GET', '/activity', 'activity');
  }

  /**
   * Stores a file's thumbnail, already encrypted under the file's key (`encryptChunk`: the page
   * makes one at upload; a program may send its own). Its uploader or the owner only; at most
   * MAX_THUMBNAIL_BYTES.
   */
  putThumbnail(fileId: string, encrypted: Uint8Array): Promise<void> {
    return homeEmpty(
      'store thumbnail',
      `${this.base}/files/${encodeURIComponent(fileId)}/thumbnail`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        credentials: this.credentialHeaders(),
        body: encrypted as Uint8Array<ArrayBuffer>,
      },
      this.http,
    );
  }
  /** A file's stored thumbnail, still encrypted, or null when it has none. */
  async thumbnail(fileId: string): Promise<Uint8Array | null> {
    try {
      const response = await homeRequest(
        'read thumbnail',
        `${this.base}/files/${encodeURIComponent(fileId)}/thumbnail`,
        { headers: { accept: 'application/octet-stream, application/json' }, credentials: this.credentialHeaders() },
        this.http,
      );
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (error instanceof WebfolderError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Starts one download of a file: counts it (unless the caller is the owner) and answers the ticket
   * its chunks are fetched with. Fails with the code `download_limit_reached` (410) when the file's
   * limit is used up. One ticket = one download: call this once per download, not per chunk.
   */
  startDownload(fileId: string): Promise<DownloadTicket> {
    return this.call('start download', 'POST', `/files/${encodeURIComponent(fileId)}/downloads`, 'downloadTicket');
  }

  /** The chunk's address; with a ticket in its query (for the service worker or a plain link). */
  chunkUrl(fileId: string, n: number, ticket?: string): string {
    const url = siteChunkUrl(this.siteApi, this.folderId, fileId, n);
    return ticket ? `${url}?ticket=${encodeURIComponent(ticket)}` : url;
  }

  /**
   * The encrypted bytes of chunk n, from the site or (presigned, without credentials) object storage.
   * `ticket` (from startDownload) is sent as `X-Download-Ticket`: files with a limit require it.
   */
  fetchChunk(fileId: string, n: number, operation: string, signal?: AbortSignal, ticket?: string): Promise<Uint8Array> {
    const headers = credentialHeaders(this.credentials);
    if (ticket) headers['x-download-ticket'] = ticket;
    return fetchChunkBytes(this.chunkUrl(fileId, n), headers, operation, {
      ...this.http,
      ...(signal ? { signal } : {}),
    });
  }
}

/**
 * GET a chunk with the caller's credential headers, never letting them follow a redirect: the site
 * answers object storage's presigned URL as `{url}` when asked for JSON, and a redirect (from a
 * server or proxy that ignores the Accept header) is not followed automatically. The presigned URL
 * is then fetched with no credential of ours: its signature is all object storage needs.
 */
export async function fetchChunkBytes(
  url: string,
  credentials: Readonly<Record<string, string>>,
  operation: string,
  http: HttpOptions = {},
  /** Only these bytes of the chunk (a `Range`, which the site and object storage answer with 206). */
  range?: ByteRange,
): Promise<Uint8Array> {
  // A connection lost in the middle of a body fails the body read, after `exchange` has answered:
  // that is retried here, with the same policy.
  const retry = { ...DEFAULT_RETRY, ...http.retry };
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchChunkOnce(url, credentials, operation, http, range);
    } catch (error) {
      if (http.signal?.aborted) throw new AbortedError();
      if (!(error instanceof TypeError)) throw error;
      if (attempt >= retry.retries) throw new NetworkError(operation, error);
      const delayMs = backoffDelay(attempt, retry);
      http.onRetry?.({ operation, attempt: attempt + 1, delayMs, status: null, reason: error.message });
      await sleep(delayMs, http.signal);
    }
  }
}

async function fetchChunkOnce(
  url: string,
  credentials: Readonly<Record<string, string>>,
  operation: string,
  http: HttpOptions,
  range?: ByteRange,
): Promise<Uint8Array> {
  const asked = range ? { range: `bytes=${range.start}-${range.end}` } : undefined;
  const response = await homeRequest(
    operation,
    url,
    { headers: { ...asked, accept: 'application/octet-stream, application/json' }, credentials, allowRedirect: true },
    http,
  );
  let location: string | null = null;
  if (isRedirect(response)) {
    location = redirectTarget(response, url);
    if (!location)
      throw new ProtocolError(operation, 'the server redirected the download to an address this client cannot read');
  } else if (/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    location = (await readAnswer(response, operation, 'chunkLocation')).url;
  }
  if (location === null) return rangeOf(response, range);
  await response.body?.cancel().catch(() => undefined);
  // Object storage's presigned address (another origin by design): nothing of ours goes with it.
  const stored = await foreignRequest(operation, location, asked ? { headers: asked } : {}, http);
  return rangeOf(stored, range);
}

/** The asked bytes of a chunk answer: a 206 is them; a server that ignored `Range` sent all (200). */
async function rangeOf(response: Response, range: ByteRange | undefined): Promise<Uint8Array> {
  const bytes = await responseBytes(response);
  return range && response.status === 200 ? bytes.subarray(range.start, range.end + 1) : bytes;
}
