import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../../app/account.js';
import type { Services } from '../../app/services.js';
import {
  ACCOUNT_KEYS_PATH,
  apiKeyCreatedSchema,
  apiKeyCreateRequest,
  apiKeyListSchema,
  apiKeyParams,
} from '../../contract/account.js';
import { errorResponseSchema } from '../../contract/schemas.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { routePolicy } from '../callers/route-policy.js';
import { typed } from '../typed.js';

/**
 * A signed-in person's API keys: list, create (the key is answered once) and revoke, from a sign-in
 * session only (src/app/account.ts): a key presented here is not read, so a key cannot make or
 * revoke keys. A change carried by the session cookie comes from the site's own origin only (the
 * route guard, src/http/callers/route-guard.ts). `base` is the site's path, which every route adds itself.
 */
export async function accountKeyRoutes(
  scope: FastifyInstance,
  { services, base }: { services: Services; base: string },
): Promise<void> {
  const app = typed(scope);
  installJsonBodies(app, services.config.maxJsonBodyBytes);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const errors = { '4xx': errorResponseSchema, '5xx': errorResponseSchema };
  const path = `${base}${ACCOUNT_KEYS_PATH}`;
  const config = routePolicy('account', ['session']);

  app.get(path, { config, schema: { response: { 200: apiKeyListSchema, ...errors } } }, async (request) => ({
    keys: await listApiKeys(services, request.principal),
  }));

  app.post(
    path,
    { config, schema: { body: apiKeyCreateRequest, response: { 201: apiKeyCreatedSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createApiKey(services, request.principal, request.body.name, request.ip)),
  );

  app.delete(`${path}/:keyId`, { config, schema: { params: apiKeyParams } }, async (request, reply) => {
    await revokeApiKey(services, request.principal, request.params.keyId, request.ip);
    return reply.status(204).send();
  });
}
