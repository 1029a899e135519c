import type Database from 'better-sqlite3';
import type { MailAddressStatus, MailAllowance, MailStore } from '../mail-store.js';
import type { SqliteWriter } from './writer.js';

/** The mail part of the SQLite store: reads on the calling thread, writes through the writer thread. */
export class SqliteMailStore implements MailStore {
  private readonly status;

  constructor(
    db: Database.Database,
    private readonly writer: SqliteWriter,
  ) {
    this.status = db.prepare<[string], { status: MailAddressStatus }>(
      'SELECT status FROM mail_addresses WHERE address_key = ?',
    );
  }

  async addressStatus(addressKey: string): Promise<MailAddressStatus | null> {
    return this.status.get(addressKey)?.status ?? null;
  }

  setAddressStatus(addressKey: string, status: MailAddressStatus, now: number): Promise<void> {
    return this.writer.write('setMailAddressStatus', addressKey, status, now);
  }

  spend(allowances: readonly MailAllowance[], now: number): Promise<boolean> {
    return this.writer.write('spendMail', allowances, now);
  }
}
