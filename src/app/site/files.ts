import { pipeline, type Readable, Transform } from 'node:stream';
import type { SiteRegisterBody } from '../../contract/requests.js';
import type {
  SiteFile,
  SiteFileEntry,
  SiteFileList,
  SiteRegisteredFile,
  SiteRegisterRequest,
  SiteRegisterResponse,
  SiteSending,
} from '../../contract/site.js';
import { bulkTurn } from '../../domain/bulk-turns.js';
import { type ByteRange, parseRange } from '../../domain/byte-range.js';
import { encryptedChunkLength } from '../../domain/chunk-plan.js';
import { hashToken } from '../../domain/ids.js';
import { isQuotaRefusal, MAX_LIST_PAGE } from '../../domain/limits.js';
import type { Role } from '../../domain/modes.js';
import { downloadsLeft, effectiveLimit } from '../../domain/owner-settings.js';
import { sendingUntil, uploadStopped } from '../../domain/sending.js';
import type { AddFilesResult, FileRecord, FolderRecord, OwnerClaim } from '../../store/metadata-store.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../errors.js';
import { type AppEvent, emit, fileEvent, withEvents } from '../events.js';
import { type FileProgress, fileProgress } from '../file-progress.js';
import { quotaRefused, storageQuota } from '../quota.js';
import { presignFile, registerFiles } from '../register-files.js';
import type { Services } from '../services.js';
import {
  type Caller,
  isOwned,
  isUploaderOf,
  openFile,
  openFolder,
  requireRight,
  roleOf,
  uploaderTagOf,
} from './access.js';
import { type DownloadCharge, NO_CHARGE, requireTicket, ticketOpens } from './downloads.js';

/** The register body (checked by its route against siteRegisterRequestSchema), its nulls as absent. */
function normalised(body: SiteRegisterBody): SiteRegisterRequest {
  const { files, ske, ownerPublicKey } = body;
  return {
    files: files.map(
      (f): SiteFileEntry => ({
        filename: f.filename,
        filesize: f.filesize,
        mimetype: f.mimetype ?? null,
        sealedKey: f.sealedKey ?? null,
      }),
    ),
    ...(ske ? { ske } : {}),
    ...(ownerPublicKey ? { ownerPublicKey } : {}),
  };
}

/**
 * Registers files a browser is about to upload. The first upload to an ownerless folder claims it,
 * in the same transaction that adds its files (so a registration that fails leaves the folder
 * ownerless), and atomically: of any number of racing browsers exactly one becomes the owner; the
 * others continue as visitors, and may() decides whether they may still upload. Answers with the
 * caller's role and presigned chunk URLs in the same shape as the direct flow.
 */
