import type pg from 'pg';
import type { MailAddressStatus, MailAllowance, MailStore } from '../mail-store.js';
import { COUNTER_KEEP_MS, windowStart } from '../sql/mail.js';
import { refuse } from '../sql/refusal.js';
import { inTransaction } from './transaction.js';

/** The mail part of the PostgreSQL store (../mail-store.ts). */
export class PostgresMailStore implements MailStore {
  constructor(private readonly pool: pg.Pool) {}

  async addressStatus(addressKey: string): Promise<MailAddressStatus | null> {
    const { rows } = await this.pool.query<{ status: MailAddressStatus }>(
      'SELECT status FROM mail_addresses WHERE address_key = $1',
      [addressKey],
    );
    return rows[0]?.status ?? null;
  }

  async setAddressStatus(addressKey: string, status: MailAddressStatus, now: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO mail_addresses (address_key, status, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (address_key) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
      [addressKey, status, now],
    );
  }

  /**
   * All or none, across nodes: the rows are made if missing, then locked in key order (so two
   * spends never wait on each other in a cycle), checked and written in one transaction.
   */
  async spend(allowances: readonly MailAllowance[], now: number): Promise<boolean> {
    const sorted = [...allowances].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const keys = sorted.map((a) => a.key);
    return inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO mail_counters (key, window_start, count) SELECT k, 0, 0 FROM unnest($1::text[]) AS k
         ON CONFLICT (key) DO NOTHING`,
        [keys],
      );
      const { rows } = await client.query<{ key: string; window_start: string; count: number }>(
        'SELECT key, window_start, count FROM mail_counters WHERE key = ANY($1) ORDER BY key FOR UPDATE',
        [keys],
      );
      const current = new Map(rows.map((r) => [r.key, r]));
      const next = sorted.map((a) => {
        const start = windowStart(now, a.windowMs);
        const row = current.get(a.key);
        const count = row && Number(row.window_start) === start ? row.count : 0;
        return { key: a.key, start, count: count + 1, limit: a.limit };
      });
      if (next.some((n) => n.count > n.limit)) refuse(false);
      for (const n of next)
        await client.query('UPDATE mail_counters SET window_start = $2, count = $3 WHERE key = $1', [
          n.key,
          n.start,
          n.count,
        ]);
      await client.query('DELETE FROM mail_counters WHERE window_start < $1 AND window_start > 0', [
        now - COUNTER_KEEP_MS,
      ]);
      return true;
    });
  }
}
