import type { FastifyInstance } from 'fastify';
import { listAccounts, setAccountQuota } from '../../app/account-quotas.js';
import type { Services } from '../../app/services.js';
import {
  accountAnswer,
  accountParams,
  accountsListAnswer,
  accountsListQuery,
  quotaBodySchema,
} from '../../contract/admin-audit.js';
import { ACCOUNTS_API_PATH } from '../../contract/paths.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { actorOf } from '../callers/actor.js';
import { adminGuard, adminOf } from '../callers/admin-guard.js';
import { ADMIN_POLICY } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/**
 * Accounts with their usage, and per-account quotas (docs/organisations.md#per-account-quotas).
 * Every route runs the one admin guard first. `base` is '' or the site's path (./admin.ts adminApiBases).
 */
export async function adminAccountRoutes(
  scope: FastifyInstance,
  { services, base }: { services: Services; base: string },
): Promise<void> {
  const app = typed(scope);
  installJsonBodies(app, services.config.maxJsonBodyBytes);
  app.addHook('onRequest', adminGuard(services.config));
  const site = { ...limitedBy('site'), config: ADMIN_POLICY };

  app.get(
    `${base}${ACCOUNTS_API_PATH}`,
    { ...site, schema: { querystring: accountsListQuery, response: { 200: accountsListAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listAccounts(services, request.query);
    },
  );

  app.put(
    `${base}${ACCOUNTS_API_PATH}/:accountId/quota`,
    { ...site, schema: { params: accountParams, body: quotaBodySchema, response: { 200: accountAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const by = adminOf(request).via === 'token' ? 'admin-token' : 'account';
      return setAccountQuota(services, request.params.accountId, request.body, actorOf(request), by);
    },
  );
}
