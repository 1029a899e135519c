import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../app/errors.js';
import { principalOfApiKey, principalOfSession } from '../app/principal.js';
import type { Services } from '../app/services.js';
import { CONTRACT_ERROR_STATUSES } from '../contract/errors.js';
import { ANONYMOUS, API_KEY_PREFIX, type Principal } from '../domain/principal.js';
import { sendError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request speaks for (src/domain/principal.ts): anonymous unless proven otherwise. */
    principal: Principal;
  }
}

/** The sign-in session's cookie (src/http/routes/auth.ts sets it). */
export const SESSION_COOKIE = 'wf_session';

/**
 * Decorates every request with `request.principal`: an account when a live session cookie or an API
 * key (`Authorization: Bearer wfk_…`) proves one, else anonymous. A request with neither costs no
 * store read. A key that is presented but unknown or revoked is refused (401 `api_key_invalid`)
 * rather than treated as anonymous: a script whose key was revoked must learn it, not go on making
 * folders nobody owns. A session cookie that is not (or no longer) valid just counts as anonymous.
 * Other bearer tokens (METRICS_TOKEN, ADMIN_TOKEN) are left to their routes.
 */
export async function installPrincipal(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(cookie);
  // A reference-free initial value (Fastify's rule for decorations); the hook sets every request's own.
  app.decorateRequest('principal', null as never);
  app.addHook('onRequest', async (request, reply) => {
    request.principal = ANONYMOUS;
    const authorization = request.headers.authorization;
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : null;
    if (bearer?.startsWith(API_KEY_PREFIX)) {
      const principal = await principalOfApiKey(services, bearer, (error) =>
        request.log.warn({ err: error }, 'recording an API key use failed'),
      );
      // The v2 contract operations answer only their statuses (400 here), with the code.
      if (!principal)
        return sendError(request, reply, new AppError('api_key_invalid', 'the API key is unknown or revoked'), {
          ...(request.url.startsWith('/v2/folders') ? { statuses: CONTRACT_ERROR_STATUSES } : {}),
        });
      request.principal = principal;
      return;
    }
    const session = request.cookies[SESSION_COOKIE];
    if (session) request.principal = (await principalOfSession(services, session)) ?? ANONYMOUS;
  });
}
