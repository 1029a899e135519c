import type { UploadStatusResponse } from '../contract/types.js';
import type { V1CreateRequest, V1CreateResponse } from '../contract/v1.js';
import { type Actor, NO_ACTOR } from './audit.js';
import { createFolder } from './create-folder.js';
import { invalid } from './errors.js';
import type { Services } from './services.js';
import { uploadStatus } from './upload-status.js';

/**
 * file.kiwi's v1 create and check calls, as made by its official Node SDK, CLI and MCP server, as
 * thin translations onto the v2 use cases: the same create (a `send` folder of the direct-upload
 * flow), the same chunk URLs and the same upload status. Only names differ, and errors name the
 * v1 fields. Nothing else of v1 exists (docs/direct-upload.md). The request was checked against
 * v1CreateRequestSchema by its route.
 */
export async function createV1Webfolder(
  services: Services,
  request: V1CreateRequest,
  actor: Actor = NO_ACTOR,
): Promise<V1CreateResponse> {
  const { title, ske, files } = request;
  // v1 has no empty-folder flow: a delivery webfolder is created with its files.
  if (files.length === 0) throw invalid('files must have at least 1 item');
  const created = await createFolder(services, { title, mode: 'send', encryption: { ske }, files }, actor);
  // A create with files always answers the direct variant; the check narrows the type.
  if (!('uploadAuth' in created)) throw new Error('create with files answered without uploadAuth');
  return {
    webfolderId: created.folderId,
    // Without a fragment, as in v2's direct flow: the SDK appends "#" + its secret itself.
    webfolderUrl: created.folderUrl,
    apiAuth: created.uploadAuth,
    // How long files stay: each is deleted this long after its upload completed (docs/decisions.md).
    retentionHours: services.config.freeDownloadHours,
    files: created.files.map((f) => ({
      filename: f.filename,
      fid: f.fileId,
      chunkSize: f.chunkSize,
      chunks: f.chunks,
      freeDownloadHours: f.freeDownloadHours,
      uploadUrls: f.uploadUrls,
    })),
  };
}

/**
 * `GET /v1/upload/check/{fid}?webfolderId=&apiAuth=`: v2's upload status under v1 names, with its
 * rules: `apiAuth` is optional (the SDK leaves it out when resuming) and a wrong one answers 404
 * exactly like an unknown file.
 */
export async function v1UploadCheck(
  services: Services,
  fid: string,
  query: { readonly webfolderId: string; readonly apiAuth?: string | undefined },
): Promise<UploadStatusResponse> {
  // The shapes are checked at the edge (src/contract/requests.ts); the ids again by upload-status.
  return uploadStatus(services, query.webfolderId, fid, query.apiAuth);
}
