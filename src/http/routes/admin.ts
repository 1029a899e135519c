import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminDeleteFolder } from '../../app/admin/delete.js';
import { adminFolderDetail, listAdminFolders } from '../../app/admin/folders.js';
import { adminStats, type DiskFigures } from '../../app/admin/stats.js';
import { type AdminAct, takeDownFolder } from '../../app/admin/take-down.js';
import type { Services } from '../../app/services.js';
import type { Config } from '../../config/config.js';
import {
  ADMIN_API_PATH,
  adminAnswerSchemas,
  adminFolderListQuery,
  takeDownRequestSchema,
} from '../../contract/admin.js';
import { folderParams } from '../../contract/requests.js';
import { ANONYMOUS } from '../../domain/principal.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { actorOf } from '../callers/actor.js';
import { adminGuard, adminOf } from '../callers/admin-guard.js';
import { ADMIN_POLICY } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';
import { sitePath } from './site.js';

/**
 * The admin API (docs/organisations.md#admin-console): the folder list and detail, the take-down, the
 * delete and the instance's figures. Every route is behind the one admin check (../callers/admin-guard.ts),
 * which runs after the contract's validation: a malformed request is a 400 for anyone, and nothing
 * is read or changed for a caller who is not an admin.
 */
export interface AdminRouteOptions {
  readonly services: Services;
  /** The local disk's figures (src/ops/disk.ts, given by the composition root); null on S3. */
  readonly disk: () => Promise<DiskFigures | null>;
  /** The path the routes sit under: '' or the site's path (adminApiBases). */
  readonly base: string;
}

/**
 * Where the admin API is served: at the root (`/api/admin`, BASE_URL's, for ADMIN_TOKEN and
 * scripts) and, on a site under a path, under that path too (`/wf/api/admin`), where the console
 * calls it and the browser sends the session cookie (scoped to the site's path). The same routes,
 * declarations and guard at both.
 */
export function adminApiBases(config: Config): readonly string[] {
  return [...new Set(['', sitePath(config)])];
}

export async function adminRoutes(scope: FastifyInstance, { services, disk, base }: AdminRouteOptions): Promise<void> {
  const app = typed(scope);
  installJsonBodies(scope, services.config.maxJsonBodyBytes);
  scope.addHook('preHandler', adminGuard(services.config));
  // What an admin reads is about every folder: never kept by a cache.
  scope.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  });
  const limited = { ...limitedBy('site'), config: ADMIN_POLICY };
  const api = `${base}${ADMIN_API_PATH}`;
  const folder = `${api}/folders/:folderId`;

  app.get(
    `${api}/folders`,
    {
      ...limited,
      schema: { querystring: adminFolderListQuery, response: { 200: adminAnswerSchemas.adminFolderList } },
    },
    async (request) => listAdminFolders(services, request.query),
  );
  app.get(
    folder,
    { ...limited, schema: { params: folderParams, response: { 200: adminAnswerSchemas.adminFolder } } },
    async (request) => adminFolderDetail(services, request.params.folderId),
  );
  app.post(
    `${folder}/take-down`,
    {
      ...limited,
      schema: { params: folderParams, body: takeDownRequestSchema, response: { 200: adminAnswerSchemas.takeDown } },
    },
    async (request) => takeDownFolder(services, request.params.folderId, request.body, adminAct(request)),
  );
  app.delete(folder, { ...limited, schema: { params: folderParams } }, async (request, reply) => {
    await adminDeleteFolder(services, request.params.folderId, adminAct(request));
    return reply.status(204).send();
  });
  app.get(`${api}/stats`, { ...limited, schema: { response: { 200: adminAnswerSchemas.adminStats } } }, async () =>
    adminStats(services, disk),
  );
}

/** The admin of this request for a use case: the account's principal, or anonymous with the token. */
function adminAct(request: FastifyRequest): AdminAct {
  const actor = actorOf(request);
  return adminOf(request).via === 'account'
    ? { actor, via: 'account' }
    : { actor: { ...actor, principal: ANONYMOUS }, via: 'admin-token' };
}
