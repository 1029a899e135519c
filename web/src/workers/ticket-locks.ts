import type { DownloadFile } from '../core.js';

/**
 * Which download tickets are in use now, across this origin's pages and its service worker. The
 * page keeps a download's ticket in localStorage until the download is delivered, so that
 * after a reload, or with the link opened again in a new tab, a Download goes on with it uncounted.
 * One ticket's byte budget is one copy of the file, so two downloads must never run with one ticket at
 * once; and a download may outlive the page that started it (the service worker's keeps streaming, or
 * stays paused, after a reload). Each running download therefore holds a Web Lock named after its
 * ticket, in the realm that runs it: the page for a download in memory, the service worker for its
 * own. The browser releases a lock when its holder ends (a page reloaded or closed, a worker stopped),
 * so a kept ticket whose lock nobody holds belongs to no running download and may be used again.
 * The name carries no secret: the folder, the file and the ticket's expiry (milliseconds, different
 * for each ticket of a file).
 */
export function ticketLockName(folderId: string, fileId: string, expiresAt: number): string {
  return `webfolder-ticket:${folderId}:${fileId}:${expiresAt}`;
}

function lockManager(): LockManager | null {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks ?? null;
}

/**
 * Holds the ticket locks of `files` (those with a ticket) until `until` settles. Without Web Locks
 * (old browsers) nothing is held, and a kept ticket is used again as before: within one page only.
 */
export function holdTicketLocks(files: readonly DownloadFile[], until: Promise<unknown>): void {
  const locks = lockManager();
  if (!locks) return;
  const ended = until.then(
    () => undefined,
    () => undefined,
  );
  for (const f of files) {
    if (f.ticketExpiresAt === undefined) continue;
    void locks.request(ticketLockName(f.folderId, f.fileId, f.ticketExpiresAt), () => ended).catch(() => undefined);
  }
}

/** Whether a running download (of any page of this origin, or the service worker) holds the ticket's lock. */
export async function ticketInUse(folderId: string, fileId: string, expiresAt: number): Promise<boolean> {
  const locks = lockManager();
  if (!locks) return false;
  const name = ticketLockName(folderId, fileId, expiresAt);
  try {
    const { held = [], pending = [] } = await locks.query();
    return [...held, ...pending].some((lock) => lock.name === name);
  } catch {
    return false;
  }
}
