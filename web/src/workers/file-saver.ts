import { downloadZip } from 'client-zip';
import { chunksAhead, type DownloadFile, type DownloadStreamOptions, downloadStream, zipEntries } from '../core.js';
import { lentWorkers } from './crypto-ports.js';
import { Pauses } from './pauses.js';
import {
  type DownloadJob,
  type DownloadWait,
  downloadWait,
  type TransferFailure,
  transferFailure,
} from './sw-protocol.js';

/**
 * A download written straight into a file the person picked (Chromium's File System Access API:
 * `showSaveFilePicker`, then a `FileSystemWritableFileStream`). It runs in one of the page's crypto
 * workers (the page posts it the picked file's handle), which fetches and decrypts the chunks with
 * the other workers through ports the page lends it, as the service worker does, and writes the
 * plaintext into the file as each chunk is decrypted: no service worker, no response stream, no
 * download manager, and never more than the chunks in flight in memory. Without workers the page
 * runs it itself. The file is the transfer core's `downloadStream` (or a ZIP64 archive of such
 * streams, by client-zip), so checks, retries, pauses and failures are the service worker's.
 *
 * Chromium writes into a swap file next to the picked one and moves it into place on `close()`:
 * a download that fails or is cancelled leaves the picked file as the picker left it (empty, for a
 * new name), and the saver removes it then if it is empty.
 */

/** What the saver tells the page, on the save's own channel. */
export type SaverEvent =
  /** Bytes written into the file so far. */
  | { readonly type: 'progress'; readonly bytes: number }
  | { readonly type: 'waiting'; readonly wait: DownloadWait }
  | { readonly type: 'paused'; readonly seconds: number }
  /** Every byte written and the file closed (moved into place). */
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly failure: TransferFailure; readonly cancelled: boolean };

/** What the page tells the saver: "Try again now" on a pause, or the person's Cancel. */
export type SaverCommand = { readonly type: 'resume' } | { readonly type: 'cancel' };

/** The message that starts a save in a crypto worker (ports: the save's channel, then the lent workers). */
export interface SaveRequest {
  readonly type: 'save';
  readonly job: DownloadJob;
  readonly handle: FileSystemFileHandle;
}

/**
 * Chunks fetched and decrypted ahead of the one being written: one, as for the service worker's
 * download (the page, its workers and the chunks in flight share one renderer process).
 */
const SAVE_AHEAD = 1;

type Open = NonNullable<DownloadStreamOptions['open']>;

export interface Saver {
  /** Runs the save; resolves once the file is closed or the failure told. */
  readonly finished: Promise<void>;
  command(command: SaverCommand): void;
}

/** Writes `job` into the picked file; `open` fetches and decrypts a chunk elsewhere (the workers), if given. */
export function saveJob(
  job: DownloadJob,
  handle: FileSystemFileHandle,
  open: Open | undefined,
  tell: (event: SaverEvent) => void,
): Saver {
  const stop = new AbortController();
  const pauses = new Pauses((_id, seconds) => tell({ type: 'paused', seconds }));
  const pause = pauses.pauser('save', job.files);
  const onRetry = (info: Parameters<NonNullable<DownloadStreamOptions['onRetry']>>[0]) =>
    tell({ type: 'waiting', wait: downloadWait(info) });
  const options = (file: DownloadFile): DownloadStreamOptions => ({
    ...(open ? { open } : {}),
    onRetry,
    pause,
    signal: stop.signal,
    ahead: chunksAhead(file.chunkSize, SAVE_AHEAD),
  });
  let body: ReadableStream<Uint8Array>;
  if (job.kind === 'file') {
    body = downloadStream(job.files[0]!, options(job.files[0]!));
  } else {
    const entries = zipEntries(job.files);
    body = downloadZip(
      (function* () {
        for (let i = 0; i < job.files.length; i++)
          yield { ...entries[i]!, input: downloadStream(job.files[i]!, options(job.files[i]!)) };
      })(),
      { metadata: entries },
    ).body!;
  }
  const reader = body.getReader();
  const finished = (async () => {
    let writable: FileSystemWritableFileStream | null = null;
    try {
      writable = await handle.createWritable();
      let written = 0;
      // The stream hands a decrypted chunk on in 1 MiB views of one buffer (HAND_ON_PIECE); each
      // write is one round trip to the browser process, so consecutive views are written as one.
      let run: Uint8Array | null = null;
      const flush = async () => {
        if (!run) return;
        const bytes = run;
        run = null;
        await writable!.write(bytes as Uint8Array<ArrayBuffer>);
        written += bytes.length;
        tell({ type: 'progress', bytes: written });
      };
      for (;;) {
        const { done, value } = await reader.read();
        if (stop.signal.aborted) throw new DOMException('the download was cancelled', 'AbortError');
        if (done) break;
        const follows =
          run !== null && value.buffer === run.buffer && value.byteOffset === run.byteOffset + run.byteLength;
        if (follows) run = new Uint8Array(run!.buffer, run!.byteOffset, run!.byteLength + value.byteLength);
        else {
          await flush();
          run = value;
        }
        if (run!.byteOffset + run!.byteLength === run!.buffer.byteLength) await flush();
      }
      await flush();
      await writable.close();
      tell({ type: 'done' });
    } catch (error) {
      await reader.cancel(error).catch(() => {});
      await writable?.abort().catch(() => {});
      await removeIfEmpty(handle);
      tell({ type: 'failed', failure: transferFailure(error), cancelled: stop.signal.aborted });
    }
  })();
  return {
    finished,
    command(command) {
      if (command.type === 'resume') pauses.resume('save');
      else if (!stop.signal.aborted) {
        stop.abort();
        void reader.cancel(new DOMException('the download was cancelled', 'AbortError')).catch(() => {});
      }
    },
  };
}

/**
 * The picker created the file (empty) when the person picked it: a save that did not finish removes
 * it again, unless it holds bytes (a file the person chose to replace that Chromium left as it was).
 */
async function removeIfEmpty(handle: FileSystemFileHandle): Promise<void> {
  try {
    const removable = handle as FileSystemFileHandle & { remove?: () => Promise<void> };
    if ((await handle.getFile()).size === 0) await removable.remove?.();
  } catch {
    /* gone already, or not ours to remove */
  }
}

/**
 * A crypto worker's side of a `save` request: the save's channel is `ports[0]`, the lent workers'
 * ports follow (this worker's own among them); the lent ports are closed when it ends.
 */
export function serveSave(request: SaveRequest, ports: readonly MessagePort[]): void {
  const [channel, ...lent] = ports;
  if (!channel) return;
  // The page that lent the workers is this worker's own: it is there as long as this save is.
  const lanes = lentWorkers(lent, async () => true);
  const saver = saveJob(request.job, request.handle, lent.length > 0 ? lanes.open : undefined, (event) =>
    channel.postMessage(event),
  );
  channel.addEventListener('message', (e: MessageEvent) => saver.command(e.data as SaverCommand));
  channel.start();
  void saver.finished.finally(() => {
    lanes.close();
    channel.close();
  });
}
