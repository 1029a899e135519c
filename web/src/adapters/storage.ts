import { base64UrlEncode } from '../core.js';
import type { PendingUpload, Receipt, SiteStore, StoredTicket } from '../state/index.js';
import { ticketInUse } from '../workers/ticket-locks.js';

/**
 * What the site keeps in the browser (localStorage, this origin only):
 * - the owner secret of each folder this browser owns (the owner link restores it elsewhere);
 * - a random visitor token, so that this browser can resume its own uploads;
 * - unfinished uploads (ids, sizes, and for request-mode visitors the file's own secret), removed
 *   once complete;
 * - in request folders, the receipt of what this browser sent (names and sizes);
 * - the tickets of downloads not yet delivered, until they expire (at most 24 h).
 */
const PREFIX = 'webfolder:';

function get(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}
function set(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    /* storage full or disabled: the owner link still restores ownership */
  }
}

export function ownerSecretOf(folderId: string): string | null {
  return get(`owner:${folderId}`);
}
export function saveOwnerSecret(folderId: string, secret: string | null): void {
  set(`owner:${folderId}`, secret);
}

export function visitorToken(): string {
  let token = get('visitor');
  if (!token) {
    token = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
    set('visitor', token);
  }
  return token;
}

export function pendingUploads(folderId: string): PendingUpload[] {
  try {
    return JSON.parse(get(`uploads:${folderId}`) ?? '[]') as PendingUpload[];
  } catch {
    return [];
  }
}
export function savePendingUploads(folderId: string, uploads: PendingUpload[]): void {
  set(`uploads:${folderId}`, uploads.length ? JSON.stringify(uploads) : null);
}
export function addPending(folderId: string, upload: PendingUpload): void {
  savePendingUploads(folderId, [...pendingUploads(folderId).filter((u) => u.fileId !== upload.fileId), upload]);
}
export function removePending(folderId: string, fileId: string): void {
  savePendingUploads(
    folderId,
    pendingUploads(folderId).filter((u) => u.fileId !== fileId),
  );
}

/** Request mode: the receipt of what this browser sent to a folder (the server lets visitors list nothing). */
export function receipts(folderId: string): Receipt[] {
  try {
    return JSON.parse(get(`receipts:${folderId}`) ?? '[]') as Receipt[];
  } catch {
    return [];
  }
}
export function addReceipt(folderId: string, receipt: Receipt): void {
  const kept = receipts(folderId).filter((r) => r.fileId !== receipt.fileId);
  set(`receipts:${folderId}`, JSON.stringify([...kept, receipt]));
}

/**
 * Kept download tickets, by folder: each file's ticket of a download not yet
 * delivered, so that a reload, or the link opened again after the tab was closed, goes on with it
 * and counts nothing more. localStorage rather than sessionStorage: a closed tab or a crashed browser
 * is exactly when a person needs it, and a kept ticket used by a running download (of another tab,
 * or of the service worker after a reload) is told by its Web Lock (web/src/workers/ticket-locks.ts).
 * A ticket is a server credential for one copy of one file: it stays in this origin's storage, is
 * sent to the site's chunk endpoint only, is never logged, and is dropped once expired (pruned on
 * every read) or once its download is delivered or refused.
 */
export function keptTickets(folderId: string): StoredTicket[] {
  pruneTickets();
  let all: StoredTicket[];
  try {
    all = JSON.parse(get(`tickets:${folderId}`) ?? '[]') as StoredTicket[];
  } catch {
    all = [];
  }
  const now = Date.now();
  const live = all.filter(
    (t) =>
      typeof t?.fileId === 'string' &&
      typeof t.ticket === 'string' &&
      typeof t.expiresAt === 'number' &&
      t.expiresAt > now,
  );
  if (live.length !== all.length) set(`tickets:${folderId}`, live.length ? JSON.stringify(live) : null);
  return live;
}
/** Once per page: drops the expired tickets of every folder (those of folders never opened again too). */
let pruned = false;
function pruneTickets(): void {
  if (pruned) return;
  pruned = true;
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(`${PREFIX}tickets:`)) keys.push(key.slice(`${PREFIX}tickets:`.length));
    }
    for (const folderId of keys) keptTickets(folderId);
  } catch {
    /* storage disabled: nothing kept */
  }
}
export function keepTicket(folderId: string, fileId: string, ticket: StoredTicket | null): void {
  const others = keptTickets(folderId).filter((t) => t.fileId !== fileId);
  const kept = ticket ? [...others, { fileId, ticket: ticket.ticket, expiresAt: ticket.expiresAt }] : others;
  set(`tickets:${folderId}`, kept.length ? JSON.stringify(kept) : null);
}

/**
 * A password folder this tab has just created: its effective secret handed from the home page to
 * the folder page across the navigation, in this tab's sessionStorage, and removed as it is read
 * (never kept: after a reload the owner types the password like anyone).
 */
export function handOverUnlocked(folderId: string, secret: string): void {
  try {
    sessionStorage.setItem(`${PREFIX}unlocked:${folderId}`, secret);
  } catch {
    /* the owner types the password once */
  }
}
export function takeUnlocked(folderId: string): string | null {
  try {
    const secret = sessionStorage.getItem(`${PREFIX}unlocked:${folderId}`);
    sessionStorage.removeItem(`${PREFIX}unlocked:${folderId}`);
    return secret;
  } catch {
    return null;
  }
}

/** The session's storage (web/src/state), over this browser's localStorage. */
export const browserStore: SiteStore = {
  ownerSecretOf,
  saveOwnerSecret,
  visitorToken,
  pendingUploads,
  addPending,
  removePending,
  receipts,
  addReceipt,
  keptTickets,
  keepTicket,
  ticketInUse: (folderId, ticket) => ticketInUse(folderId, ticket.fileId, ticket.expiresAt),
};

/** The language chosen with the page's switch (web/src/i18n/choose.ts), or null to follow the browser. */
export function savedLanguage(): string | null {
  return get('language');
}
export function saveLanguage(language: string | null): void {
  set('language', language);
}
