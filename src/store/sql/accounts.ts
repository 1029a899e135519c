import type { AccountRecord, ApiKeyRecord } from '../account-store.js';

/** The account tables' rows as both SQL stores read them, and the sign-in's upsert. */
type Int = number | string;

export interface AccountRow {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  admin: Int;
  created_at: Int;
  last_seen_at: Int;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  created_at: Int;
  last_used_at: Int | null;
  revoked_at: Int | null;
}

export const toAccount = (r: AccountRow): AccountRecord => ({
  id: r.id,
  issuer: r.issuer,
  subject: r.subject,
  email: r.email,
  name: r.name,
  admin: Number(r.admin) === 1,
  createdAt: Number(r.created_at),
  lastSeenAt: Number(r.last_seen_at),
});

export const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

/** The column list of an account read joined with another table (prefix `a.`). */
export const ACCOUNT_COLUMNS = 'a.id, a.issuer, a.subject, a.email, a.name, a.admin, a.created_at, a.last_seen_at';
export const API_KEY_COLUMNS = 'k.id, k.account_id, k.name, k.created_at, k.last_used_at, k.revoked_at';

/** The upsert of a sign-in in both dialects, given the 8 placeholders (SQLite `?`, PostgreSQL `$n`). */
export function signInSql(p: readonly string[]): string {
  return `INSERT INTO accounts (id, issuer, subject, email, name, admin, created_at, last_seen_at)
     VALUES (${p[0]}, ${p[1]}, ${p[2]}, ${p[3]}, ${p[4]}, ${p[5]}, ${p[6]}, ${p[7]})
     ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, name = excluded.name,
       admin = excluded.admin, last_seen_at = excluded.last_seen_at
     RETURNING id, issuer, subject, email, name, admin, created_at, last_seen_at`;
}
