import type { UploadUrls } from '../../src/contract/site.js';
import { encryptChunk, type FolderKey } from '../../src/crypto/index.js';
import { ApiError, chunkUploadUrl, type SiteApi } from './api.js';
import { removePending } from './storage.js';

/**
 * The chunk engine: encrypts and PUTs chunks of many files, several at a time. Each chunk is read
 * with Blob.slice when its turn comes, so at most `concurrency` chunks (plaintext and ciphertext)
 * are in memory, whatever the file size. A failed chunk is retried with backoff; an expired URL is
 * re-signed; cancel aborts everything in flight.
 */
export interface FileJob {
  readonly folderId: string;
  readonly fileId: string;
  readonly file: File;
  readonly name: string;
  readonly key: FolderKey;
  readonly chunkSize: number;
  readonly chunks: number;
  urls: UploadUrls;
  /** Chunk numbers still to send. */
  readonly todo: number[];
  /** Plaintext bytes stored (including chunks a previous session sent). */
  confirmed: number;
  inflight: Map<number, number>;
  state: 'waiting' | 'uploading' | 'done' | 'failed' | 'cancelled';
  error?: string;
}

export interface Progress {
  readonly jobs: readonly FileJob[];
  readonly total: number;
  readonly sent: number;
  /** Bytes per second over the last seconds. */
  readonly speed: number;
  readonly etaMs: number;
}

const MAX_ATTEMPTS = 6;

export function plainLength(job: Pick<FileJob, 'chunkSize' | 'chunks' | 'file'>, n: number): number {
  return n < job.chunks ? job.chunkSize : job.file.size - job.chunkSize * (job.chunks - 1);
}

export class Uploader {
  private cancelled = false;
  private readonly xhrs = new Set<XMLHttpRequest>();
  private samples: Array<[number, number]> = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly api: SiteApi,
    private readonly jobs: FileJob[],
    private readonly onProgress: (p: Progress) => void,
    private readonly concurrency = 4,
  ) {}

  progress(): Progress {
    const total = this.jobs.reduce((a, j) => a + j.file.size, 0);
    let sent = 0;
    for (const j of this.jobs) {
      sent += j.confirmed;
      for (const b of j.inflight.values()) sent += b;
    }
    const now = performance.now();
    this.samples.push([now, sent]);
    while (this.samples.length > 2 && now - this.samples[0]![0] > 5000) this.samples.shift();
    const [t0, b0] = this.samples[0]!;
    const speed = now > t0 ? ((sent - b0) * 1000) / (now - t0) : 0;
    return { jobs: this.jobs, total, sent, speed, etaMs: speed > 0 ? ((total - sent) * 1000) / speed : Infinity };
  }

  cancel(): void {
    this.cancelled = true;
    for (const x of this.xhrs) x.abort();
    for (const j of this.jobs) if (j.state === 'waiting' || j.state === 'uploading') j.state = 'cancelled';
    this.onProgress(this.progress());
  }

  async run(): Promise<void> {
    const tasks: Array<{ job: FileJob; n: number }> = [];
    for (const job of this.jobs) {
      if (job.todo.length === 0) this.finish(job);
      for (const n of job.todo) tasks.push({ job, n });
    }
    this.timer = setInterval(() => this.onProgress(this.progress()), 250);
    const worker = async () => {
      for (let t = tasks.shift(); t && !this.cancelled; t = tasks.shift()) {
        if (t.job.state === 'failed') continue;
        t.job.state = 'uploading';
        try {
          await this.sendChunk(t.job, t.n);
          t.job.todo.splice(t.job.todo.indexOf(t.n), 1);
          if (t.job.todo.length === 0) this.finish(t.job);
        } catch (error) {
          if (this.cancelled) break;
          t.job.state = 'failed';
          t.job.error = (error as Error).message;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: this.concurrency }, worker));
    } finally {
      clearInterval(this.timer);
      this.onProgress(this.progress());
    }
  }

  private finish(job: FileJob): void {
    job.state = 'done';
    removePending(job.folderId, job.fileId);
  }

  private async sendChunk(job: FileJob, n: number): Promise<void> {
    const length = plainLength(job, n);
    const start = (n - 1) * job.chunkSize;
    const plaintext = new Uint8Array(await job.file.slice(start, start + length).arrayBuffer());
    if (plaintext.length !== length) throw new Error('the file changed while it was being read: pick it again');
    const body = await encryptChunk(job.key, plaintext);
    for (let attempt = 1; ; attempt++) {
      if (this.cancelled) throw new Error('cancelled');
      const result = await this.put(job, n, body, length);
      job.inflight.delete(n);
      if (result.status === 200 || result.status === 409) {
        job.confirmed += length;
        return;
      }
      if (result.status === 403 || result.status === 401) {
        // An expired or rejected URL: ask for freshly signed ones, then retry.
        try {
          job.urls = (await this.api.uploadUrls(job.fileId)).uploadUrls;
        } catch (error) {
          if (error instanceof ApiError && error.status !== 0 && error.status < 500) throw error;
        }
      } else if (result.status >= 400 && result.status < 500 && result.status !== 408 && result.status !== 429) {
        throw new Error(`chunk ${n} was refused: ${result.error}`);
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error(`chunk ${n} failed ${MAX_ATTEMPTS} times: ${result.error}`);
      await new Promise((r) => setTimeout(r, Math.min(16_000, 500 * 2 ** attempt)));
    }
  }

  private put(job: FileJob, n: number, body: Uint8Array, plain: number): Promise<{ status: number; error: string }> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      this.xhrs.add(xhr);
      xhr.open('PUT', chunkUploadUrl(job.urls, n));
      for (const [k, v] of Object.entries(job.urls.headers)) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) job.inflight.set(n, Math.floor((e.loaded / e.total) * plain));
      };
      const done = (status: number, error: string) => {
        this.xhrs.delete(xhr);
        resolve({ status, error });
      };
      xhr.onload = () => {
        let error = `HTTP ${xhr.status}`;
        try {
          error = (JSON.parse(xhr.responseText) as { error?: string }).error ?? error;
        } catch {
          /* S3 answers XML */
        }
        done(xhr.status, error);
      };
      xhr.onerror = () => done(0, 'network error');
      xhr.onabort = () => done(0, 'cancelled');
      xhr.ontimeout = () => done(0, 'timed out');
      // A Blob body, not the bytes themselves: Chromium then streams it to the network process
      // instead of copying it inline with the request (which DevTools-attached browsers also mirror).
      xhr.send(new Blob([body as Uint8Array<ArrayBuffer>]));
    });
  }
}

/** Files from a drop: folders are walked (webkitGetAsEntry), keeping their relative paths. */
export async function filesFromDrop(data: DataTransfer): Promise<Array<{ file: File; path: string }>> {
  const out: Array<{ file: File; path: string }> = [];
  const entries = [...data.items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return [...data.files].map((file) => ({ file, path: file.name }));
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ file, path: prefix + file.name });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}
