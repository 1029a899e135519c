import type Database from 'better-sqlite3';
import type { MailAddressStatus, MailAllowance } from '../mail-store.js';
import { COUNTER_KEEP_MS, windowStart } from '../sql/mail.js';
import { refuse } from '../sql/refusal.js';

/**
 * The SQLite writes of the mail tables (../mail-store.ts), on the writer thread: each runs in its
 * own transaction there, and SQLite's write lock makes `spend` atomic across processes too.
 */
export function prepareMailWrites(db: Database.Database) {
  const s = {
    setStatus: db.prepare<[string, string, number]>(
      `INSERT INTO mail_addresses (address_key, status, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (address_key) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
    ),
    counter: db.prepare<[string], { window_start: number; count: number }>(
      'SELECT window_start, count FROM mail_counters WHERE key = ?',
    ),
    put: db.prepare<[string, number, number]>(
      `INSERT INTO mail_counters (key, window_start, count) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, count = excluded.count`,
    ),
    prune: db.prepare<[number]>('DELETE FROM mail_counters WHERE window_start < ?'),
  };
  return {
    setMailAddressStatus(addressKey: string, status: MailAddressStatus, now: number): void {
      s.setStatus.run(addressKey, status, now);
    },
    spendMail(allowances: readonly MailAllowance[], now: number): boolean {
      const next = allowances.map((a) => {
        const start = windowStart(now, a.windowMs);
        const row = s.counter.get(a.key);
        const count = row && row.window_start === start ? row.count : 0;
        return { key: a.key, start, count: count + 1, limit: a.limit };
      });
      if (next.some((n) => n.count > n.limit)) refuse(false);
      for (const n of next) s.put.run(n.key, n.start, n.count);
      s.prune.run(now - COUNTER_KEEP_MS);
      return true;
    },
  };
}
