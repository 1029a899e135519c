import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider on loopback for the sign-in tests: the certified
 * `oidc-provider` package, never a mock. One confidential client (`webfolder`, with a secret,
 * authorization code + PKCE) and a few people, signed in through the provider's own interaction pages
 * (its development login form: any password) from a real browser or from plain HTTP.
 *
 * - `alice`: staff, e-mail verified;
 * - `root`: staff and `webfolder-admins` (an admin by claim);
 * - `eve`: a contractor, refused by the rule `OIDC_REQUIRED_CLAIM=groups=staff`;
 * - `bob`: staff, e-mail bob@example.com (named an admin by ADMIN_EMAILS in tests that want it);
 * - `mallory`: staff, e-mail boss@example.com with no `email_verified` claim at all (a provider that
 *   lets people type their own address and says nothing about it).
 *
 * The redirect URIs must be known when the provider starts: pick the server's port first
 * (test/support/server.ts freePort), start the provider with its callback, then the server with
 * `serverEnv()` (the server reads the issuer only at the first sign-in).
 */
export interface OidcPerson {
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
  /** The `email_verified` claim; absent when undefined. */
  readonly emailVerified?: boolean;
}

export const PEOPLE: Readonly<Record<string, OidcPerson>> = {
  alice: { email: 'alice@example.com', name: 'Alice Example', groups: ['staff'], emailVerified: true },
  root: { email: 'root@example.com', name: 'Root Admin', groups: ['staff', 'webfolder-admins'], emailVerified: true },
  eve: { email: 'eve@contractor.example', name: 'Eve Outsider', groups: ['contractors'], emailVerified: true },
  bob: { email: 'bob@example.com', name: 'Bob Example', groups: ['staff'], emailVerified: true },
  mallory: { email: 'boss@example.com', name: 'Mallory Typed', groups: ['staff'] },
};

export const CLIENT_ID = 'webfolder';

export interface OidcFixture {
  readonly issuer: string;
  readonly clientSecret: string;
  /** The variables that point a webfolder server at this provider, with the claim rules above. */
  serverEnv(): Record<string, string>;
  /**
   * Signs `login` in by plain HTTP, starting at `<webUrl>/auth/login` and following every redirect
   * through the provider's login form back to the server's callback. Answers the server's cookies
   * (the session among them), the final response's status, location and body.
   */
  loginOverHttp(webUrl: string, login: string, returnTo?: string, options?: LoginOptions): Promise<HttpLogin>;
  /** Signs `login` in (loginOverHttp) and answers the session's `Cookie` header, `wf_session=…`. */
  sessionCookie(webUrl: string, login: string): Promise<string>;
  stop(): Promise<void>;
}

export interface LoginOptions {
  /**
   * Rewrites the pending sign-in cookie (`wf_login`) the server set, before the browser brings it
   * back to the callback: what a sibling subdomain planting its own cookie achieves.
   */
  readonly plantPending?: (value: string) => string;
}

export interface HttpLogin {
  /** Cookies the webfolder server set, by name (an empty value: deleted). */
  readonly cookies: Map<string, string>;
  /** The `Set-Cookie` lines the webfolder server sent, as sent. */
  readonly setCookies: readonly string[];
  readonly status: number;
  readonly location: string | null;
  readonly body: string;
}

