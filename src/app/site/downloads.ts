import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DownloadTicket } from '../../contract/site.js';
import { DOWNLOAD_TICKET_HOURS, HOUR_MS } from '../../domain/limits.js';
import type { Role } from '../../domain/modes.js';
import { effectiveLimit } from '../../domain/owner-settings.js';
import type { FileRecord, FolderRecord } from '../../store/metadata-store.js';
import { limitReached, notFound, ticketRequired } from '../errors.js';
import { fileEvent, withEvents } from '../events.js';
import type { Services } from '../services.js';
import { type Caller, openFile, openFolder, requireRight, roleOf } from './access.js';
import { activityLine } from './activity.js';

/**
 * Counted downloads and the tickets that enforce a download limit (issue 12).
 *
 * A download starts with `POST …/files/<id>/downloads`: it is counted there (unless the caller is
 * the owner) and answered with a ticket, an HMAC over folder, file and expiry. Chunks of a file
 * with a limit are served only with a valid ticket, so a limit cannot be bypassed by fetching the
 * chunks directly; files without a limit serve their chunks without one (older pages and clients).
 * One ticket is one download: a resumed or seeking download within DOWNLOAD_TICKET_HOURS reuses it.
 */
const TICKET = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

const keys = new WeakMap<Services, Promise<Buffer>>();

/**
 * The tickets' HMAC key: derived from the server's signing secret (SIGNING_SECRET, or the one kept
 * in DATA_DIR) so that every node sharing that secret accepts every node's tickets; the derivation
 * keeps it apart from the chunk URL signatures made with the same secret.
 */
function ticketKey(services: Services): Promise<Buffer> {
  let key = keys.get(services);
  if (!key) {
    const secret = services.signingSecret
      ? services.signingSecret()
      : // Set-ups without one (unit tests) get a key of their own, for this process only.
        Promise.resolve(randomBytes(32).toString('base64url'));
    key = secret.then((s) => createHmac('sha256', s).update('webfolder download tickets v1').digest());
    keys.set(services, key);
  }
  return key;
}

function mac(key: Buffer, folderId: string, fileId: string, expiresAt: number): Buffer {
  return createHmac('sha256', key).update(`${folderId}\n${fileId}\n${expiresAt}`).digest();
}

export async function makeTicket(
  services: Services,
  folderId: string,
  fileId: string,
  expiresAt: number,
): Promise<string> {
  return `${expiresAt}.${mac(await ticketKey(services), folderId, fileId, expiresAt).toString('base64url')}`;
}

/** Whether `ticket` opens this file at `now`: its MAC compared in constant time, its expiry checked. */
export async function ticketOpens(
  services: Services,
  ticket: string,
  folderId: string,
  fileId: string,
  now: number,
): Promise<boolean> {
  const parts = TICKET.exec(ticket);
  if (!parts) return false;
  const expiresAt = Number(parts[1]);
  const expected = mac(await ticketKey(services), folderId, fileId, expiresAt);
  const given = Buffer.from(parts[2]!, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) && expiresAt > now;
}

/** `POST …/files/<fileId>/downloads`: counts one download (not the owner's) and answers its ticket. */
export async function startDownload(
  services: Services,
  folderId: unknown,
  fileId: unknown,
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
  const event = fileEvent('file.downloaded', services.clock(), folder, file, role);
  const result = await withEvents(
    services,
    [event],
    (outbox) =>
      services.store.countDownload(folder.id, file.id, {
        limit,
        count: !owner,
        activity: owner ? null : activityLine(services, 'download', file.id, ip),
        outbox,
      }),
    (r) => typeof r === 'object',
  );
  if (result === 'absent') throw notFound('file not found');
  if (result === 'limit-reached')
    throw limitReached(
      `this file has reached its download limit (${limit} download${limit === 1 ? '' : 's'}): ask its owner to raise it`,
    );
  const expiresAt = services.clock() + DOWNLOAD_TICKET_HOURS * HOUR_MS;
  return {
    ticket: await makeTicket(services, folder.id, file.id, expiresAt),
    expiresAt,
    downloads: result.downloads,
    maxDownloads: limit,
  };
}

/**
 * Refuses a chunk of a file with a download limit unless the request carries a valid ticket for it
 * (the owner needs none). Files without a limit need none either.
 */
export async function requireTicket(
  services: Services,
  folder: FolderRecord,
  file: FileRecord,
  role: Role,
  ticket: string | undefined,
): Promise<void> {
  if (role === 'owner' || effectiveLimit(file.maxDownloads, folder.settings.maxDownloads) === null) return;
  if (!ticket)
    throw ticketRequired(
      'this file has a download limit: start the download first (POST …/downloads) and send its ticket',
    );
  if (!(await ticketOpens(services, ticket, folder.id, file.id, services.clock())))
    throw ticketRequired('the download ticket is wrong or expired: start the download again');
}