export async function registerSiteFiles(
  services: Services,
  folderId: string,
  caller: Caller,
  body: SiteRegisterBody,
  /** The client's address: what one client may reserve of the disk is bounded. */
  clientAddress: string | null = null,
): Promise<SiteRegisterResponse> {
  const request = normalised(body);
  let folder = await openFolder(services, folderId);
  const claim = isOwned(folder) ? null : claimFor(folder, caller, request);
  // As the folder will be once the claim is in: the caller is its owner.
  let role: Role = claim ? 'owner' : roleOf(folder, caller);
  checkUpload(claim ? { ...folder, ...claimed(folder, claim) } : folder, role, request);
  const now = services.clock();
  const entries = (tagged: Role) => request.files.map((f) => ({ ...f, uploaderTag: uploaderTagOf(caller, tagged) }));
  const { records, uploadUrls, release } = await registerFiles(services, folder.id, now, entries(role), {
    client: clientAddress,
  });
  const limits = {
    maxFiles: services.config.limits.maxFilesPerFolder,
    maxChunks: services.config.limits.maxChunksPerFolder,
  };
  const quota = storageQuota(services);
  const unpositioned = (tagged: Role) => {
    const tags = entries(tagged);
    return records.map(({ position, ...rest }) => ({ ...rest, uploaderTag: tags[position]!.uploaderTag }));
  };
  // The events commit with the files (and the claim), only when they are added (withEvents).
  const add = (as: Role, claiming: OwnerClaim | null) => {
    const base = { at: now, folderId: folder.id, mode: folder.mode, title: folder.title } as const;
    const events: AppEvent[] = [
      ...(claiming ? [{ ...base, type: 'folder.claimed' as const, by: 'owner' as const }] : []),
      ...records.map((r) => fileEvent('file.registered', now, folder, r, as)),
    ];
    return withEvents(
      services,
      events,
      (outbox) =>
        services.store.addFiles(
          folder.id,
          unpositioned(as),
          claiming ? { limits, quota, claim: claiming, outbox } : { limits, quota, outbox },
        ),
      (r) => r === 'added',
    );
  };
  let claimedNow = claim !== null;
  // Until the files are stored, the disk space reserved for them goes back on any refusal.
  try {
    let result = await add(role, claim);
    if (result === 'claim-lost') {
      claimedNow = false;
      // Another browser claimed it first: go on as whoever this caller now is. The file ids and their
      // signed URLs do not depend on the role; only the uploader tag does.
      folder = await openFolder(services, folder.id);
      role = roleOf(folder, caller);
      checkUpload(folder, role, request);
      result = await add(role, null);
    }
    if (isQuotaRefusal(result)) throw quotaRefused(services, result, records);
    refuseUnless(result, limits);
  } catch (error) {
    release();
    throw error;
  }
  return {
    role,
    claimed: claimedNow,
    files: records.map((r, i) => ({
      fileId: r.id,
      chunkSize: r.chunkSize,
      chunks: r.chunks,
      uploadUrls: uploadUrls[i]!,
    })),
  };
}

/** The claim of the first upload, after checking it carries what a claim needs. */
function claimFor(folder: FolderRecord, caller: Caller, request: SiteRegisterRequest): OwnerClaim {
  if (!caller.ownerToken) throw invalid('X-Owner-Token is required: the first upload makes its sender the owner');
  if (folder.ske === null && !request.ske) throw invalid('ske is required for the first upload');
  if (folder.mode === 'request' && !request.ownerPublicKey)
    throw invalid('ownerPublicKey is required to claim a request folder');
  return {
    ownerTokenHash: hashToken(caller.ownerToken),
    ownerPublicKey: request.ownerPublicKey ?? null,
    ske: request.ske ?? null,
  };
}

/** The owner fields of a folder once `claim` is stored (the store keeps an existing ske). */
function claimed(folder: FolderRecord, claim: OwnerClaim): Partial<FolderRecord> {
  return { ownerTokenHash: claim.ownerTokenHash, ownerPublicKey: claim.ownerPublicKey, ske: folder.ske ?? claim.ske };
}

function checkUpload(folder: FolderRecord, role: Role, request: SiteRegisterRequest): void {
  requireRight(folder, role, 'upload');
  if (folder.mode === 'request' && role === 'visitor') {
    request.files.forEach((f, i) => {
      if (!f.sealedKey)
        throw invalid(`files[${i}].sealedKey is required: visitors of a request folder encrypt to the owner's key`);
    });
  }
}

function refuseUnless(result: AddFilesResult, limits: { maxFiles: number; maxChunks: number }): void {
  switch (result) {
    case 'added':
      return;
    case 'absent':
      throw notFound('folder not found: it may have expired or been deleted');
    case 'too-many-files':
      throw conflict(`this folder is full: it may hold at most ${limits.maxFiles} files`);
    case 'too-many-chunks':
      throw conflict(`this folder is full: its files may have at most ${limits.maxChunks} chunks in all`);
    case 'claim-lost':
      // Only a second claim can lose, and the second attempt claims nothing.
      throw new AppError('conflict', 'the folder changed owner during the upload: try again');
    default:
      // The quota refusals are answered by the caller (quotaRefused).
      throw new AppError('conflict', `the files were not added (${result})`);
  }
}

