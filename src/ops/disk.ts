import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.js';

/**
 * The local blob store's disk as the operator sees it: free space (what an unprivileged writer may
 * use, as the store's own floor check reads it) beside the floor (DISK_FREE_MIN_MIB) below which
 * uploads are refused, and what is usable above it. Null on S3 or when the disk cannot be read.
 */
export interface DiskStatus {
  readonly path: string;
  readonly freeBytes: number;
  readonly totalBytes: number;
  readonly floorBytes: number;
  /** Bytes new chunks may still take before the floor refuses them (0 at or below it). */
  readonly usableBytes: number;
}

export async function diskStatus(config: Config): Promise<DiskStatus | null> {
  if (config.s3) return null;
  // The store's root (LocalBlobStore under <dataDir>/blobs); the data directory before it exists.
  const root = join(config.dataDir, 'blobs');
  const s = await statfs(root).catch(() => statfs(config.dataDir).catch(() => null));
  if (!s) return null;
  const freeBytes = s.bavail * s.bsize;
  const floorBytes = config.disk.freeMinBytes;
  return {
    path: config.dataDir,
    freeBytes,
    totalBytes: s.blocks * s.bsize,
    floorBytes,
    usableBytes: Math.max(0, freeBytes - floorBytes),
  };
}
