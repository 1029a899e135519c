/**
 * The downloads a ticket is bound to (src/app/site/downloads.ts): one row per
 * ticket of a file with a download limit, written with the count, holding how many bytes the
 * download may still be sent. Gone with its file; rows past their ticket's life are removed when a
 * download of the same file starts.
 */
export function downloadsMigration(bigint: 'INTEGER' | 'BIGINT'): string {
  return `CREATE TABLE downloads (
     id TEXT PRIMARY KEY,
     file_id TEXT NOT NULL REFERENCES files (id) ON DELETE CASCADE,
     budget ${bigint} NOT NULL,
     served ${bigint} NOT NULL DEFAULT 0,
     expires_at ${bigint} NOT NULL
   );
   CREATE INDEX downloads_file ON downloads (file_id, expires_at);`;
}