/** A listing cursor as the route's schema let it through (`p` and a position); null for the first page. */
const cursorPosition = (cursor: string | undefined): number | null => (cursor ? Number(cursor.slice(1)) : null);

/**
 * One page of the folder's live files, for a caller allowed to list them: `limit` files (at most
 * and by default MAX_LIST_PAGE) after `cursor`, in upload order. A folder may hold thousands of
 * files; a page costs the same at any depth (one index range read).
 */
export async function listSiteFiles(
  services: Services,
  folderId: string,
  caller: Caller,
  page: { readonly cursor?: string; readonly limit?: string } = {},
): Promise<SiteFileList> {
  const after = cursorPosition(page.cursor);
  const limit = page.limit ? Number(page.limit) : MAX_LIST_PAGE;
  const folder = await openFolder(services, folderId);
  requireRight(folder, roleOf(folder, caller), 'list');
  const now = services.clock();
  // One more than asked tells whether a next page exists without a second query.
  const records = await readFiles(services, folder.id, after, limit + 1, now);
  const more = records.length > limit;
  const shown = more ? records.slice(0, limit) : records;
  // The files not yet seen complete are looked at in one batched listing (object storage: by the
  // folder's prefix; the local disk: the folder's directory, then only files with chunks) rather
  // than one listing each: a page of files registered and never uploaded costs one look.
  const { folderChunkLister } = services.capabilities;
  const open = shown.filter((f) => f.completedAt === null).map((f) => f.id);
  const listed =
    folderChunkLister && open.length > 1 ? await folderChunkLister.listFolderChunks(folder.id, open) : null;
  const files = await Promise.all(shown.map((f) => siteFileView(services, folder, f, caller, listed?.get(f.id))));
  return { files, nextCursor: more ? `p${shown[shown.length - 1]!.position}` : null };
}

/** Files read from the store per turn of the event loop (bulkTurn): a few ms of row reading. */
const FILES_PER_READ = 250;

/** Up to `limit` live files after position `after`, read FILES_PER_READ at a time. */
async function readFiles(
  services: Services,
  folderId: string,
  after: number | null,
  limit: number,
  now: number,
): Promise<FileRecord[]> {
  const files: FileRecord[] = [];
  let from = after;
  while (files.length < limit) {
    if (files.length > 0) await bulkTurn();
    const want = Math.min(FILES_PER_READ, limit - files.length);
    const read = await services.store.listFiles(folderId, {
      ...(from === null ? {} : { after: from }),
      limit: want,
      liveAt: now,
    });
    files.push(...read);
    if (read.length < want) break;
    from = read[read.length - 1]!.position;
  }
  return files;
}

/**
 * A file as a caller allowed to list sees it. A backend that receives the chunks itself records a
 * file's completion with its last chunk, so its record is the answer. Uploads straight to object
 * storage never call back: there the bytes of a file not yet seen complete are looked at.
 */
export async function siteFileView(
  services: Services,
  folder: FolderRecord,
  f: FileRecord,
  caller: Caller,
  /** The file's chunk listing, when the caller listed it already. */
  stored?: ReadonlyMap<number, number>,
): Promise<SiteFile> {
  // A file not recorded complete is looked at: its stored chunks are its progress (a visitor sees it
  // arriving), and on object storage, which never calls back, they also say whether it is complete.
  const progress = f.completedAt === null ? await fileProgress(services, f, { stored }) : null;
  const complete = progress === null || (!services.capabilities.chunkReceiver && progress.complete);
  const limit = effectiveLimit(f.maxDownloads, folder.settings.maxDownloads);
  return {
    fileId: f.id,
    filename: f.filename,
    mimetype: f.mimetype,
    filesize: f.filesize,
    chunkSize: f.chunkSize,
    chunks: f.chunks,
    complete,
    storedChunks: progress === null ? f.chunks : f.chunks - progress.missing.length,
    stopped: uploadStopped({ complete, sendingUntil: f.sendingUntil }, services.clock()),
    createdAt: f.createdAt,
    expiresAt: f.expiresAt,
    sealedKey: f.sealedKey,
    mine: isUploaderOf(f, caller),
    downloads: f.downloads,
    maxDownloads: f.maxDownloads,
    downloadsLeft: downloadsLeft(f.downloads, limit),
  };
}

