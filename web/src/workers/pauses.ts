import { type DownloadFile, WebfolderError } from '../core.js';

/** How long a paused download waits before it tries again on its own (unless "Try again now" comes first). */
export const PAUSED_RETRY_SECONDS = 30;

/**
 * The pauses of the page's downloads, one logic for both paths: the service
 * worker's (web/src/workers/sw.ts) and the page's own in memory (web/src/adapters/download.ts). When
 * the retry policy gives up on a chunk for a failure that may pass (an outage longer than
 * DOWNLOAD_RETRY, a server answering 5xx or 429), the download pauses instead of failing: the service
 * worker's response stays open (or the Blob being assembled stays in the page), the page is told
 * (`told`), and the chunk is tried again when the person asks (`resume`, "Try again now") or after
 * PAUSED_RETRY_SECONDS, until its ticket expires. A failed download would have to start again from its
 * first byte, which the ticket's byte budget (the file once plus 1 MiB) does not cover once more than
 * 1 MiB went out; a paused one goes on from the chunk it stopped at.
 */
export class Pauses {
  private readonly resumes = new Map<string, () => void>();
  /** When each paused download tries again on its own (epoch ms). */
  private readonly nextTry = new Map<string, number>();

  /** `told(id, seconds)`: tells the page(s) that download `id` paused and tries again in `seconds`. */
  constructor(private readonly told: (id: string, seconds: number) => void) {}

  /**
   * DownloadStreamOptions.pause for download `id`: the chunks that pause at once share one pause.
   * Past the earliest ticket expiry of its files it rejects as the server would refuse the ticket
   * (403 `download_ticket_required`), so that the page says the ticket expired.
   */
  pauser(id: string, files: readonly DownloadFile[]): (k: number) => Promise<void> {
    const until = Math.min(...files.map((f) => f.ticketExpiresAt ?? Number.POSITIVE_INFINITY));
    let paused: Promise<void> | null = null;
    return () => {
      const left = until - Date.now();
      if (left <= 0)
        return Promise.reject(
          new WebfolderError(
            403,
            'the download ticket expired while the download was paused',
            `download ${id}`,
            null,
            'download_ticket_required',
          ),
        );
      paused ??= new Promise<void>((resolve) => {
        const seconds = Math.max(1, Math.ceil(Math.min(PAUSED_RETRY_SECONDS * 1000, left) / 1000));
        const go = () => {
          clearTimeout(timer);
          if (this.resumes.get(id) === go) {
            this.resumes.delete(id);
            this.nextTry.delete(id);
          }
          paused = null;
          resolve();
        };
        const timer = setTimeout(go, seconds * 1000);
        this.resumes.set(id, go);
        this.nextTry.set(id, Date.now() + seconds * 1000);
        this.told(id, seconds);
      });
      return paused;
    };
  }

  /** "Try again now": the paused download `id` tries its chunk at once (nothing when it is not paused). */
  resume(id: string): void {
    this.resumes.get(id)?.();
  }

  /**
   * Tells again of every download paused now, with the seconds left to its own next try: for a page
   * that opened after the pause (a reload), so that it shows the paused line and "Try again now".
   */
  tellAgain(): void {
    for (const [id, at] of this.nextTry) this.told(id, Math.max(1, Math.ceil((at - Date.now()) / 1000)));
  }
}
