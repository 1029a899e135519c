import type { AdminStats } from '../../contract/admin.js';
import type { Services } from '../services.js';

/** The local disk as the blob store sees it (src/ops/disk.ts); null on S3 or when unreadable. */
export interface DiskFigures {
  readonly freeBytes: number;
  readonly totalBytes: number;
  readonly floorBytes: number;
  readonly usableBytes: number;
}

/** The instance's figures for the console: what is stored, by state, the quotas and the disk. */
export async function adminStats(services: Services, disk: () => Promise<DiskFigures | null>): Promise<AdminStats> {
  const { store, config } = services;
  const [usage, counts, space] = await Promise.all([
    store.byteCounts.usage(),
    store.admin.counts(services.clock()),
    disk(),
  ]);
  return {
    folders: usage.folders,
    files: usage.files,
    bytes: usage.bytes,
    openUploads: usage.incompleteFiles,
    takenDown: counts.takenDown,
    expired: counts.expired,
    emptyOwnerless: counts.emptyOwnerless,
    accounts: counts.accounts,
    quota: { totalBytes: config.quotas.totalBytes, folderBytes: config.quotas.folderBytes },
    store: config.databaseUrl ? 'postgresql' : 'sqlite',
    blobs: config.s3 ? 's3' : 'local',
    disk: space
      ? {
          freeBytes: space.freeBytes,
          totalBytes: space.totalBytes,
          floorBytes: space.floorBytes,
          usableBytes: space.usableBytes,
        }
      : null,
  };
}
