import type { ActivityRecord } from '../owner-store.js';

/** The activity list's rows as both SQL stores keep and read them. */
type Int = number | string;

export interface ActivityRow {
  at: Int;
  kind: string;
  file_id: string;
  ip: string | null;
  filename: string | null;
  sealed_key: string | null;
}

export const toActivity = (r: ActivityRow): ActivityRecord => ({
  at: Number(r.at),
  kind: r.kind as ActivityRecord['kind'],
  fileId: r.file_id,
  ip: r.ip,
  filename: r.filename,
  sealedKey: r.sealed_key,
});

/** The activity table's columns as both stores write and read them, in ActivityRow's order. */
export const ACTIVITY_COLUMNS = 'at, kind, file_id, ip, filename, sealed_key';
export const activityValues = (a: ActivityRecord) => [a.at, a.kind, a.fileId, a.ip, a.filename, a.sealedKey] as const;
