import type { FastifyInstance } from 'fastify';
import type { Services } from '../../app/services.js';
import { createV1Webfolder, v1UploadCheck } from '../../app/v1.js';
import { v1CheckParams, v1CheckQuery } from '../../contract/requests.js';
import { errorResponseSchema, uploadStatusResponseSchema } from '../../contract/schemas.js';
import { v1CreateRequestSchema, v1CreateResponseSchema } from '../../contract/v1.js';
import { installContractErrorHandling } from '../answers/errors.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { actorOf } from '../callers/actor.js';
import { routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/**
 * The two file.kiwi v1 operations that its official SDK, CLI and MCP server call, and no other v1
 * operation (src/app/v1.ts). They spend from the same rate-limit buckets as their v2 counterparts.
 */
export async function v1Routes(scope: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const app = typed(scope);
  installJsonBodies(app, services.config.maxJsonBodyBytes);
  // The statuses of the operations they translate onto (spec 7), as the v2 scope answers them.
  installContractErrorHandling(app);
  const errors = { '4xx': errorResponseSchema, '5xx': errorResponseSchema };

  app.post(
    '/v1/delivery-webfolder',
    {
      ...limitedBy('create'),
      config: routePolicy('api', ['anonymous', 'api-key'], { operation: 'create' }),
      schema: { body: v1CreateRequestSchema, response: { 200: v1CreateResponseSchema, ...errors } },
    },
    async (request) => createV1Webfolder(services, request.body, actorOf(request)),
  );

  app.get(
    '/v1/upload/check/:fid',
    {
      ...limitedBy('status'),
      config: routePolicy('api', ['anonymous', 'upload-auth'], { operation: 'upload-status' }),
      schema: {
        params: v1CheckParams,
        querystring: v1CheckQuery,
        response: { 200: uploadStatusResponseSchema, ...errors },
      },
    },
    async (request) => v1UploadCheck(services, request.params.fid, request.query),
  );
}
