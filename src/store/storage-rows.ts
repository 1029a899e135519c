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

/**
 * The per-account counters: the registered bytes of every folder an account made
 * (`folders.account_id`), and the account's own quota (null: QUOTA_ACCOUNT_MIB applies). Kept by the
 * same writes as the folder and instance counters, in their transactions; a row is made on the
 * account's first registration. Starts from the folders already stored.
 */
export function accountStorageMigration(bigint: 'INTEGER' | 'BIGINT'): string {
  return `CREATE TABLE account_storage (
     account_id TEXT PRIMARY KEY,
     bytes ${bigint} NOT NULL DEFAULT 0,
     quota_bytes ${bigint}
   );
   INSERT INTO account_storage (account_id, bytes)
     SELECT account_id, SUM(byte_count) FROM folders WHERE account_id IS NOT NULL GROUP BY account_id;`;
}
