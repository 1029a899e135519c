/**
 * The registered-bytes counters behind the storage quotas (src/domain/limits.ts StorageQuota), the
 * same in both SQL dialects but for the integer type: `folders.byte_count` (a folder's files) and
 * the one row of `storage_totals` (every file of the instance, folders being deleted included until
 * their record goes). Both start from the files already stored.
 */
export function storageCountsMigration(bigint: 'INTEGER' | 'BIGINT'): string {
  return `ALTER TABLE folders ADD COLUMN byte_count ${bigint} NOT NULL DEFAULT 0;
   UPDATE folders SET byte_count = (SELECT COALESCE(SUM(filesize), 0) FROM files WHERE files.folder_id = folders.id);
   CREATE TABLE storage_totals (id INTEGER PRIMARY KEY CHECK (id = 1), bytes ${bigint} NOT NULL);
   INSERT INTO storage_totals (id, bytes) SELECT 1, COALESCE(SUM(filesize), 0) FROM files;`;
}
