/**
 * Where the local storage backend's presigned chunk URLs point (src/blobs/local): the path of the
 * chunk upload route (src/http/routes/chunks.ts). Shared by both as data, so that neither imports
 * the other.
 */
export const UPLOAD_PATH = '/v2/uploads';
