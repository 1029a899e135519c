// The endpoints' shapes are stated once, in src/contract/site.ts.
import type {
  FileProgress,
  FolderInfo,
  SiteFileEntry as RegisterEntry,
  SiteRegisteredFile as RegisteredFile,
  SiteRegisterResponse as RegisterResponse,
  SiteFile,
  UploadUrls,
} from '../../src/contract/site.js';
import type { SiteConfig } from './config.js';

/** The site's JSON endpoints (src/http/routes/site.ts). Every failure carries the server's {error}. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Credentials {
  ownerToken?: string | undefined;
  visitorToken?: string | undefined;
}

export function credentialHeaders(c: Credentials): Record<string, string> {
  const headers: Record<string, string> = {};
  if (c.ownerToken) headers['x-owner-token'] = c.ownerToken;
  if (c.visitorToken) headers['x-visitor-token'] = c.visitorToken;
  return headers;
}

export class SiteApi {
  constructor(
    private readonly config: SiteConfig,
    private readonly folderId: string,
    public credentials: Credentials,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers = credentialHeaders(this.credentials);
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${this.config.api}/folders/${this.folderId}${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'the server cannot be reached: check your connection');
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    if (!res.ok)
      throw new ApiError(res.status, (json as { error?: string } | null)?.error ?? `request failed (${res.status})`);
    return json as T;
  }

  info(): Promise<FolderInfo> {
    return this.call('GET', '');
  }
  register(files: RegisterEntry[], extra: { ske?: string; ownerPublicKey?: string }): Promise<RegisterResponse> {
    return this.call('POST', '/files', { files, ...extra });
  }
  list(): Promise<{ files: SiteFile[] }> {
    return this.call('GET', '/files');
  }
  status(fileId: string): Promise<FileProgress> {
    return this.call('GET', `/files/${fileId}/status`);
  }
  uploadUrls(fileId: string): Promise<RegisteredFile> {
    return this.call('POST', `/files/${fileId}/upload-urls`);
  }
  chunkUrl(fileId: string, n: number): string {
    return `${this.config.api}/folders/${this.folderId}/files/${fileId}/chunks/${n}`;
  }
}

/** The file.kiwi chunk URL rule: head + path + "/" + NNNNN + "?" + tail + "&X-Amz-Signature=" + signature. */
export function chunkUploadUrl(u: UploadUrls, n: number): string {
  return `${u.head}${u.path}/${String(n).padStart(5, '0')}?${u.tail}&X-Amz-Signature=${u.signatures[n - 1]}`;
}
