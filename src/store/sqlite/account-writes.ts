import type Database from 'better-sqlite3';
import type { AccountRecord, NewApiKey, NewSession, SignInRecord } from '../account-store.js';
import { type AccountRow, signInSql, toAccount } from '../sql/accounts.js';

/** The SQLite writes of the account tables (../account-store.ts), run on the writer thread. */
export function prepareAccountWrites(db: Database.Database) {
  const s = {
    signIn: db.prepare<unknown[], AccountRow>(signInSql(Array(8).fill('?'))),
    insertSession: db.prepare<[string, string, number, number]>(
      'INSERT INTO sessions (id_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    ),
    pruneSessions: db.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?'),
    deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE id_hash = ?'),
    // The cap is counted in the insert itself, which the writer runs in its IMMEDIATE transaction:
    // no other write (of this process or another on the same file) comes between count and insert.
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, account_id, name, hash, created_at)
       SELECT @id, @accountId, @name, @hash, @createdAt
       WHERE (SELECT count(*) FROM api_keys WHERE account_id = @accountId AND revoked_at IS NULL) < @maxLive`,
    ),
    revokeKey: db.prepare<[number, string, string]>(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL',
    ),
    touchKey: db.prepare<[number, string, number]>(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    ),
  };
  return {
    signIn(r: SignInRecord): AccountRecord {
      const row = s.signIn.get(r.newId, r.issuer, r.subject, r.email, r.name, r.admin ? 1 : 0, r.now, r.now);
      if (!row) throw new Error('sign-in upsert returned no row');
      return toAccount(row);
    },
    createSession(session: NewSession): void {
      s.pruneSessions.run(session.createdAt);
      s.insertSession.run(session.idHash, session.accountId, session.createdAt, session.expiresAt);
    },
    deleteSession(idHash: string): boolean {
      return s.deleteSession.run(idHash).changes === 1;
    },
    createApiKey(key: NewApiKey, maxLive?: number): boolean {
      return s.insertKey.run({ ...key, maxLive: maxLive ?? Number.MAX_SAFE_INTEGER }).changes === 1;
    },
    revokeApiKey(accountId: string, keyId: string, now: number): boolean {
      return s.revokeKey.run(now, keyId, accountId).changes === 1;
    },
    touchApiKey(keyId: string, now: number, minIntervalMs: number): void {
      s.touchKey.run(now, keyId, now - minIntervalMs);
    },
  };
}