async function openOwnUpload(services: Services, folderId: string, fileId: string, caller: Caller) {
  const folder = await openFolder(services, folderId);
  const file = await openFile(services, folder, fileId);
  const role = roleOf(folder, caller);
  if (!mayResume(file, caller, role)) throw forbidden('only the browser that uploaded this file can resume it');
  return { folder, file, role };
}

/** Whether the caller may go on with the upload of `file`: the browser that uploaded it (or the owner, for the API's files). */
function mayResume(file: FileRecord, caller: Caller, role: Role): boolean {
  return isUploaderOf(file, caller) || (role === 'owner' && file.uploaderTag === null);
}

/**
 * The uploading browser's heartbeat (domain/sending.ts): it still sends these files, or stopped
 * them, which every recipient's listing says at once. Only the browser that uploads a file speaks
 * for it; a file gone meanwhile (deleted, expired) is passed over.
 */
export async function setSending(
  services: Services,
  folderId: string,
  caller: Caller,
  body: SiteSending,
): Promise<void> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  const ids = [...new Set(body.fileIds)];
  const files = await Promise.all(ids.map((id) => services.store.getFile(folder.id, id)));
  const present = files.filter((f): f is FileRecord => f !== null);
  if (present.some((f) => !mayResume(f, caller, role)))
    throw forbidden('only the browser that uploads a file can say whether it is still sending it');
  if (present.length === 0) return;
  await services.store.setSendingUntil(
    folder.id,
    present.map((f) => f.id),
    sendingUntil(services.clock(), body.sending),
  );
}

/** Which chunks of a file are missing: for the browser that uploads it, to resume. */
export async function siteUploadStatus(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
): Promise<FileProgress> {
  const { file } = await openOwnUpload(services, folderId, fileId, caller);
  return fileProgress(services, file);
}

/**
 * Fresh chunk URLs for a file the caller is uploading (resume after the page was reloaded, or after
 * its URLs expired). Only the chunks not yet stored are signed; a stored chunk's signature is the
 * empty string, so a resume near the end of a 10,000-chunk file signs a few URLs, not 10,000.
 */
export async function siteUploadUrls(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
): Promise<SiteRegisteredFile> {
  const { folder, file, role } = await openOwnUpload(services, folderId, fileId, caller);
  requireRight(folder, role, 'upload');
  const { missing } = await fileProgress(services, file);
  const wanted = new Set(missing);
  const uploadUrls = await presignFile(services, file, services.clock(), (n) => wanted.has(n));
  return { fileId: file.id, chunkSize: file.chunkSize, chunks: file.chunks, uploadUrls };
}

export type ChunkDownload =
  | {
      readonly kind: 'stream';
      readonly length: number;
      readonly body: Readable;
      /** The part of the chunk asked for with `Range` (answered 206), or null for all of it. */
      readonly range: ByteRange | null;
    }
  | { readonly kind: 'redirect'; readonly url: string };

/**
 * One encrypted chunk for a caller allowed to download: a stream, or a presigned URL when the
 * backend has them (object storage answers `Range` itself). `rangeHeader` asks for part of the
 * chunk: RFC 8188 records decrypt on their own, so a media player's seek fetches only the records
 * it needs (src/transfer/range.ts).
 */
