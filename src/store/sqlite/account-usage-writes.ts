import type Database from 'better-sqlite3';

/** The quota's write, on the writer thread. */
export function prepareAccountUsageWrites(db: Database.Database) {
  const s = {
    exists: db.prepare<[string], { id: string }>('SELECT id FROM accounts WHERE id = ?'),
    set: db.prepare<[string, number | null]>(
      `INSERT INTO account_storage (account_id, bytes, quota_bytes) VALUES (?, 0, ?)
       ON CONFLICT (account_id) DO UPDATE SET quota_bytes = excluded.quota_bytes`,
    ),
  };
  return {
    setAccountQuota(accountId: string, bytes: number | null): boolean {
      if (!s.exists.get(accountId)) return false;
      s.set.run(accountId, bytes);
      return true;
    },
  };
}
