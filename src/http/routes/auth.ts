import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AccountView, accountView } from '../../app/account.js';
import type { Services } from '../../app/services.js';
import { type OidcClient, oidcClient, type PendingLogin, signOut } from '../../app/sign-in.js';
import type { OidcConfig } from '../../config/auth.js';
import { ACCOUNT_PATH, AUTH_PATHS, accountViewSchema } from '../../contract/account.js';
import { errorResponseSchema } from '../../contract/schemas.js';
import { safeReturnPath } from '../../domain/claims.js';
import { SESSION_COOKIE, sessionCookieOf } from '../callers/route-guard.js';
import { routePolicy } from '../callers/route-policy.js';

/**
 * Sign-in (docs/organisations.md#sign-in): `GET /auth/login` sends the browser to the
 * provider, `GET /auth/callback` finishes the flow and sets the session cookie, `POST /auth/logout`
 * ends the session, `GET /api/account` says who is signed in (the page draws "Sign in" or the
 * account menu from it). Paths are under WEB_URL's path. A sign-in that does not end in a session
 * sends the browser to the home page with `?signin=refused|cancelled|failed`, which the page explains.
 *
 * Cookies: the session (`wf_session`, the session id; the store keeps only its hash) and, for the ten
 * minutes of a sign-in, its pending state (`wf_login`: PKCE verifier, state, nonce, where to return),
 * both HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET, which Lax lets carry
 * them), Secure when WEB_URL is https, and scoped to the site's path. The pending cookie is read as
 * untrusted input at the callback (a sibling subdomain can plant one): where it says to return is
 * checked again there, before anything is written.
 *
 * `base` is the site's path, which every route here adds itself.
 */
const LOGIN_COOKIE = 'wf_login';
const LOGIN_MINUTES = 10;

export async function authRoutes(
  app: FastifyInstance,
  { services, base: prefix }: { services: Services; base: string },
): Promise<void> {
  const { config } = services;
  const secure = new URL(config.webUrl).protocol === 'https:';
  const sitePath = prefix === '' ? '/' : prefix;
  const cookieBase = { httpOnly: true, sameSite: 'lax', secure, path: sitePath } as const;
  const home = (outcome?: string) => `${prefix}/${outcome ? `?signin=${outcome}` : ''}`;
  const oidcSettings: OidcConfig | null = config.auth.oidc;
  const client: OidcClient | null = oidcSettings
    ? oidcClient(services, oidcSettings, `${config.webUrl}${AUTH_PATHS.callback}`)
    : null;

  app.get(
    `${prefix}${ACCOUNT_PATH}`,
    {
      config: routePolicy('account', ['anonymous', 'session', 'api-key']),
      schema: { response: { 200: accountViewSchema, '4xx': errorResponseSchema } },
    },
    async (request, reply): Promise<AccountView> => {
      reply.header('cache-control', 'no-store');
      return accountView(services, request.principal);
    },
  );

  // Without OIDC the sign-in paths are plain 404s (the JSON one above still answers: signed out).
  if (!client) return;
  // The flow's two legs take no credential: the session cookie does not count on them (the callback
  // reads only its pending sign-in cookie).
  const signInFlow = routePolicy('auth', ['anonymous']);

  app.get<{ Querystring: { return?: string } }>(
    `${prefix}${AUTH_PATHS.login}`,
    {
      config: signInFlow,
      schema: {
        querystring: {
          type: 'object',
          properties: { return: { type: 'string', maxLength: 300 } },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      let begun: Awaited<ReturnType<OidcClient['begin']>>;
      try {
        begun = await client.begin(safeReturnPath(request.query.return));
      } catch (error) {
        request.log.error({ err: error }, 'sign-in could not reach the identity provider');
        return reply.redirect(home('failed'), 303);
      }
      reply.setCookie(LOGIN_COOKIE, Buffer.from(JSON.stringify(begun.pending)).toString('base64url'), {
        ...cookieBase,
        maxAge: LOGIN_MINUTES * 60,
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(begun.url, 303);
    },
  );

  app.get(`${prefix}${AUTH_PATHS.callback}`, { config: signInFlow }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const pending = pendingOf(request.cookies[LOGIN_COOKIE]);
    reply.clearCookie(LOGIN_COOKIE, cookieBase);
    const query = new URL(request.url, 'http://x').searchParams;
    if (query.has('error')) return reply.redirect(home('cancelled'), 303);
    if (!pending) return reply.redirect(home('expired'), 303);
    // The URL the provider redirected to, as registered (WEB_URL + path), with its query.
    const callbackUrl = new URL(`${config.webUrl}${AUTH_PATHS.callback}?${query}`);
    try {
      const result = await client.finish(callbackUrl, pending, request.ip);
      if (result.kind === 'refused') return reply.redirect(home('refused'), 303);
      reply.setCookie(SESSION_COOKIE, result.sessionId, {
        ...cookieBase,
        // The store's expiry decides; the cookie lasts as long (SESSION_HOURS).
        maxAge: config.auth.sessionHours * 3600,
      });
      return reply.redirect(`${prefix}${pending.returnTo}`, 303);
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in failed at the callback');
      return reply.redirect(home('failed'), 303);
    }
  });

  // The cookie counts here, so the route guard lets only this instance's own pages end a session.
  const logout = { config: routePolicy('auth', ['session']) };
  app.post(`${prefix}${AUTH_PATHS.logout}`, logout, async (request: FastifyRequest, reply: FastifyReply) => {
    const session = sessionCookieOf(request);
    if (session) await signOut(services, session, request.principal, request.ip);
    reply.clearCookie(SESSION_COOKIE, cookieBase);
    reply.header('cache-control', 'no-store');
    return reply.status(204).send();
  });
}

function pendingOf(raw: string | undefined): PendingLogin | null {
  if (!raw || raw.length > 2000) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<PendingLogin>;
    const ok = ['verifier', 'state', 'nonce', 'returnTo'].every(
      (k) => typeof value[k as keyof PendingLogin] === 'string',
    );
    // Where to return is checked as at /auth/login: a same-site path, else the home page.
    return ok ? { ...(value as PendingLogin), returnTo: safeReturnPath(value.returnTo) } : null;
  } catch {
    return null;
  }
}
