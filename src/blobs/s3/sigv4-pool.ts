import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ChunkSigningJob, signChunks } from './sigv4-chunks.js';

/**
 * Chunk signing off the event loop: a maximum create on S3 is 100,000 SigV4
 * signatures, about a CPU-second of hashing that would otherwise hold every other request. Workers
 * are started on first use, one fewer than the cores (at least one), and never keep the process
 * alive. A job goes to the worker with the fewest jobs waiting. If a worker cannot be started, jobs
 * are signed on this thread instead (correct, only less fair).
 */
interface Pending {
  readonly job: ChunkSigningJob;
  resolve: (hex: string) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
}

export class SigningPool {
  private workers: PoolWorker[] | null = null;
  private nextId = 0;
  private broken = false;

  constructor(private readonly size = Math.max(1, availableParallelism() - 1)) {}

  async sign(job: ChunkSigningJob): Promise<string> {
    const workers = this.broken ? [] : this.start();
    if (workers.length === 0) return signChunks(job);
    const target = workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise<string>((resolve, reject) => {
      target.pending.set(id, { job, resolve, reject });
      target.worker.postMessage({ id, job });
    });
  }

  async close(): Promise<void> {
    const workers = this.workers ?? [];
    this.workers = null;
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private start(): PoolWorker[] {
    if (this.workers) return this.workers;
    // The compiled build runs sigv4-worker.js; the sources (tests, through tsx) the .ts beside this file.
    const js = new URL('./sigv4-worker.js', import.meta.url);
    const compiled = existsSync(fileURLToPath(js));
    const entry = compiled ? js : new URL('./sigv4-worker.ts', import.meta.url);
    try {
      this.workers = Array.from({ length: this.size }, () => this.spawn(entry, compiled ? [] : ['--import', 'tsx']));
    } catch {
      this.broken = true;
      this.workers = [];
    }
    return this.workers;
  }

  private spawn(entry: URL, execArgv: string[]): PoolWorker {
    const worker = new Worker(entry, { execArgv: [...process.execArgv, ...execArgv] });
    worker.unref();
    const pending = new Map<number, Pending>();
    const entryOf = { worker, pending };
    worker.on('message', (m: { id: number; hex?: string; error?: string }) => {
      const waiting = pending.get(m.id);
      pending.delete(m.id);
      if (!waiting) return;
      if (m.hex !== undefined) waiting.resolve(m.hex);
      else waiting.reject(new Error(m.error ?? 'signing failed'));
    });
    const fail = (_error: Error) => {
      // What the worker had not answered is signed here: a lost worker costs fairness, not requests.
      for (const p of pending.values()) {
        try {
          p.resolve(signChunks(p.job));
        } catch (error) {
          p.reject(error as Error);
        }
      }
      pending.clear();
      // A worker that died is not used again: the next jobs go to the others, or to this thread.
      if (this.workers) this.workers = this.workers.filter((w) => w !== entryOf);
      if (this.workers?.length === 0) this.broken = true;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`signing worker exited with ${code}`));
    });
    return entryOf;
  }
}
