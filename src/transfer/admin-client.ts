import type {
  AdminFolderDetail,
  AdminFolderList,
  AdminStats,
  TakeDownInfo,
  TakeDownRequest,
} from '../contract/admin.js';
import { ADMIN_API_PATH } from '../contract/admin.js';
import { WebfolderError } from './errors.js';
import { homeEmpty, homeJson, homeRequest } from './outbound.js';
import type { HttpOptions } from './retry.js';

/**
 * The typed client of the admin API (`/api/admin/…`, src/contract/admin.ts) for the console page and
 * scripts. The admin's credential (the break-glass token as `Authorization: Bearer`, or none when a
 * session cookie proves the admin) goes through the outbound-request layer (./outbound.ts): to the
 * service's own address only, never across a redirect, and every answer is checked against its schema.
 */
export interface AdminListQuery {
  readonly q?: string;
  readonly sort?: 'created' | 'size' | 'expiry' | 'downloads';
  readonly order?: 'asc' | 'desc';
  readonly limit?: number;
  readonly offset?: number;
}

export class AdminClient {
  private readonly api: string;
  constructor(
    /** The service's address (BASE_URL), or a path on the page's own origin (the console: the site's path). */
    baseUrl: string,
    /** The break-glass token; null when the admin is signed in (the session cookie goes by itself). */
    private readonly token: string | null,
    private readonly http: HttpOptions = { retry: { retries: 1 } },
  ) {
    this.api = `${baseUrl.replace(/\/+$/, '')}${ADMIN_API_PATH}`;
  }

  private get credentials(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  folders(query: AdminListQuery = {}): Promise<AdminFolderList> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
    return homeJson('list folders', `${this.api}/folders?${q}`, 'adminFolderList', this.init(), this.http);
  }

  folder(folderId: string): Promise<AdminFolderDetail> {
    return homeJson('read folder', `${this.api}/folders/${folderId}`, 'adminFolder', this.init(), this.http);
  }

  takeDown(folderId: string, body: TakeDownRequest): Promise<TakeDownInfo> {
    return homeJson(
      'take down folder',
      `${this.api}/folders/${folderId}/take-down`,
      'takeDown',
      { ...this.init(), method: 'POST', json: body },
      { ...this.http, retry: { retries: 0 } },
    );
  }

  remove(folderId: string): Promise<void> {
    return homeEmpty(
      'delete folder',
      `${this.api}/folders/${folderId}`,
      { ...this.init(), method: 'DELETE' },
      {
        ...this.http,
        retry: { retries: 0 },
      },
    );
  }

  stats(): Promise<AdminStats> {
    return homeJson('read statistics', `${this.api}/stats`, 'adminStats', this.init(), this.http);
  }

  /**
   * Any admin path (the audit and accounts tabs), answered as a plain Response: a refusal comes back
   * as its `{error, code}` body and status instead of a thrown error, the way those views read it.
   */
  async request(
    path: string,
    init: { readonly method?: string | undefined; readonly body?: BodyInit | null | undefined } = {},
  ): Promise<Response> {
    const url = `${this.api}${path.startsWith(ADMIN_API_PATH) ? path.slice(ADMIN_API_PATH.length) : path}`;
    try {
      return await homeRequest(
        `admin ${init.method ?? 'GET'}`,
        url,
        {
          ...this.init(),
          method: init.method ?? 'GET',
          headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
          body: init.body ?? null,
        },
        this.http,
      );
    } catch (error) {
      if (!(error instanceof WebfolderError)) throw error;
      const body = JSON.stringify({ error: error.serverMessage, code: error.serverCode });
      return new Response(body, { status: error.status, headers: { 'content-type': 'application/json' } });
    }
  }

  /**
   * Whether the instance offers sign-in (`GET <site>/api/account`, which answers anyone): the console
   * then offers "Sign in" beside the token form. False when the answer cannot be read.
   */
  async signInAvailable(accountUrl: string): Promise<boolean> {
    try {
      const response = await homeRequest(
        'read account',
        accountUrl,
        { headers: { accept: 'application/json' } },
        this.http,
      );
      const body = (await response.json()) as { signInAvailable?: unknown };
      return body.signInAvailable === true;
    } catch {
      return false;
    }
  }

  private init() {
    return { credentials: this.credentials };
  }
}
