import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
