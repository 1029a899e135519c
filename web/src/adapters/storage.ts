import { base64UrlEncode } from '../core.js';
import type { PendingUpload, Receipt, SiteStore } from '../state/index.js';

/**
 * What the site keeps in the browser (localStorage, this origin only):
 * - the owner secret of each folder this browser owns (the owner link restores it elsewhere);
 * - a random visitor token, so that this browser can resume its own uploads;
 * - unfinished uploads (ids, sizes, and for request-mode visitors the file's own secret), removed
 *   once complete;
 * - in request folders, the receipt of what this browser sent (names and sizes).
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
};

/** The language chosen with the page's switch (web/src/i18n/choose.ts), or null to follow the browser. */
export function savedLanguage(): string | null {
  return get('language');
}
export function saveLanguage(language: string | null): void {
  set('language', language);
}
