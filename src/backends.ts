import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { SigningKeys } from './app/signing-keys.js';
import type { BlobStore } from './blobs/blob-store.js';
import { LocalBlobStore } from './blobs/local/local-blob-store.js';
import { ChunkUrlSigner } from './blobs/local/url-signer.js';
import type { Config } from './config/config.js';
import { UPLOAD_PATH } from './contract/paths.js';
import type { MetadataStore } from './store/metadata-store.js';
import { SqliteMetadataStore } from './store/sqlite/sqlite-store.js';

/**
 * Picks the storage implementations from configuration: the embedded ones (SQLite file, local
 * directory) unless a scale-out backend is configured: PostgreSQL when DATABASE_URL is set, S3-compatible
 * object storage when S3_BUCKET is set (each independently; see docs/scale-out.md). The scale-out
 * clients (pg, the AWS SDK) are imported only when configured: an embedded node does not pay their
 * start-up time and memory.
 */
export async function openMetadataStore(config: Config): Promise<MetadataStore> {
  if (config.databaseUrl) {
    const { PostgresMetadataStore } = await import('./store/postgres/postgres-store.js');
    return PostgresMetadataStore.open(config.databaseUrl);
  }
  return new SqliteMetadataStore(join(config.dataDir, 'webfolder.db'));
}

/**
 * The server's signing secret: SIGNING_SECRET, else the one kept in DATA_DIR (made on first start).
 * Resolved once at start-up by whatever composes the services, which hand it on.
 */
export async function resolveSigningSecret(config: Config): Promise<string> {
  return config.signingSecret ?? (await loadOrCreateSecret(config.dataDir));
}

export async function openBlobStore(config: Config, clock: () => number, secret: string): Promise<BlobStore> {
  if (config.s3) {
    const { S3BlobStore } = await import('./blobs/s3/s3-blob-store.js');
    return S3BlobStore.open(config.s3, clock);
  }
  return LocalBlobStore.open(
    join(config.dataDir, 'blobs'),
    new ChunkUrlSigner(secret, `${config.baseUrl}${UPLOAD_PATH}`),
    clock,
    {
      diskFreeMinBytes: config.disk.freeMinBytes,
      reservations: {
        idleMs: config.disk.reservationIdleMs,
        share: config.disk.reservationSharePercent / 100,
      },
    },
  );
}

/** Everything the server keeps outside its process, opened together and closed together. */
export interface Backends {
  readonly store: MetadataStore;
  readonly blobs: BlobStore;
  /** The shared rate-limit counters (REDIS_URL), or null: limits are the node's own. */
  readonly redis: Redis | null;
  /** The keys everything the server signs is signed with (URLs, tickets, links). */
  readonly keys: SigningKeys;
  /** Closes the store, the blob store and Redis; a failure of one does not keep the others open. */
  close(): Promise<void>;
}

/** Opens the configured backends (see above) with the signing secret, and Redis when REDIS_URL is set. */
export async function openBackends(config: Config, clock: () => number): Promise<Backends> {
  const store = await openMetadataStore(config);
  const secret = await resolveSigningSecret(config);
  const blobs = await openBlobStore(config, clock, secret);
  // Imported only when configured, like the other scale-out clients.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        lazyConnect: false,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      })
    : null;
  return {
    store,
    blobs,
    redis,
    keys: new SigningKeys(secret),
    close: async () => {
      await Promise.allSettled([store.close(), blobs.close(), redis?.quit()]);
    },
  };
}

/** The signing secret kept in DATA_DIR, generated once (mode 0600) so that URLs and tickets survive restarts. */
async function loadOrCreateSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, 'signing-secret');
  await mkdir(dataDir, { recursive: true });
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    await writeFile(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(path, 'utf8')).trim();
    throw error;
  }
}