export async function siteChunk(
  services: Services,
  folderId: string,
  fileId: string,
  chunk: string,
  caller: Caller,
  rangeHeader?: string,
  /** The download ticket (app/site/downloads.ts): required for a file with a download limit. */
  ticket?: string,
): Promise<ChunkDownload> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  requireRight(folder, role, 'download');
  const file = await openFile(services, folder, fileId);
  const n = Number(chunk);
  if (n < 1 || n > file.chunks) throw invalid(`chunk number must be between 1 and ${file.chunks}`);
  const ref = { folderId: folder.id, fileId: file.id };
  const { blobs } = services;
  const length = encryptedChunkLength(file, n);
  const range = parseRange(rangeHeader, length);
  if (range === 'unsatisfiable') throw invalid(`Range starts past the end of chunk ${n} (${length} bytes)`);
  const presigner = services.capabilities.downloadPresigner;
  // A file still arriving: with object storage, the 404 of a chunk not yet in the bucket
  // would come from the bucket after the presigned URL was handed out and charged, so a recipient
  // waiting for it would spend its download on each look. Its presence is checked first (one listing
  // of the file's chunks, only while the file is not known complete), and nothing is charged.
  if (presigner && file.completedAt === null) {
    const stored = await blobs.listChunks(ref);
    if (stored.get(n) !== length) throw notFound(`chunk ${n} is not uploaded`);
  }
  // What is asked for is charged to the ticket's download before anything is read (downloads.ts).
  const sending = range === null ? length : range.end - range.start + 1;
  const charge = await requireTicket(services, folder, file, role, ticket, sending);
  // The file.downloaded event (notifications and metrics). With a ticket that opens the file, it
  // was reported with the ticket's count (downloads.ts). Without one, it is sent when the last chunk
  // is handed out: once per download of the whole file, however many chunks it has and in whatever
  // order the others were fetched (a part of the chunk counts when it reaches the chunk's end: a
  // player that played or sought to the end).
  const downloaded = async () => {
    if (n !== file.chunks || (range !== null && range.end !== length - 1)) return;
    if (ticket !== undefined && (await ticketOpens(services, ticket, folder.id, file.id, services.clock()))) return;
    await emit(services, fileEvent('file.downloaded', services.clock(), folder, file, role));
  };
  if (presigner) {
    // No existence check here for a complete file (a LIST per chunk): a missing object answers 404 from the storage,
    // and a chunk of the wrong length fails decryption in the browser, never shown as data.
    const url = await presigner.presignDownload(ref, n, services.clock() + 15 * 60 * 1000);
    await downloaded();
    return { kind: 'redirect', url };
  }
  try {
    const body = await blobs.readChunk(ref, n, range ?? undefined);
    await downloaded();
    // Uncounted, the stored chunk's own stream is handed on as it is (the HTTP layer can then send
    // it without allocating, src/blobs/local/file-range-stream.ts).
    const counted = charge === NO_CHARGE ? body : chargeStream(body, sending, charge);
    return { kind: 'stream', length, body: counted, range };
  } catch (error) {
    await charge.refund(sending);
    throw error;
  }
}

/**
 * `body` as sent, giving back to the ticket's download what a response that broke never sent (a
 * retry fetches it again). Only what passed on counts as sent: bytes lost in buffers beyond it are
 * covered by the retry allowance (domain/limits.ts DOWNLOAD_RETRY_ALLOWANCE).
 */
function chargeStream(body: Readable, charged: number, charge: DownloadCharge): Readable {
  let passed = 0;
  const counted = new Transform({
    transform(piece: Buffer, _encoding, done) {
      passed += piece.length;
      done(null, piece);
    },
  });
  counted.on('close', () => {
    if (passed < charged) void charge.refund(charged - passed).catch(() => {});
  });
  // Either side ending early (a broken response destroys `counted`) closes the other.
  return pipeline(body, counted, () => {});
}
