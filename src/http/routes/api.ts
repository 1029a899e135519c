import type { FastifyInstance } from 'fastify';
import { createFolder } from '../../app/create-folder.js';
import type { Services } from '../../app/services.js';
import { uploadStatus } from '../../app/upload-status.js';
import { V2_OPERATION_ROUTES } from '../../contract/paths.js';
import { fileParams, uploadStatusQuery } from '../../contract/requests.js';
import {
  createRequestSchema,
  createResponseSchema,
  errorResponseSchema,
  uploadStatusResponseSchema,
} from '../../contract/schemas.js';
import { installContractErrorHandling } from '../answers/errors.js';
import { installJsonBodies } from '../bodies/json-body.js';
import { absentBodyIsEmpty } from '../bodies/validation.js';
import { actorOf } from '../callers/actor.js';
import { routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';

/** The two operations of the v2 contract (spec 4.1, 4.2). Responses are serialised by their schemas. */
export async function apiRoutes(scope: FastifyInstance, { services }: { services: Services }): Promise<void> {
  const app = typed(scope);
  const { config } = services;
  installJsonBodies(app, config.maxJsonBodyBytes);
  installContractErrorHandling(app);

  const [create, status] = V2_OPERATION_ROUTES;
  app.post(
    create.path,
    {
      ...limitedBy('create'),
      config: routePolicy('api', ['anonymous', 'api-key'], { operation: 'create' }),
      preValidation: absentBodyIsEmpty,
      schema: {
        body: createRequestSchema,
        response: { 200: createResponseSchema, '4xx': errorResponseSchema, '5xx': errorResponseSchema },
      },
    },
    async (request) => createFolder(services, request.body, actorOf(request)),
  );

  app.get(
    status.path,
    {
      ...limitedBy('status'),
      config: routePolicy('api', ['anonymous', 'upload-auth'], { operation: 'upload-status' }),
      schema: {
        params: fileParams,
        querystring: uploadStatusQuery,
        response: { 200: uploadStatusResponseSchema, '4xx': errorResponseSchema, '5xx': errorResponseSchema },
      },
    },
    async (request) => uploadStatus(services, request.params.folderId, request.params.fileId, request.query.uploadAuth),
  );
}
