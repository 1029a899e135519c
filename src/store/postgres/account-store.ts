import type pg from 'pg';
import type {
  AccountRecord,
  AccountStore,
  ApiKeyRecord,
  NewApiKey,
  NewSession,
  SignInRecord,
} from '../account-store.js';
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  API_KEY_COLUMNS,
  type ApiKeyRow,
  signInSql,
  toAccount,
  toApiKey,
} from '../sql/accounts.js';
import { inTransaction } from './transaction.js';

/** The account part of the PostgreSQL store (../account-store.ts): every statement is a single one. */
export class PostgresAccountStore implements AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async signIn(r: SignInRecord): Promise<AccountRecord> {
    const { rows } = await this.pool.query<AccountRow>(signInSql(['$1', '$2', '$3', '$4', '$5', '$6', '$7', '$7']), [
      r.newId,
      r.issuer,
      r.subject,
      r.email,
      r.name,
      r.admin ? 1 : 0,
      r.now,
    ]);
    const row = rows[0];
    if (!row) throw new Error('sign-in upsert returned no row');
    return toAccount(row);
  }

  async getAccount(accountId: string): Promise<AccountRecord | null> {
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1`, [
      accountId,
    ]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async createSession(session: NewSession): Promise<void> {
    // Two statements, no transaction: the prune is housekeeping and may run alone.
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1', [session.createdAt]);
    await this.pool.query(
      'INSERT INTO sessions (id_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [session.idHash, session.accountId, session.createdAt, session.expiresAt],
    );
  }

  async sessionAccount(idHash: string, now: number): Promise<AccountRecord | null> {
    const { rows } = await this.pool.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id
       WHERE s.id_hash = $1 AND s.expires_at > $2`,
      [idHash, now],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async deleteSession(idHash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    return rowCount === 1;
  }

  /**
   * With a cap, one transaction: the account's row is locked first, so that racing creates of one
   * account (on any node) queue there, and each counts, under READ COMMITTED, what those before it
   * committed.
   */
  async createApiKey(key: NewApiKey, maxLive?: number): Promise<boolean> {
    const insert = `INSERT INTO api_keys (id, account_id, name, hash, created_at) SELECT $1, $2, $3, $4, $5
       WHERE (SELECT count(*) FROM api_keys WHERE account_id = $2 AND revoked_at IS NULL) < $6`;
    const params = [key.id, key.accountId, key.name, key.hash, key.createdAt, maxLive ?? Number.MAX_SAFE_INTEGER];
    if (maxLive === undefined) return (await this.pool.query(insert, params)).rowCount === 1;
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [key.accountId]);
      const { rowCount } = await client.query(insert, params);
      return rowCount === 1;
    });
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.pool.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 AND k.revoked_at IS NULL
       ORDER BY k.created_at DESC, k.id`,
      [accountId],
    );
    return rows.map(toApiKey);
  }

  async revokeApiKey(accountId: string, keyId: string, now: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL',
      [now, keyId, accountId],
    );
    return rowCount === 1;
  }

  async apiKeyAccount(hash: string): Promise<{ key: ApiKeyRecord; account: AccountRecord } | null> {
    const { rows } = await this.pool.query<ApiKeyRow & AccountRow & { key_id: string; key_created_at: string }>(
      `SELECT ${ACCOUNT_COLUMNS}, k.id AS key_id, k.account_id, k.name AS key_name, k.created_at AS key_created_at,
         k.last_used_at, k.revoked_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0] as
      | (AccountRow & { key_id: string; key_name: string; key_created_at: string } & ApiKeyRow)
      | undefined;
    if (!row) return null;
    return {
      account: toAccount(row),
      key: toApiKey({
        id: row.key_id,
        account_id: row.account_id,
        name: row.key_name,
        created_at: row.key_created_at,
        last_used_at: row.last_used_at,
        revoked_at: row.revoked_at,
      }),
    };
  }

  async touchApiKey(keyId: string, now: number, minIntervalMs: number): Promise<void> {
    await this.pool.query(
      'UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)',
      [now, keyId, now - minIntervalMs],
    );
  }
}
