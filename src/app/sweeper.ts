import { withEvents } from './events.js';
import type { Services } from './services.js';

/**
 * Deletes what the lifecycle says is due (domain/lifecycle.ts): whole folders (record and every
 * byte), and single expired files in folders that live on. Safe to run on every node at once:
 * beginFolderDeletion lets exactly one sweeper take a folder, and a sweeper that dies mid-way leaves
 * a tombstone that another finishes after the lease.
 */
export interface SweepResult {
  readonly foldersDeleted: number;
  readonly filesDeleted: number;
  /** Audit entries past AUDIT_RETENTION_DAYS, deleted. */
  readonly auditPruned: number;
}

const BATCH = 100;
const AUDIT_BATCH = 1000;
/** How long a sweeper may hold a folder before another may take over its deletion. */
export const DELETION_LEASE_MS = 10 * 60_000;

export async function sweep(services: Services): Promise<SweepResult> {
  const { store, blobs } = services;
  const now = services.clock();
  let foldersDeleted = 0;
  let filesDeleted = 0;
  for (;;) {
    const due = await store.foldersDue(now, BATCH);
    let progressed = false;
    for (const folderId of due) {
      if (!(await store.beginFolderDeletion(folderId, now, DELETION_LEASE_MS))) continue;
      // Bytes first, record last: a crash in between leaves a tombstone, never orphaned bytes.
      await blobs.deleteFolder(folderId);
      // The event commits with the record's removal: a crash before leaves the tombstone (and the
      // sweep that finishes it reports it), never a deleted folder that no one hears of.
      const expired = { type: 'folder.expired', at: services.clock(), folderId } as const;
      await withEvents(services, [expired], (outbox) => store.finishFolderDeletion(folderId, outbox));
      foldersDeleted++;
      progressed = true;
    }
    if (due.length < BATCH || !progressed) break;
  }
  for (;;) {
    const expired = await store.expiredFiles(now, BATCH);
    for (const ref of expired) {
      // Record first: once it is gone no one can read the file; bytes left by a crash here go
      // with the folder's prefix when the folder itself is deleted.
      if (await store.deleteFile(ref.folderId, ref.fileId)) {
        await blobs.deleteFile(ref);
        filesDeleted++;
      }
    }
    if (expired.length < BATCH) break;
  }
  // The audit log keeps AUDIT_RETENTION_DAYS; batches keep each delete's transaction short.
  const auditBefore = now - services.config.audit.retentionDays * 24 * 3600_000;
  let auditPruned = 0;
  for (;;) {
    const pruned = await store.audit.prune(auditBefore, AUDIT_BATCH);
    auditPruned += pruned;
    if (pruned < AUDIT_BATCH) break;
  }
  return { foldersDeleted, filesDeleted, auditPruned };
}

/** Runs `sweep` now and then every `intervalMs`, never overlapping itself. Returns a stop function. */
export function startSweeper(
  services: Services,
  intervalMs: number,
  onError: (error: unknown) => void,
  onSwept?: (r: SweepResult) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = sweep(services)
      .then((r) => onSwept?.(r))
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
