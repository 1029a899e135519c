/**
 * The transfer core: one implementation of every client-side transfer rule, isomorphic (fetch,
 * WebCrypto, streams; no node: and no DOM imports), used unchanged by the page (web/src), its
 * service worker, the client library and the CLI (src/client).
 *
 * - plan.ts: chunk plan and lengths (read from src/domain/chunk-plan.ts, defined there once)
 * - urls.ts: the file.kiwi chunk URL rule and the site's addresses
 * - errors.ts, retry.ts: typed errors, `{error, code}` reading, the one retry policy
 * - v2.ts, site-client.ts: typed clients of the v2 API and the site endpoints
 * - engine.ts: the upload engine (pluggable transport); upload-run.ts: the one upload orchestrator
 *   over it (registration, progress, second round); direct-upload.ts: the v2 flow's registrar
 * - download.ts: `downloadStream(file)`, the one download pipeline; range.ts: byte ranges to chunks
 * - folder.ts, state.ts: opening a share link; resume state and links
 * - names.ts: the one rule for names with folders in them (stored, saved into a directory, single file)
 */

export { chunkName } from '../contract/paths.js';
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
export { ownerLink, redactLink, shareLink } from '../domain/links.js';
export { createApiKey, getAccount, listApiKeys, revokeApiKey, signInUrl, signOut } from './account.js';
export { type AccountFoldersRequest, listAccountFolders } from './account-folders.js';
export type { AdminListQuery } from './admin-client.js';
export { AdminClient } from './admin-client.js';
export type {
  ProgressFile,
  TransferOptions,
  UploadEvent,
  UploadFile,
  UploadOptions,
  UploadResult,
} from './direct-upload.js';
export { blobFile, checkUploadFiles, chunkOrder, resumeUpload, upload } from './direct-upload.js';
export type { DownloadFile, DownloadStreamOptions, ZipEntry } from './download.js';
export {
  chunksAhead,
  contentDisposition,
  DecryptorGoneError,
  downloadStream,
  HAND_ON_PIECE,
  openChunk,
  zipEntries,
} from './download.js';
export type { ChunkSource, EngineEvent, EngineOptions, EngineResult, UploadJob } from './engine.js';
export { blobSource, DEFAULT_CONCURRENCY, sendChunks } from './engine.js';
export type { Failure } from './errors.js';
export {
  AbortedError,
  errorCodeOf,
  InputError,
  LocalFileChangedError,
  NetworkError,
  PasswordRequiredError,
  ProtocolError,
  readFailure,
  WebfolderClientError,
  WebfolderError,
  WrongSecretError,
} from './errors.js';
export type { FolderListing, ListedFile, SiteOptions } from './folder.js';
export { listFolder } from './folder.js';
export type { MediaStreamOptions } from './media-stream.js';
export { MEDIA_RECORDS_PER_PIECE, mediaStream } from './media-stream.js';
export { nameSegments, numbered, saveName, savePath, uniqueNames, uploadName } from './names.js';
export { CREDENTIAL_HEADERS, RedirectRefusedError } from './outbound.js';
export type { ChunkPlan } from './plan.js';
export {
  allChunks,
  chunkOffset,
  encryptedChunkLength,
  encryptedLength,
  filePlan,
  missingChunks,
  plaintextChunkLength,
  registrationBatches,
  storedBytes,
} from './plan.js';
export type { ByteRange, ChunkSlice, RecordPiece, RecordSpan } from './range.js';
export { contentRange, parseRange, rangeChunks, rangePieces, recordSpan } from './range.js';
export type { Fetch, HttpOptions, RetryInfo, RetryOptions, TransportInit } from './retry.js';
export {
  AFTER_PAUSE_RETRY,
  backoffDelay,
  DEFAULT_RETRY,
  DOWNLOAD_RETRY,
  exchange,
  isPassingFailure,
  isRedirect,
  isRetryableStatus,
  linkedController,
  parseRetryAfter,
  sleep,
} from './retry.js';
export type { Credentials, RegisterExtra } from './site-client.js';
export { credentialHeaders, fetchChunkBytes, SiteClient } from './site-client.js';
export type { ParsedLink, UploadState, UploadStateFile } from './state.js';
export { parseShareLink, parseUploadState } from './state.js';
export type {
  EncryptedEntry,
  FileState,
  FileUpload,
  NewFile,
  RegisteredPlan,
  Registrar,
  RunEvent,
  RunFile,
  RunOptions,
  RunOutcome,
  UploadProgress,
} from './upload-run.js';
export {
  checkedPlan,
  encryptEntries,
  registerFiles,
  resumeFile,
  speedometer,
  UploadRun,
} from './upload-run.js';
export { apiUrl, chunkUrl, folderApiUrl, siteApiFor, siteChunkUrl } from './urls.js';
export type {
  CreateDirectFolderOptions,
  CreateEmptyFolderOptions,
  Mode,
  ServerOptions,
  UploadStatusOptions,
} from './v2.js';
export { createFolder, getUploadStatus, MODES, putChunk } from './v2.js';
