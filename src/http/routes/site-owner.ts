import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../app/services.js';
import { folderActivity } from '../../app/site/activity.js';
import { startDownload } from '../../app/site/downloads.js';
import { createOwnedFolder, deleteFile, deleteFolder, updateFile, updateFolder } from '../../app/site/owner.js';
import { answerSchemas as answers } from '../../contract/answers.js';
import {
  fileParams,
  folderParams,
  siteCreateFolderSchema,
  siteFileUpdateSchema,
  siteFolderUpdateSchema,
} from '../../contract/requests.js';
import { actorOf } from '../callers/actor.js';
import { FOLDER_CALLER, routePolicy } from '../callers/route-policy.js';
import { limitedBy } from '../connections/rate-limits.js';
import { typed } from '../typed.js';
import { callerOf } from './site-caller.js';

/**
 * The owner's controls of a folder (src/app/site/owner.ts, downloads.ts, activity.ts):
 * create and claim, settings, deletions, counted downloads and the activity list. Registered by the
 * site's routes, so the site's CSP, headers and JSON bodies apply. Bodies are checked by the app
 * against src/contract/requests.ts, the one validation layer.
 */
export async function siteOwnerRoutes(
  scope: FastifyInstance,
  { services, api }: { services: Services; api: string },
): Promise<void> {
  const app = typed(scope);
  const site = { ...limitedBy('site'), config: routePolicy('site', FOLDER_CALLER) };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  const folder = `${api}/folders/:folderId`;
  const file = `${folder}/files/:fileId`;

  // Creating a folder is a create, like POST /v2/folders: it spends from the same bucket.
  app.post(
    `${api}/folders`,
    {
      ...limitedBy('create'),
      config: routePolicy('site', ['anonymous', 'session', 'api-key']),
      schema: { body: siteCreateFolderSchema, response: { 201: answers.siteCreateFolder } },
    },
    async (request, reply) => {
      noStore(reply);
      return reply
        .status(201)
        .send(await createOwnedFolder(services, callerOf(request), request.body, actorOf(request)));
    },
  );
  app.patch(
    folder,
    { ...site, schema: { params: folderParams, body: siteFolderUpdateSchema, response: { 200: answers.folderInfo } } },
    async (request, reply) => {
      noStore(reply);
      return updateFolder(services, request.params.folderId, callerOf(request), request.body, actorOf(request));
    },
  );
  app.delete(folder, { ...site, schema: { params: folderParams } }, async (request, reply) => {
    await deleteFolder(services, request.params.folderId, callerOf(request), actorOf(request));
    return noStore(reply).status(204).send();
  });
  app.patch(
    file,
    { ...site, schema: { params: fileParams, body: siteFileUpdateSchema, response: { 200: answers.siteFile } } },
    async (request, reply) => {
      noStore(reply);
      const p = request.params;
      return updateFile(services, p.folderId, p.fileId, callerOf(request), request.body, actorOf(request));
    },
  );
  app.delete(file, { ...site, schema: { params: fileParams } }, async (request, reply) => {
    const p = request.params;
    await deleteFile(services, p.folderId, p.fileId, callerOf(request), request.ip, actorOf(request));
    return noStore(reply).status(204).send();
  });
  app.post(
    `${file}/downloads`,
    { ...site, schema: { params: fileParams, response: { 200: answers.downloadTicket } } },
    async (request, reply) => {
      noStore(reply);
      const p = request.params;
      return startDownload(services, p.folderId, p.fileId, callerOf(request), request.ip);
    },
  );
  app.get(
    `${folder}/activity`,
    { ...site, schema: { params: folderParams, response: { 200: answers.activity } } },
    async (request, reply) => {
      noStore(reply);
      return folderActivity(services, request.params.folderId, callerOf(request));
    },
  );
}
