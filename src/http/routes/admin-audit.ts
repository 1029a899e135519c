import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { exportAudit, listAudit } from '../../app/audit-query.js';
import type { Services } from '../../app/services.js';
import { auditExportQuery, auditListAnswer, auditListQuery } from '../../contract/admin-audit.js';
import { AUDIT_API_PATH } from '../../contract/paths.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { adminGuard } from '../callers/admin-guard.js';
import { ADMIN_POLICY } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/**
 * The audit log's admin routes (docs/organisations.md#audit-log): the filtered, paged
 * listing the console shows and the JSON-lines export. Every route runs the one admin guard first.
 */
export async function adminAuditRoutes(
  scope: FastifyInstance,
  { services, base }: { services: Services; base: string },
): Promise<void> {
  const app = typed(scope);
  installJsonBodies(app, services.config.maxJsonBodyBytes);
  app.addHook('onRequest', adminGuard(services.config));
  const site = { ...limitedBy('site'), config: ADMIN_POLICY };

  app.get(
    `${base}${AUDIT_API_PATH}`,
    { ...site, schema: { querystring: auditListQuery, response: { 200: auditListAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listAudit(services, request.query);
    },
  );

  // Streamed a page of entries at a time (bounded memory); no Content-Length, as its size is unknown.
  app.get(
    `${base}${AUDIT_API_PATH}.jsonl`,
    { ...site, schema: { querystring: auditExportQuery } },
    async (request, reply) => {
      const lines = exportAudit(services, request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.jsonl"')
        .send(Readable.from(lines));
    },
  );
}
