import type { UploadUrls } from '../contract/types.js';
import { bulkSteps } from '../domain/bulk-turns.js';
import { encryptedChunkLength, planChunks } from '../domain/chunk-plan.js';
import { clientKey } from '../domain/client-key.js';
import { newId } from '../domain/ids.js';
import { fileExpiresAt } from '../domain/lifecycle.js';
import { MAX_CHUNKS_PER_REQUEST } from '../domain/limits.js';
import type { FileRecord } from '../store/metadata-store.js';
import { tooLarge } from './errors.js';
import { checkFolderQuota, checkInstanceQuota } from './quota.js';
import type { Services } from './services.js';

/** One file to register: what the create request's file entry carries, plus the browser's extras. */
export interface FileToRegister {
  readonly filename: string;
  readonly filesize: number;
  readonly mimetype?: string | null | undefined;
  /** Tag of the uploading browser (hash of its visitor credential), if known. */
  readonly uploaderTag?: string | null | undefined;
  /** Request mode: the file's own secret sealed to the owner's public key. */
  readonly sealedKey?: string | null | undefined;
}

export interface RegisteredFiles {
  /** The records to persist, positions 0.. in the given order (the store renumbers appended files). */
  readonly records: FileRecord[];
  /** Presigned upload URLs of each record, same order. */
  readonly uploadUrls: UploadUrls[];
  /** Hands back the disk space reserved for the files: the caller calls it when it does not store them. */
  readonly release: () => void;
}

/**
 * File registration shared by the direct-upload create (POST /v2/folders) and the browser site's
 * uploads: plans the chunks of each file, builds its record and presigns its chunk URLs. Nothing is
 * persisted here: the caller stores the records (createFolder or addFiles) once presigning succeeded,
 * so a failing blob backend leaves nothing behind.
 *
 * The refusals come first, before any signing, in this order (docs/configuration.md, "Quotas and
 * the disk floor"): a request may sign at most MAX_CHUNKS_PER_REQUEST chunk URLs (what the largest
 * v2 create needs); the folder quota (413); a local disk below its free-space floor takes no new
 * files (507), rather than failing their chunks half-way: the files' encrypted bytes are reserved
 * against its free space until written or until the folder stalls, one folder or client holding at
 * most a share of it (SpaceGuard.reserveUploads); the instance quota (507). Refusals of the
 * request itself come before the server's state. The quotas are checked here from the store's
 * counters so that a refused registration signs nothing; what binds is the store's check when the
 * caller inserts the records (src/app/quota.ts).
 */
export async function registerFiles(
  services: Services,
  folderId: string,
  now: number,
  entries: readonly FileToRegister[],
  options: {
    /** False for a folder being created (nothing to count in it yet). */
    readonly existing?: boolean;
    /** The registering client's address, if known: what one client may reserve of the disk is bounded. */
    readonly client?: string | null | undefined;
  } = {},
): Promise<RegisteredFiles> {
  const { existing = true } = options;
  // Counted like a connection: IPv6 per /64.
  const client = options.client ? clientKey(options.client) : null;
  const { config } = services;
  const expiresAt = fileExpiresAt(now, null, config.freeDownloadHours);
  const plans = entries.map((entry) => planChunks(entry.filesize, config.chunkSizeMiB));
  const chunks = plans.reduce((sum, plan) => sum + plan.chunks, 0);
  if (chunks > MAX_CHUNKS_PER_REQUEST)
    throw tooLarge(
      `these files need ${chunks} chunk upload URLs; one request may have at most ${MAX_CHUNKS_PER_REQUEST}: register fewer files at a time`,
    );
  await checkFolderQuota(services, existing ? folderId : null, entries);
  const records: FileRecord[] = entries.map((entry, position) => {
    const plan = plans[position]!;
    return {
      id: newId(),
      folderId,
      position,
      filename: entry.filename,
      mimetype: entry.mimetype ?? null,
      filesize: entry.filesize,
      chunkSize: plan.chunkSize,
      chunks: plan.chunks,
      createdAt: now,
      completedAt: null,
      expiresAt,
      uploaderTag: entry.uploaderTag ?? null,
      sealedKey: entry.sealedKey ?? null,
      maxDownloads: null,
      downloads: 0,
      sendingUntil: null,
    };
  });
  const guard = services.capabilities.spaceGuard;
  const refs = records.map((r) => ({ folderId: r.folderId, fileId: r.id }));
  // The files' encrypted bytes are reserved against the disk's free space until they are written,
  // or until their folder makes no progress for DISK_RESERVATION_IDLE_SECONDS.
  await guard?.reserveUploads(
    records.map((r, i) => ({ ref: refs[i]!, bytes: encryptedFileLength(r), until: r.expiresAt })),
    client,
  );
  const release = () => guard?.releaseUploads(refs);
  try {
    await checkInstanceQuota(services, entries);
    const uploadUrls = await presignAll(services, records, now);
    return { records, uploadUrls, release };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * The URLs of each file, signed one file after the other in bulk-work steps (domain/bulk-turns.ts):
 * a registration of 100 files of 1,000 chunks is a few dozen short steps with other requests served
 * in between, not one task of 100,000 signatures.
 */
async function presignAll(services: Services, records: readonly FileRecord[], now: number): Promise<UploadUrls[]> {
  const urls: UploadUrls[] = [];
  const steps = bulkSteps();
  for (const record of records) {
    await steps.next();
    urls.push(await presignFile(services, record, now));
  }
  return urls;
}

/** The bytes a file's chunks take on the disk. */
const encryptedFileLength = (file: FileRecord) =>
  (file.chunks - 1) * encryptedChunkLength(file, 1) + encryptedChunkLength(file, file.chunks);

/**
 * Fresh presigned URLs for the chunks of a registered file (also used to resume an upload): every
 * chunk, or those `include` accepts (the others get an empty signature).
 */
export function presignFile(
  services: Services,
  file: FileRecord,
  now: number,
  include?: (n: number) => boolean,
): Promise<UploadUrls> {
  return services.blobs.presignUploads({
    folderId: file.folderId,
    fileId: file.id,
    chunks: file.chunks,
    chunkLength: (n) => encryptedChunkLength(file, n),
    expiresAt: now + services.config.uploadUrlTtlSeconds * 1000,
    ...(include ? { include } : {}),
  });
}
