import { formatBytes as formatSize } from '../domain/sizes.js';
import type { UploadEvent } from '../transfer/direct-upload.js';

/**
 * The CLI's progress display. On a terminal: one bar per file and one overall, redrawn in place at
 * most 10 times a second, with speed (over the last 5 s) and time left. Otherwise (a pipe, a log
 * file, CI): plain lines, one per completed file and one per 10% of the whole.
 * Never prints a secret: only names, sizes and counts.
 */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export class ProgressView {
  private files: { name: string; size: number; done: number }[] = [];
  private total = 0;
  private done = 0;
  private startDone = 0;
  private samples: { t: number; bytes: number }[] = [];
  private drawnLines = 0;
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly startedAt = Date.now();

  constructor(
    private readonly out: ProgressStream,
    private readonly tty: boolean = out.isTTY === true,
  ) {}

  handle(event: UploadEvent): void {
    switch (event.type) {
      case 'registered':
        this.files = event.files.map((f) => ({ name: f.name, size: f.size, done: f.doneBytes }));
        this.total = event.totalBytes;
        this.done = this.startDone = event.doneBytes;
        this.samples = [{ t: Date.now(), bytes: this.done }];
        if (!this.tty) {
          const resumed = event.doneBytes > 0 ? `, ${formatBytes(event.doneBytes)} already on the server` : '';
          this.line(`uploading ${this.files.length} file(s), ${formatBytes(this.total)}${resumed}`);
        }
        this.draw(true);
        break;
      case 'chunk': {
        const f = this.files[event.file];
        if (f) f.done = event.fileDoneBytes;
        this.done = event.doneBytes;
        const now = Date.now();
        this.samples.push({ t: now, bytes: this.done });
        while (this.samples.length > 2 && now - this.samples[0]!.t > 5000) this.samples.shift();
        if (!this.tty) {
          const decile = Math.floor((this.done / Math.max(1, this.total)) * 10);
          if (decile > this.lastDecile && decile < 10) {
            this.lastDecile = decile;
            this.line(
              `${pct(this.done, this.total)} ${formatBytes(this.done)} of ${formatBytes(this.total)}, ${formatBytes(this.speed())}/s, ${formatDuration(this.eta())} left`,
            );
          }
        }
        this.draw(false);
        break;
      }
      case 'file-complete':
        if (!this.tty) this.line(`done: ${this.files[event.file]?.name ?? `file ${event.file + 1}`}`);
        this.draw(true);
        break;
      case 'retry':
        if (!this.tty || this.drawnLines === 0)
          this.line(
            `retrying (${event.info.status ?? 'network'}): ${event.info.operation} in ${(event.info.delayMs / 1000).toFixed(1)} s`,
          );
        break;
    }
  }

  /** Final redraw; call before printing the result. */
  finish(): void {
    this.draw(true);
    if (!this.tty) {
      const seconds = (Date.now() - this.startedAt) / 1000;
      this.line(`uploaded ${formatBytes(this.done - this.startDone)} in ${seconds.toFixed(1)} s`);
    }
  }

  private speed(): number {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.t === first.t) return 0;
    return ((last.bytes - first.bytes) * 1000) / (last.t - first.t);
  }

  private eta(): number {
    const speed = this.speed();
    return speed > 0 ? (this.total - this.done) / speed : NaN;
  }

  private line(text: string): void {
    this.out.write(`${text}\n`);
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const width = Math.max(60, Math.min(this.out.columns ?? 80, 120));
    const nameWidth = Math.min(28, Math.max(8, ...this.files.map((f) => f.name.length)));
    const barWidth = Math.max(10, width - nameWidth - 48);
    const rows = this.files.map(
      (f) =>
        `${fit(f.name, nameWidth)} ${bar(f.done, f.size, barWidth)} ${pct(f.done, f.size)} ${formatBytes(f.size).padStart(10)}`,
    );
    const speed = this.speed();
    rows.push(
      `${fit('total', nameWidth)} ${bar(this.done, this.total, barWidth)} ${pct(this.done, this.total)} ${formatBytes(speed).padStart(10)}/s ${formatDuration(this.eta())} left`,
    );
    let text = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A` : '';
    for (const row of rows) text += `\x1b[2K${row}\n`;
    this.out.write(text);
    this.drawnLines = rows.length;
  }
}

function fit(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function bar(done: number, total: number, width: number): string {
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

function pct(done: number, total: number): string {
  return `${(total > 0 ? Math.floor((done / total) * 100) : 100).toString().padStart(3)}%`;
}

/**
 * Sizes as the site writes them (src/domain/sizes.ts), in English: a terminal's output is read by
 * scripts and logs as well as people, and the CLI's other words are English.
 */
export function formatBytes(n: number): string {
  return formatSize(n, 'en');
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