/** The subset of Playwright's and Puppeteer's Page this module drives. */
export interface LoginPage {
  waitForSelector(selector: string, options?: { timeout?: number }): Promise<unknown>;
  type(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
}

/** Fills the provider's login form on a page that has been sent to it (after opening /auth/login). */
export async function fillProviderLogin(page: LoginPage, login: string): Promise<void> {
  await page.waitForSelector('input[name="login"]', { timeout: 30_000 });
  await page.type('input[name="login"]', login);
  await page.type('input[name="password"]', 'any password');
  await page.click('button[type="submit"]');
}

export async function startOidcProvider(options: { readonly redirectUris: readonly string[] }): Promise<OidcFixture> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const clientSecret = randomBytes(32).toString('base64url');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // A first-party client: no consent page, as an organisation's own provider is set up.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        accountId: ctx.oidc.session!.accountId!,
        clientId: ctx.oidc.client!.clientId,
      });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, id) => {
      const person = PEOPLE[id];
      if (!person) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: person.email,
          ...(person.emailVerified === undefined ? {} : { email_verified: person.emailVerified }),
          name: person.name,
          groups: [...person.groups],
        }),
      };
    },
  });
  http.on('request', provider.callback());

  return {
    issuer,
    clientSecret,
    serverEnv: () => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_REQUIRED_CLAIM: 'groups=staff',
      OIDC_ADMIN_CLAIM: 'groups=webfolder-admins',
    }),
    loginOverHttp: (webUrl, login, returnTo, options) => loginOverHttp(webUrl, issuer, login, returnTo, options),
    async sessionCookie(webUrl, login) {
      const session = (await loginOverHttp(webUrl, issuer, login)).cookies.get('wf_session');
      if (!session) throw new Error(`${login} got no session at ${webUrl}`);
      return `wf_session=${session}`;
    },
    async stop() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** A new API key named `name`, made by the signed-in `cookie` (Origin: `origin`, the site's own unless said). */
export async function newApiKey(webUrl: string, cookie: string, name: string, origin = webUrl) {
  const made = await fetch(`${webUrl}/api/account/keys`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  return (await made.json()) as { apiKey: string; key: { id: string } };
}

/** A cookie jar per origin that ignores paths: enough for two loopback servers with distinct names. */
class Jar {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  readonly lines = new Map<string, string[]>();

  take(origin: string, response: Response): void {
    const jar = this.byOrigin.get(origin) ?? new Map<string, string>();
    this.byOrigin.set(origin, jar);
    for (const line of response.headers.getSetCookie()) {
      this.lines.set(origin, [...(this.lines.get(origin) ?? []), line]);
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line);
      if (expired || value === '') jar.set(name, '');
      else jar.set(name, value);
    }
  }

  header(origin: string): string {
    return [...(this.byOrigin.get(origin) ?? new Map()).entries()]
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }

  set(origin: string, name: string, value: string): void {
    this.byOrigin.get(origin)?.set(name, value);
  }

  cookies(origin: string): Map<string, string> {
    return new Map(this.byOrigin.get(origin) ?? []);
  }
}

async function loginOverHttp(
  webUrl: string,
  issuer: string,
  login: string,
  returnTo?: string,
  options: LoginOptions = {},
): Promise<HttpLogin> {
  const jar = new Jar();
  const webOrigin = new URL(webUrl).origin;
  let url = `${webUrl}/auth/login${returnTo === undefined ? '' : `?return=${encodeURIComponent(returnTo)}`}`;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const origin = new URL(url).origin;
    const cookie = jar.header(origin);
    const response = await fetch(url, {
      redirect: 'manual',
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    jar.take(origin, response);
    const pending = jar.cookies(webOrigin).get('wf_login');
    if (origin === webOrigin && options.plantPending && pending)
      jar.set(webOrigin, 'wf_login', options.plantPending(pending));
    init = {};
    const location = response.headers.get('location');
    if (origin === new URL(issuer).origin && response.status === 200) {
      // The provider's login form: post the login to its action.
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action || !html.includes('name="login"')) throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
      };
      continue;
    }
    if (location && response.status >= 300 && response.status < 400) {
      const next = new URL(location, url);
      // Back at the server after its callback: stop there (the site's page is not the point).
      if (origin === webOrigin && !new URL(url).pathname.endsWith('/auth/login'))
        return {
          cookies: jar.cookies(webOrigin),
          setCookies: jar.lines.get(webOrigin) ?? [],
          status: response.status,
          location: next.href,
          body: await response.text(),
        };
      url = next.href;
      continue;
    }
    return {
      cookies: jar.cookies(webOrigin),
      setCookies: jar.lines.get(webOrigin) ?? [],
      status: response.status,
      location,
      body: await response.text(),
    };
  }
  throw new Error('too many redirects while signing in');
}
