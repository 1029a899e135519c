import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { Refusal } from '../sql/refusal.js';
import { prepareAccountUsageWrites } from './account-usage-writes.js';
import { prepareAccountWrites } from './account-writes.js';
import { prepareAdminWrites } from './admin-writes.js';
import { prepareAuditWrites } from './audit-writes.js';
import { openConnection } from './connection.js';
import { prepareMailWrites } from './mail-writes.js';
import { prepareOpsWrites } from './ops-writes.js';
import { prepareWrites } from './writes.js';

/**
 * The SQLite writer thread, with group commit.
 *
 * A durable commit costs an fsync (milliseconds), and better-sqlite3 is synchronous: on the main
 * thread every fsync would stall every request. So all writes go to one worker thread. Writes that
 * arrive while it is committing queue up and the next commit takes them all in one transaction,
 * each in its own savepoint (a failing or refusing write rolls back alone), sharing a single fsync.
 * The more load, the bigger the batches. A write's promise resolves only after its commit is on disk.
 *
 * This file is both the host side (SqliteWriter, used by the store on the main thread) and the
 * thread's entry point (the code under `!isMainThread`).
 */
/**
 * Every write the thread runs, by name: the write modules of this folder over one connection. The
 * host's `write(name, ...args)` is typed from it, so a new write needs no list of names.
 */
function prepareAllWrites(db: Database.Database) {
  const ops = prepareOpsWrites(db);
  const audit = prepareAuditWrites(db);
  return {
    ...prepareWrites(db, ops.enqueueOutbox, audit.appendAudit),
    ...ops,
    ...prepareMailWrites(db),
    ...audit,
    ...prepareAdminWrites(db),
    ...prepareAccountUsageWrites(db),
    ...prepareAccountWrites(db),
  };
}
type Writes = ReturnType<typeof prepareAllWrites>;
type WriteName = keyof Writes;

interface Request {
  readonly id: number;
  readonly name: WriteName;
  readonly args: unknown[];
}
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: string };

export class SqliteWriter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private nextId = 1;
  private exited: Promise<void>;
  /** Writes asked for in this turn of the event loop, posted to the thread together (post()). */
  private outgoing: Request[] = [];

  constructor(path: string) {
    // Under tsx (tests, development) this module is TypeScript, and Node 20 loads a worker's entry
    // before any --import hook applies; so the thread registers tsx itself, then imports the entry.
    // Messages posted meanwhile wait in the port until the entry listens.
    const fromSource = import.meta.url.endsWith('.ts');
    this.worker = fromSource
      ? new Worker(
          `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`,
          { eval: true, workerData: { path } },
        )
      : new Worker(new URL(import.meta.url), { workerData: { path } });
    this.worker.on('message', (replies: Reply[]) => {
      for (const reply of replies) {
        const waiter = this.pending.get(reply.id);
        if (!waiter) continue;
        this.pending.delete(reply.id);
        if (reply.ok) waiter.resolve(reply.value);
        else waiter.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
      }
      if (this.pending.size === 0) this.worker.unref();
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => {
        for (const waiter of this.pending.values()) waiter.reject(new Error('metadata writer stopped'));
        this.pending.clear();
        resolve();
      });
    });
    this.worker.on('error', () => {
      /* reported to waiters by the exit handler */
    });
    // An idle writer must not keep a finished process alive; it is referenced only while writes are
    // in flight (see write()).
    this.worker.unref();
  }

  write<K extends WriteName>(name: K, ...args: Parameters<Writes[K]>): Promise<ReturnType<Writes[K]>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.outgoing.push({ id, name, args });
      if (this.outgoing.length === 1) setImmediate(this.post);
    });
  }

  /**
   * One message per turn of the event loop, however many requests asked for writes in it: a
   * message costs both threads a wake-up and a structured clone's set-up, and the writes join
   * the same commit anyway.
   */
  private readonly post = (): void => {
    if (this.outgoing.length === 0) return;
    const batch = this.outgoing;
    this.outgoing = [];
    this.worker.postMessage(batch);
  };

  /** Commits what is queued, then stops the thread. */
  async close(): Promise<void> {
    this.worker.ref();
    this.post();
    this.worker.postMessage('close');
    await this.exited;
  }
}

function runWriterThread(path: string): void {
  const db = openConnection(path);
  const writes = prepareAllWrites(db);
  const port = parentPort!;
  // One transaction function for every write: called inside the batch's transaction, it is a
  // savepoint (a failing write rolls back alone); made once rather than per write.
  const inSavepoint = db.transaction((request: Request) =>
    (writes[request.name] as (...args: unknown[]) => unknown)(...request.args),
  );
  let queue: Request[] = [];
  let closing = false;

  const flush = () => {
    const batch = queue;
    queue = [];
    const replies: Reply[] = [];
    try {
      // IMMEDIATE takes the write lock first (waiting up to busy_timeout): a deferred transaction
      // that reads and then writes fails at once if another process committed in between.
      db.transaction(() => {
        for (const request of batch) {
          try {
            replies.push({ id: request.id, ok: true, value: inSavepoint(request) });
          } catch (error) {
            // A refusal rolled its savepoint back: the write answers it.
            if (error instanceof Refusal) {
              replies.push({ id: request.id, ok: true, value: error.answer });
              continue;
            }
            const e = error as { message?: string; code?: string };
            replies.push({
              id: request.id,
              ok: false,
              message: e.message ?? String(error),
              ...(e.code ? { code: e.code } : {}),
            });
          }
        }
      }).immediate();
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch is durable.
      const message = (error as Error).message ?? String(error);
      replies.length = 0;
      for (const request of batch) replies.push({ id: request.id, ok: false, message });
    }
    port.postMessage(replies);
    if (closing && queue.length === 0) shutdown();
  };

  const shutdown = () => {
    db.close();
    port.close();
  };

  port.on('message', (message: Request[] | 'close') => {
    if (message === 'close') {
      closing = true;
      if (queue.length === 0) shutdown();
      return;
    }
    const wasEmpty = queue.length === 0;
    for (const request of message) queue.push(request);
    if (wasEmpty) setImmediate(flush);
  });
}

if (!isMainThread && (workerData as { path?: string } | null)?.path)
  runWriterThread((workerData as { path: string }).path);
