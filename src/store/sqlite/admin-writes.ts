import type Database from 'better-sqlite3';
import type { TakeDown } from '../folder-record.js';
import { takeDownSql } from '../sql/admin.js';

const named = (n: number) => `@p${n}`;

/** The admin console's one write (the take-down), run on the writer thread like every write. */
export function prepareAdminWrites(db: Database.Database) {
  const takeDown = db.prepare(takeDownSql(named));
  return {
    takeDown(folderId: string, t: TakeDown): boolean {
      return takeDown.run({ p1: t.at, p2: t.reason, p3: t.note, p4: folderId }).changes === 1;
    },
  };
}
