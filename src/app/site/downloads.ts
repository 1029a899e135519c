import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DownloadTicket } from '../../contract/site.js';
import { encryptedChunkLength } from '../../domain/chunk-plan.js';
import { DOWNLOAD_RETRY_ALLOWANCE, DOWNLOAD_TICKET_HOURS, HOUR_MS } from '../../domain/limits.js';
import type { Role } from '../../domain/modes.js';
import { effectiveLimit } from '../../domain/owner-settings.js';
import type { FileRecord, FolderRecord } from '../../store/metadata-store.js';
import { limitReached, notFound, ticketRequired } from '../errors.js';
import { fileEvent, withEvents } from '../events.js';
import type { Services } from '../services.js';
import { type Caller, openFile, openFolder, requireRight, roleOf } from './access.js';
import { activityLine } from './activity.js';

/**
 * Counted downloads and the tickets that enforce a download limit.
 *
 * A download starts with `POST …/files/<id>/downloads`: it is counted there (unless the caller is
 * the owner) and answered with a ticket, an HMAC over folder, file, expiry and the id of that
 * download. Chunks of a file with a limit are served only with a valid ticket, so a limit cannot be
 * bypassed by fetching the chunks directly; files without a limit serve their chunks without one
 * (older pages and clients).
 *
 * One ticket is one download: the download is recorded with the count, with
 * the bytes it may be sent (downloadBudget: the file once, plus a retry allowance), and every chunk
 * fetched with its ticket is charged to it, atomically (MetadataStore.spendDownload). A resumed,
 * retried or seeking download within DOWNLOAD_TICKET_HOURS goes on with the same ticket; once the file
 * went out in full, the ticket opens nothing more, whoever holds it. What a broken response did not
 * send is given back (chargeStream), so a recipient whose connection broke can fetch it again.
 */
