import type Database from 'better-sqlite3';
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
  toAccount,
  toApiKey,
} from '../sql/accounts.js';
import type { SqliteWriter } from './writer.js';

/** The account part of the SQLite store: reads on the calling thread, writes through the writer thread. */
export class SqliteAccountStore implements AccountStore {
  private readonly reads;

  constructor(
    db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {
    this.reads = {
      account: db.prepare<[string], AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?`),
      session: db.prepare<[string, number], AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id
         WHERE s.id_hash = ? AND s.expires_at > ?`,
      ),
      keys: db.prepare<[string], ApiKeyRow>(
        `SELECT ${API_KEY_COLUMNS} FROM api_keys k WHERE k.account_id = ? AND k.revoked_at IS NULL
         ORDER BY k.created_at DESC, k.id`,
      ),
      key: db.prepare<[string], ApiKeyRow & { a_id: string }>(
        `SELECT ${API_KEY_COLUMNS}, a.id AS a_id FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.hash = ? AND k.revoked_at IS NULL`,
      ),
    };
  }

  signIn(record: SignInRecord): Promise<AccountRecord> {
    return this.writer.write('signIn', record);
  }

  async getAccount(accountId: string): Promise<AccountRecord | null> {
    const row = this.reads.account.get(accountId);
    return row ? toAccount(row) : null;
  }

  createSession(session: NewSession): Promise<void> {
    return this.writer.write('createSession', session);
  }

  async sessionAccount(idHash: string, now: number): Promise<AccountRecord | null> {
    const row = this.reads.session.get(idHash, now);
    return row ? toAccount(row) : null;
  }

  deleteSession(idHash: string): Promise<boolean> {
    return this.writer.write('deleteSession', idHash);
  }

  createApiKey(key: NewApiKey, maxLive?: number): Promise<boolean> {
    return this.writer.write('createApiKey', key, maxLive);
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
    return this.reads.keys.all(accountId).map(toApiKey);
  }

  revokeApiKey(accountId: string, keyId: string, now: number): Promise<boolean> {
    return this.writer.write('revokeApiKey', accountId, keyId, now);
  }

  async apiKeyAccount(hash: string): Promise<{ key: ApiKeyRecord; account: AccountRecord } | null> {
    const row = this.reads.key.get(hash);
    if (!row) return null;
    const account = await this.getAccount(row.a_id);
    return account ? { key: toApiKey(row), account } : null;
  }

  touchApiKey(keyId: string, now: number, minIntervalMs: number): Promise<void> {
    return this.writer.write('touchApiKey', keyId, now, minIntervalMs);
  }
}
