import type {
  FileProgress,
  FolderInfo,
  SiteFileEntry,
  SiteFileList,
  SiteNotifications,
  SiteNotificationsUpdate,
  SiteRegisteredFile,
  SiteRegisterResponse,
} from '../contract/site.js';
import { AbortedError, NetworkError, ProtocolError } from './errors.js';
import { backoffDelay, DEFAULT_RETRY, exchange, type HttpOptions, isRedirect, jsonBody, sleep } from './retry.js';
import { folderApiUrl, siteChunkUrl } from './urls.js';

/**
 * The typed client of the browser site's endpoints (`<site>/api/site/folders/<id>/...`, see
 * src/contract/site.ts), used by the page, its service worker, the library and the CLI. Every call
 * goes through the one retry policy (`exchange`) and fails with the same typed errors.
 *
 * Credentials: the page presents `X-Owner-Token` / `X-Visitor-Token`, the library the folder's
 * `X-Upload-Auth`. They go to the site's own address only: a chunk download asks for the object
 * storage's presigned URL as JSON (or, when answered with a redirect anyway, does not follow it) and
 * fetches that URL without any of them, so no token ever travels to another origin.
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

  private async call<T>(operation: string, method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...credentialHeaders(this.credentials) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await exchange(
      operation,
      `${this.base}${path}`,
      { method, headers, body: body === undefined ? null : JSON.stringify(body), cache: 'no-store' },
      this.http,
    );
    return jsonBody<T>(response, operation);
  }

  info(): Promise<FolderInfo> {
    return this.call('open folder', 'GET', '');
  }
  register(files: readonly SiteFileEntry[], extra: RegisterExtra = {}): Promise<SiteRegisterResponse> {
    return this.call('register files', 'POST', '/files', { files, ...extra });
  }
  /** One page of the folder's files (the server's default page without `cursor`); see `listAll`. */
  list(page: { readonly cursor?: string | null; readonly limit?: number } = {}): Promise<SiteFileList> {
    const query = new URLSearchParams();
    if (page.cursor) query.set('cursor', page.cursor);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const q = query.toString();
    return this.call('list folder', 'GET', q ? `/files?${q}` : '/files');
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
    return this.call('upload status', 'GET', `/files/${encodeURIComponent(fileId)}/status`);
  }
  uploadUrls(fileId: string): Promise<SiteRegisteredFile> {
    return this.call('sign upload URLs', 'POST', `/files/${encodeURIComponent(fileId)}/upload-urls`);
  }

  /** The owner's notification settings (owner credentials only: anyone else gets 403). */
  notifications(): Promise<SiteNotifications> {
    return this.call('read notifications', 'GET', '/notifications');
  }
  setNotifications(update: SiteNotificationsUpdate): Promise<SiteNotifications> {
    return this.call('change notifications', 'PUT', '/notifications', update);
  }
  async clearNotifications(): Promise<void> {
    const headers = { accept: 'application/json', ...credentialHeaders(this.credentials) };
    await exchange(
      'clear notifications',
      `${this.base}/notifications`,
      { method: 'DELETE', headers, cache: 'no-store' },
      this.http,
    );
  }

  chunkUrl(fileId: string, n: number): string {
    return siteChunkUrl(this.siteApi, this.folderId, fileId, n);
  }

  /** The encrypted bytes of chunk n, from the site or (presigned, without credentials) object storage. */
  fetchChunk(fileId: string, n: number, operation: string, signal?: AbortSignal): Promise<Uint8Array> {
    return fetchChunkBytes(this.chunkUrl(fileId, n), credentialHeaders(this.credentials), operation, {
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
): Promise<Uint8Array> {
  // A connection lost in the middle of a body fails the body read, after `exchange` has answered:
  // that is retried here, with the same policy.
  const retry = { ...DEFAULT_RETRY, ...http.retry };
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchChunkOnce(url, credentials, operation, http);
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
): Promise<Uint8Array> {
  const response = await exchange(
    operation,
    url,
    {
      headers: { ...credentials, accept: 'application/octet-stream, application/json' },
      redirect: 'manual',
      cache: 'no-store',
    },
    http,
  );
  let location: string | null = null;
  if (isRedirect(response)) {
    location = response.headers.get('location');
    if (!location)
      throw new ProtocolError(operation, 'the server redirected the download to an address this client cannot read');
    location = new URL(location, url).href;
  } else if (/^application\/json\b/.test(response.headers.get('content-type') ?? '')) {
    location = (await jsonBody<{ url?: unknown }>(response, operation)).url as string;
    if (typeof location !== 'string') throw new ProtocolError(operation, 'the chunk answer has no url');
  }
  if (location === null) return new Uint8Array(await response.arrayBuffer());
  await response.body?.cancel().catch(() => undefined);
  const stored = await exchange(operation, location, { cache: 'no-store', credentials: 'omit' }, http);
  return new Uint8Array(await stored.arrayBuffer());
}