const TICKET = /^(\d{1,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

function mac(key: Buffer, folderId: string, fileId: string, expiresAt: number, downloadId: string): Buffer {
  return createHmac('sha256', key).update(`${folderId}\n${fileId}\n${expiresAt}\n${downloadId}`).digest();
}

export async function makeTicket(
  services: Services,
  folderId: string,
  fileId: string,
  expiresAt: number,
  downloadId: string,
): Promise<string> {
  const tag = mac(services.keys.of('downloadTickets'), folderId, fileId, expiresAt, downloadId).toString('base64url');
  return `${expiresAt}.${downloadId}.${tag}`;
}

/**
 * The download `ticket` is bound to if it opens this file at `now` (its MAC compared in constant
 * time, its expiry checked), else null.
 */
export async function ticketDownload(
  services: Services,
  ticket: string,
  folderId: string,
  fileId: string,
  now: number,
): Promise<string | null> {
  const parts = TICKET.exec(ticket);
  if (!parts) return null;
  const expiresAt = Number(parts[1]);
  const downloadId = parts[2]!;
  const expected = mac(services.keys.of('downloadTickets'), folderId, fileId, expiresAt, downloadId);
  const given = Buffer.from(parts[3]!, 'base64url');
  const valid = given.length === expected.length && timingSafeEqual(given, expected) && expiresAt > now;
  return valid ? downloadId : null;
}

/** Whether `ticket` opens this file at `now` (nothing is charged). */
export async function ticketOpens(
  services: Services,
  ticket: string,
  folderId: string,
  fileId: string,
  now: number,
): Promise<boolean> {
  return (await ticketDownload(services, ticket, folderId, fileId, now)) !== null;
}

/** `POST …/files/<fileId>/downloads`: counts one download (not the owner's) and answers its ticket. */
export async function startDownload(
  services: Services,
  folderId: string,
  fileId: string,
  caller: Caller,
  ip: string | null,
): Promise<DownloadTicket> {
  const folder = await openFolder(services, folderId);
  const role = roleOf(folder, caller);
  requireRight(folder, role, 'download');
  const file = await openFile(services, folder, fileId);
  const limit = effectiveLimit(file.maxDownloads, folder.settings.maxDownloads);
  const owner = role === 'owner';
  // The owner's own downloads are neither counted nor listed in the activity (they are not news to the owner).
  // Its event (the owner's too, for the operator) commits with the count, unless the ticket is refused;
  // the chunks fetched with the ticket report nothing more (files.ts siteChunk).
  const now = services.clock();
  const event = fileEvent('file.downloaded', now, folder, file, role);
  const expiresAt = now + DOWNLOAD_TICKET_HOURS * HOUR_MS;
  const downloadId = randomBytes(16).toString('base64url');
  // Only a limited file's chunks ask for the ticket, so only its downloads are recorded.
  const download = limit === null ? null : { id: downloadId, budget: downloadBudget(file), expiresAt, now };
  const result = await withEvents(
    services,
    [event],
    (outbox) =>
      services.store.countDownload(folder.id, file.id, {
        limit,
        count: !owner,
        activity: owner ? null : activityLine(services, 'download', file.id, ip),
        outbox,
        ...(download ? { download } : {}),
      }),
    (r) => typeof r === 'object',
  );
  if (result === 'absent') throw notFound('file not found');
  if (result === 'limit-reached')
    throw limitReached(
      `this file has reached its download limit (${limit} download${limit === 1 ? '' : 's'}): ask its owner to raise it`,
    );
  return {
    ticket: await makeTicket(services, folder.id, file.id, expiresAt, downloadId),
    expiresAt,
    downloads: result.downloads,
    maxDownloads: limit,
  };
}

/** What a chunk fetch took from its download, and the way to give back what was not sent. */
export interface DownloadCharge {
  /** Gives back `bytes` (of what was charged) that never left the server. */
  refund(bytes: number): Promise<void>;
}

/** What a download that is not counted (no limit, or the owner's) is charged: nothing to refund. */
export const NO_CHARGE: DownloadCharge = { refund: async () => {} };

/**
 * Refuses a chunk of a file with a download limit unless the request carries a valid ticket for it
 * whose download may still be sent `bytes` (the part of the chunk asked for), and charges them to it.
 * The owner needs no ticket; files without a limit need none either.
 */
export async function requireTicket(
  services: Services,
  folder: FolderRecord,
  file: FileRecord,
  role: Role,
  ticket: string | undefined,
  bytes: number,
): Promise<DownloadCharge> {
  if (role === 'owner' || effectiveLimit(file.maxDownloads, folder.settings.maxDownloads) === null) return NO_CHARGE;
  if (!ticket)
    throw ticketRequired(
      'this file has a download limit: start the download first (POST …/downloads) and send its ticket',
    );
  const now = services.clock();
  const downloadId = await ticketDownload(services, ticket, folder.id, file.id, now);
  if (downloadId === null) throw ticketRequired('the download ticket is wrong or expired: start the download again');
  if (!(await services.store.spendDownload(file.id, downloadId, bytes, now)))
    throw ticketRequired(
      'this download has received the whole file already (or its ticket is not known here): one ticket is one download; start the download again',
    );
  return {
    refund: async (unsent) => {
      if (unsent > 0)
        await services.store.spendDownload(file.id, downloadId, -Math.min(unsent, bytes), services.clock());
    },
  };
}

/**
 * The bytes one download of `file` may be sent: the whole file once, plus an allowance for what a
 * broken connection had taken from the server but not delivered (chargeStream gives back only what
 * was never sent; bytes lost in socket buffers on the way are not seen).
 */
export function downloadBudget(file: FileRecord): number {
  const whole = (file.chunks - 1) * encryptedChunkLength(file, 1) + encryptedChunkLength(file, file.chunks);
  return whole + Math.min(whole, DOWNLOAD_RETRY_ALLOWANCE);
}
