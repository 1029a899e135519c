/**
 * The schema of both SQL stores: every table and index, as the ordered migrations that make it
 * (version = index + 1). Each engine's runner applies the pending ones at open: sqlite/connection.ts
 * each in its own transaction, postgres/migrate.ts all in one under an advisory lock, so any number
 * of nodes may start at once. Append a migration for a change; never edit one that has shipped.
 *
 * The two engines' schemas differ only by the words of DIALECTS, side by side below; every other
 * word is the same SQL on both.
 */
interface Dialect {
  /** Times (epoch ms) and sizes (bytes; a file may be 1023 GiB): read back as numbers, all below 2^53. */
  readonly int64: string;
  /** A key that numbers the rows in insertion order. */
  readonly serialKey: string;
  /** A yes or no (SQLite: 0 or 1). */
  readonly flag: string;
}

const DIALECTS = {
  sqlite: { int64: 'INTEGER', serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT', flag: 'INTEGER' },
  postgresql: { int64: 'BIGINT', serialKey: 'BIGSERIAL PRIMARY KEY', flag: 'BOOLEAN' },
} as const satisfies Record<string, Dialect>;

const MIGRATIONS: readonly ((d: Dialect) => string)[] = [
  // 1: folders and their files. Times are epoch milliseconds, sizes bytes.
  (d) => `
    CREATE TABLE folders (
      id TEXT PRIMARY KEY,
      mode TEXT NOT NULL CHECK (mode IN ('send', 'share', 'request')),
      title TEXT NOT NULL,
      flow TEXT NOT NULL CHECK (flow IN ('empty', 'direct')),
      created_at ${d.int64} NOT NULL,
      ske TEXT,
      upload_auth_hash TEXT,
      owner_token_hash TEXT,
      owner_public_key TEXT,
      delete_after ${d.int64} NOT NULL,
      deleting_since ${d.int64}
    );
    CREATE INDEX folders_delete_after ON folders (delete_after);
    CREATE TABLE files (
      id TEXT PRIMARY KEY,
      folder_id TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      filename TEXT NOT NULL,
      mimetype TEXT,
      filesize ${d.int64} NOT NULL,
      chunk_size ${d.int64} NOT NULL,
      chunks INTEGER NOT NULL,
      created_at ${d.int64} NOT NULL,
      completed_at ${d.int64},
      expires_at ${d.int64} NOT NULL,
      uploader_tag TEXT,
      sealed_key TEXT,
      UNIQUE (folder_id, position)
    );
    CREATE INDEX files_expires_at ON files (expires_at);
  `,
  // 2: the folder's file and chunk counts, kept by every write that adds or removes files, so that
  // the folder limits and deleteAfter are O(1) (MetadataStore.addFiles).
  (d) => `
    ALTER TABLE folders ADD COLUMN file_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE folders ADD COLUMN chunk_count ${d.int64} NOT NULL DEFAULT 0;
    UPDATE folders SET
      file_count = (SELECT COUNT(*) FROM files WHERE files.folder_id = folders.id),
      chunk_count = (SELECT COALESCE(SUM(chunks), 0) FROM files WHERE files.folder_id = folders.id);
  `,
  // 3: the notification outbox and the owners' notification settings (../ops-store.ts).
  (d) => `
    CREATE TABLE outbox (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL,
      target TEXT NOT NULL,
      folder_id TEXT,
      payload TEXT NOT NULL,
      created_at ${d.int64} NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at ${d.int64},
      lease_until ${d.int64} NOT NULL DEFAULT 0,
      last_error TEXT
    );
    CREATE INDEX outbox_next_attempt ON outbox (next_attempt_at);
    CREATE TABLE folder_notifications (
      folder_id TEXT PRIMARY KEY REFERENCES folders (id) ON DELETE CASCADE,
      email TEXT,
      webhook_url TEXT,
      webhook_secret TEXT,
      on_download ${d.flag} NOT NULL,
      on_upload ${d.flag} NOT NULL,
      updated_at ${d.int64} NOT NULL
    );
    CREATE INDEX files_completed_at ON files (completed_at);
  `,
  // 4: the owner's settings, download counts and the activity list.
  (d) => `
    ALTER TABLE folders ADD COLUMN expires_at ${d.int64};
    ALTER TABLE folders ADD COLUMN max_downloads INTEGER;
    ALTER TABLE folders ADD COLUMN note TEXT;
    ALTER TABLE folders ADD COLUMN password TEXT;
    ALTER TABLE folders ADD COLUMN created_by TEXT NOT NULL DEFAULT 'api' CHECK (created_by IN ('site', 'api'));
    ALTER TABLE files ADD COLUMN max_downloads INTEGER;
    ALTER TABLE files ADD COLUMN downloads INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE activity (
      id ${d.serialKey},
      folder_id TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
      at ${d.int64} NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('upload', 'download', 'delete')),
      file_id TEXT NOT NULL,
      ip TEXT
    );
    CREATE INDEX activity_folder ON activity (folder_id, id);
  `,
  // 5: the registered-bytes counters behind the storage quotas (src/domain/limits.ts StorageQuota):
  // `folders.byte_count` (a folder's files) and the one row of `storage_totals` (every file of the
  // instance, folders being deleted included until their record goes).
  (d) => `
    ALTER TABLE folders ADD COLUMN byte_count ${d.int64} NOT NULL DEFAULT 0;
    UPDATE folders SET byte_count = (SELECT COALESCE(SUM(filesize), 0) FROM files WHERE files.folder_id = folders.id);
    CREATE TABLE storage_totals (id INTEGER PRIMARY KEY CHECK (id = 1), bytes ${d.int64} NOT NULL);
    INSERT INTO storage_totals (id, bytes) SELECT 1, COALESCE(SUM(filesize), 0) FROM files;
  `,
  // 6: the download a ticket is bound to (src/app/site/downloads.ts), and the bytes it may still be
  // sent; rows past their ticket's life go when a download of the same file starts.
  (d) => `
    CREATE TABLE downloads (
      id TEXT PRIMARY KEY,
      file_id TEXT NOT NULL REFERENCES files (id) ON DELETE CASCADE,
      budget ${d.int64} NOT NULL,
      served ${d.int64} NOT NULL DEFAULT 0,
      expires_at ${d.int64} NOT NULL
    );
    CREATE INDEX downloads_file ON downloads (file_id, expires_at);
  `,
  // 7: the mail suppression list (keyed by a hash of the address) and the mail limits' fixed-window
  // counters (../mail-store.ts).
  (d) => `
    CREATE TABLE mail_addresses (
      address_key TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('confirmed', 'refused')),
      updated_at ${d.int64} NOT NULL
    );
    CREATE TABLE mail_counters (
      key TEXT PRIMARY KEY,
      window_start ${d.int64} NOT NULL,
      count INTEGER NOT NULL
    );
    CREATE INDEX mail_counters_window ON mail_counters (window_start);
  `,
  // 8: the audit log (../audit-store.ts).
  (d) => `
    CREATE TABLE audit_log (
      id ${d.serialKey},
      at ${d.int64} NOT NULL,
      action TEXT NOT NULL,
      account_id TEXT,
      actor TEXT NOT NULL,
      folder_id TEXT,
      client_hash TEXT,
      detail TEXT NOT NULL
    );
    CREATE INDEX audit_log_at ON audit_log (at);
    CREATE INDEX audit_log_action ON audit_log (action, id);
    CREATE INDEX audit_log_account ON audit_log (account_id, id);
    CREATE INDEX audit_log_folder ON audit_log (folder_id, id);
  `,
  // 9: a deletion's encrypted file name and sealed key on its activity line, so the owner's page names
  // a deleted file after a reload or in another browser.
  () => `
    ALTER TABLE activity ADD COLUMN filename TEXT;
    ALTER TABLE activity ADD COLUMN sealed_key TEXT;
  `,
  // 10: the operator's take-down of a folder: when, why (a domain/take-down.ts reason) and the
  // operator's note; null while the folder is not taken down.
  (d) => `
    ALTER TABLE folders ADD COLUMN taken_down_at ${d.int64};
    ALTER TABLE folders ADD COLUMN take_down_reason TEXT;
    ALTER TABLE folders ADD COLUMN take_down_note TEXT;
  `,
  // 11: accounts, their sessions and API keys (../account-store.ts), and the account that made a
  // folder (`folders.account_id`, null: anonymous). No foreign key on it: accounts are never
  // deleted, and an account's folders must not go with it if they ever are.
  (d) => `
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      issuer TEXT NOT NULL,
      subject TEXT NOT NULL,
      email TEXT,
      name TEXT,
      admin INTEGER NOT NULL DEFAULT 0,
      created_at ${d.int64} NOT NULL,
      last_seen_at ${d.int64} NOT NULL,
      UNIQUE (issuer, subject)
    );
    CREATE TABLE sessions (
      id_hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      created_at ${d.int64} NOT NULL,
      expires_at ${d.int64} NOT NULL
    );
    CREATE INDEX sessions_expires_at ON sessions (expires_at);
    CREATE INDEX sessions_account ON sessions (account_id);
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      created_at ${d.int64} NOT NULL,
      last_used_at ${d.int64},
      revoked_at ${d.int64}
    );
    CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
    ALTER TABLE folders ADD COLUMN account_id TEXT;
    CREATE INDEX folders_account ON folders (account_id, created_at);
  `,
  // 12: each account's registered bytes and own quota (null: QUOTA_ACCOUNT_MIB applies), kept by the
  // same writes as the folder and instance counters; a row is made on the account's first registration.
  (d) => `
    CREATE TABLE account_storage (
      account_id TEXT PRIMARY KEY,
      bytes ${d.int64} NOT NULL DEFAULT 0,
      quota_bytes ${d.int64}
    );
    INSERT INTO account_storage (account_id, bytes)
      SELECT account_id, SUM(byte_count) FROM folders WHERE account_id IS NOT NULL GROUP BY account_id;
  `,
  // 13: until when the uploading browser says it sends each file (its heartbeat, src/domain/sending.ts);
  // null when no browser ever said (API and CLI uploads). Written by the heartbeat only.
  (d) => `
    ALTER TABLE files ADD COLUMN sending_until ${d.int64};
  `,
  // 14: the language the owner's notification mails are written in (a site language tag such as `de`
  // or `pt-BR`, src/notify/mail-language.ts); null: English. Settings stored before it stay English.
  () => `
    ALTER TABLE folder_notifications ADD COLUMN language TEXT;
  `,
];

export const SQLITE_MIGRATIONS: readonly string[] = MIGRATIONS.map((m) => m(DIALECTS.sqlite));
export const POSTGRES_MIGRATIONS: readonly string[] = MIGRATIONS.map((m) => m(DIALECTS.postgresql));
