/**
 * webfolder client library, isomorphic core (Node 20+ and browser bundles): no node: imports here.
 * Node programs import `src/client/node/index.ts`, which adds disk files, state files and downloads.
 */

export type {
  CreateRequest,
  CreateResponse,
  CreateResponseDirect,
  CreateResponseEmpty,
  FileEntry,
  RegisteredFile,
  UploadStatusResponse,
  UploadUrls,
} from '../contract/types.js';
export type {
  CreateDirectFolderOptions,
  CreateEmptyFolderOptions,
  Mode,
  ServerOptions,
  UploadStatusOptions,
} from './api.js';
export { apiUrl, chunkUrl, createFolder, getUploadStatus, MODES, putChunk } from './api.js';
export {
  AbortedError,
  InputError,
  LocalFileChangedError,
  NetworkError,
  ProtocolError,
  WebfolderClientError,
  WebfolderError,
  WrongSecretError,
} from './errors.js';
export type { HttpOptions, RetryInfo, RetryOptions } from './http.js';
export { backoffDelay, DEFAULT_RETRY, exchange, isRetryableStatus, parseRetryAfter } from './http.js';
export type { FolderListing, ListedFile, SiteOptions } from './site.js';
export { fetchChunk, listFolder, siteApiFor } from './site.js';
export type { ParsedLink, UploadState, UploadStateFile } from './state.js';
export { parseShareLink, parseUploadState, redactLink, shareLink } from './state.js';
export type { ProgressFile, TransferOptions, UploadEvent, UploadFile, UploadOptions, UploadResult } from './upload.js';
export { blobFile, checkUploadFiles, chunkOrder, DEFAULT_CONCURRENCY, resumeUpload, upload } from './upload.js';
