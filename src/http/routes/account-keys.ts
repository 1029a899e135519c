import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../../app/account.js';
import { forbidden } from '../../app/errors.js';
import type { Services } from '../../app/services.js';
import {
  ACCOUNT_KEYS_PATH,
  apiKeyCreatedSchema,
  apiKeyCreateRequest,
  apiKeyListSchema,
  apiKeyParams,
} from '../../contract/account.js';
import { errorResponseSchema } from '../../contract/schemas.js';
import { installJsonBodies } from '../json-body.js';
import { typed } from '../typed.js';

/**
 * A signed-in person's API keys (issue 26): list, create (the key is answered once) and revoke, from
 * a sign-in session only (src/app/account.ts). A request carried by the session cookie must come
 * from the site's own origin: with SameSite=Lax and no credentialed CORS that already holds for
 * browsers, and the check keeps it so if either ever changes.
 */
export async function accountKeyRoutes(
  scope: FastifyInstance,
  { services, prefix }: { services: Services; prefix: string },
): Promise<void> {
  const app = typed(scope);
  installJsonBodies(app, services.config.maxJsonBodyBytes);
  const own = new Set([new URL(services.config.webUrl).origin, new URL(services.config.baseUrl).origin]);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const origin = request.headers.origin;
    if (request.method !== 'GET' && origin !== undefined && !own.has(origin))
      throw forbidden('API keys are managed from this site only');
  });
  const errors = { '4xx': errorResponseSchema, '5xx': errorResponseSchema };
  const path = `${prefix}${ACCOUNT_KEYS_PATH}`;

  app.get(path, { schema: { response: { 200: apiKeyListSchema, ...errors } } }, async (request) => ({
    keys: await listApiKeys(services, request.principal),
  }));

  app.post(
    path,
    { schema: { body: apiKeyCreateRequest, response: { 201: apiKeyCreatedSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createApiKey(services, request.principal, request.body.name, request.ip)),
  );

  app.delete(`${path}/:keyId`, { schema: { params: apiKeyParams } }, async (request, reply) => {
    await revokeApiKey(services, request.principal, request.params.keyId, request.ip);
    return reply.status(204).send();
  });
}
