import type { SiteConfig } from '../config.js';
import { cryptoPool } from '../workers/crypto-pool.js';
import { type SaveRequest, type SaverCommand, type SaverEvent, saveJob } from '../workers/file-saver.js';
import type { DownloadJob, DownloadWait, TransferFailure } from '../workers/sw-protocol.js';
import { holdTicketLocks } from '../workers/ticket-locks.js';

/**
 * Downloads written straight into a file the person picks, where the browser has the File System
 * Access API (Chromium: `showSaveFilePicker`): the page asks where to save as the person clicks
 * Download (a picker needs the click), then one of its crypto workers writes the decrypted chunks
 * into that file (web/src/workers/file-saver.ts).
 *
 * Off unless `localStorage['webfolder.saveFile'] = '1'`: measured in Chromium 156, it costs the
 * browser more CPU per GiB than the service worker's download (./download.ts), which every browser
 * therefore keeps by default. Chromium's writable file stream hands each write to the browser
 * process as a blob and writes it to a swap file from there, which alone costs more than a whole
 * plain download (docs/benchmarks.md, "Saving into a picked file"; docs/decisions.md).
 */
interface SavePickerWindow {
  showSaveFilePicker?: (options: {
    suggestedName?: string;
    id?: string;
    startIn?: string;
  }) => Promise<FileSystemFileHandle>;
}

/** Whether downloads are saved into a picked file here: turned on, and the browser has the picker. */
export function canPickFile(): boolean {
  try {
    if (localStorage.getItem('webfolder.saveFile') !== '1') return false;
  } catch {
    return false; // storage blocked: the default
  }
  return typeof (window as SavePickerWindow).showSaveFilePicker === 'function';
}

/**
 * Asks the person where to save `name` (call it from the click, before anything is awaited): the
 * picked file, 'cancelled' when the person closed the picker without picking, or null when no picker
 * could be shown (no API, no click to answer to, a policy): then the service worker's download goes on.
 */
export async function pickFile(name: string): Promise<FileSystemFileHandle | 'cancelled' | null> {
  const show = (window as SavePickerWindow).showSaveFilePicker;
  if (!show || !canPickFile()) return null;
  try {
    // `id` remembers the folder the person picked last, for this site's downloads.
    return await show.call(window, { suggestedName: name, id: 'webfolder-download', startIn: 'downloads' });
  } catch (error) {
    return (error as Error).name === 'AbortError' ? 'cancelled' : null;
  }
}

/** What a save into a picked file tells the page. */
export interface SaveEvents {
  readonly progress?: (bytes: number) => void;
  readonly waiting?: (wait: DownloadWait) => void;
  readonly paused?: (seconds: number, resume: () => void) => void;
}

export type SaveOutcome =
  | { readonly outcome: 'done' }
  | { readonly outcome: 'cancelled' }
  | { readonly outcome: 'failed'; readonly failure: TransferFailure };

export interface RunningSave {
  /** Settles once the file is closed (done), or the save failed or was cancelled. */
  readonly finished: Promise<SaveOutcome>;
  /** The person's Cancel: the file is left as the picker made it (removed when empty). */
  cancel(): void;
}

/** Writes `job` into `handle` from a crypto worker (in the page when it has none), holding its tickets. */
export function saveToFile(
  config: SiteConfig,
  job: DownloadJob,
  handle: FileSystemFileHandle,
  events: SaveEvents,
): RunningSave {
  let settle: (outcome: SaveOutcome) => void = () => {};
  const finished = new Promise<SaveOutcome>((resolve) => (settle = resolve));
  let send: (command: SaverCommand) => void;
  const heard = (event: SaverEvent) => {
    if (event.type === 'progress') events.progress?.(event.bytes);
    else if (event.type === 'waiting') events.waiting?.(event.wait);
    else if (event.type === 'paused') events.paused?.(event.seconds, () => send({ type: 'resume' }));
    else if (event.type === 'done') settle({ outcome: 'done' });
    else settle(event.cancelled ? { outcome: 'cancelled' } : { outcome: 'failed', failure: event.failure });
  };
  const pool = cryptoPool(config);
  const lent = pool.lend();
  const channel = new MessageChannel();
  const request: SaveRequest = { type: 'save', job, handle };
  if (lent.length > 0 && pool.host(request, [channel.port2, ...lent])) {
    channel.port1.onmessage = (e: MessageEvent) => heard(e.data as SaverEvent);
    send = (command) => channel.port1.postMessage(command);
    void finished.then(() => channel.port1.close());
  } else {
    for (const port of lent) port.close();
    // No workers (they failed to start, or are turned off): the page decrypts and writes itself.
    const saver = saveJob(job, handle, undefined, heard);
    send = (command) => saver.command(command);
  }
  // Its tickets are in use while it runs (a reload ends it, and releases them with the page).
  holdTicketLocks(job.files, finished);
  return { finished, cancel: () => send({ type: 'cancel' }) };
}
