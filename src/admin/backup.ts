import { chmod, copyFile, cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import { VERSION } from '../ops/version.js';
import { backupDatabase } from '../store/sqlite/connection.js';

/**
 * `webfolder admin backup <dir>`: an online backup of the embedded storage into an empty folder, in
 * DATA_DIR's own layout, so that restoring is copying it back (docs/deployment.md#backup-and-restore):
 *
 * 1. `webfolder.db`, by SQLite's backup API: one consistent point in time, taken while the server runs.
 * 2. `blobs/`, copied after it: every chunk of a file the database copy knows complete was written
 *    before that file was marked complete, so it is in the copy. Uploads under way may be partial
 *    (their clients resume); chunks being received (`.incoming/`) are left out.
 * 3. `signing-secret`: without it the restored upload URLs and download tickets would not verify.
 *
 * What lives elsewhere is named in the report, not copied: PostgreSQL (pg_dump), S3 (the bucket's own
 * replication or versioning), a SIGNING_SECRET given by configuration.
 */
export interface BackupReport {
  readonly dir: string;
  readonly database: 'copied' | 'postgresql: not copied (use pg_dump)';
  readonly blobs: { readonly files: number; readonly bytes: number } | 's3: not copied (the bucket is the copy)';
  readonly signingSecret: 'copied' | 'from configuration (SIGNING_SECRET): not copied' | 'none yet';
}

export class BackupError extends Error {}

async function emptyOrAbsent(dir: string): Promise<void> {
  try {
    if ((await readdir(dir)).length > 0) throw new BackupError(`${dir} is not empty: back up into a new folder`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function count(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

export async function backup(config: Config, dir: string, schemaVersion: number): Promise<BackupReport> {
  await emptyOrAbsent(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let database: BackupReport['database'] = 'postgresql: not copied (use pg_dump)';
  if (!config.databaseUrl) {
    await backupDatabase(join(config.dataDir, 'webfolder.db'), join(dir, 'webfolder.db'));
    database = 'copied';
  }
  let blobs: BackupReport['blobs'] = 's3: not copied (the bucket is the copy)';
  if (!config.s3) {
    const source = join(config.dataDir, 'blobs');
    await cp(source, join(dir, 'blobs'), {
      recursive: true,
      preserveTimestamps: true,
      filter: (path) => !path.slice(source.length).split('/').includes('.incoming'),
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await mkdir(join(dir, 'blobs'), { recursive: true });
    blobs = await count(join(dir, 'blobs'));
  }
  let signingSecret: BackupReport['signingSecret'] = 'from configuration (SIGNING_SECRET): not copied';
  if (!config.signingSecret) {
    try {
      await copyFile(join(config.dataDir, 'signing-secret'), join(dir, 'signing-secret'));
      await chmod(join(dir, 'signing-secret'), 0o600);
      signingSecret = 'copied';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      signingSecret = 'none yet';
    }
  }
  const report: BackupReport = { dir, database, blobs, signingSecret };
  await writeFile(
    join(dir, 'backup.json'),
    `${JSON.stringify({ ...report, webfolder: VERSION, schemaVersion, at: new Date().toISOString() }, null, 2)}\n`,
  );
  return report;
}
