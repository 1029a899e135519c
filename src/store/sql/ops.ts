import type { FolderNotifications, FolderSummary, OutboxEntry } from '../ops-store.js';
import { type FolderRow, toFolder } from './rows.js';

/** The ops tables' rows as both SQL stores read them, and their mapping to records. */
type Int = number | string;

export interface OutboxRow {
  id: string;
  event_id: string;
  target: string;
  folder_id: string | null;
  payload: string;
  created_at: Int;
  attempts: Int;
}

export interface NotificationsRow {
  email: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  on_download: Int | boolean;
  on_upload: Int | boolean;
  language: string | null;
  updated_at: Int;
}

export interface FolderSummaryRow extends FolderRow {
  byte_count: Int;
}

export const toOutbox = (r: OutboxRow): OutboxEntry => ({
  id: r.id,
  eventId: r.event_id,
  target: r.target,
  folderId: r.folder_id,
  payload: r.payload,
  createdAt: Number(r.created_at),
  attempts: Number(r.attempts),
});

export const toNotifications = (r: NotificationsRow): FolderNotifications => ({
  email: r.email,
  webhookUrl: r.webhook_url,
  webhookSecret: r.webhook_secret,
  onDownload: Boolean(Number(r.on_download)),
  onUpload: Boolean(Number(r.on_upload)),
  language: r.language,
  updatedAt: Number(r.updated_at),
});

export const toSummary = (r: FolderSummaryRow): FolderSummary => ({
  ...toFolder(r),
  files: Number(r.file_count),
  bytes: Number(r.byte_count),
});

/**
 * The live-folder summary query, the same text on both stores except placeholders; the figures are
 * the folder's own counters (file_count, byte_count).
 */
export function summarySql(placeholder: (n: number) => string, withBefore: boolean): string {
  return `SELECT d.id, d.mode, d.title, d.flow, d.created_at, d.ske, d.upload_auth_hash, d.owner_token_hash,
     d.owner_public_key, d.delete_after, d.expires_at, d.max_downloads, d.note, d.password, d.created_by,
     d.account_id, d.taken_down_at, d.take_down_reason, d.take_down_note, d.file_count, d.byte_count
   FROM folders d WHERE d.deleting_since IS NULL ${withBefore ? `AND d.created_at < ${placeholder(2)}` : ''}
   ORDER BY d.created_at DESC, d.id LIMIT ${placeholder(1)}`;
}
