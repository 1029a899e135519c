import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { which } from './which.js';

/**
 * An X display for a headed browser (Xvfb, on a display number it picks itself with -displayfd, so
 * parallel runs never collide), and a person's hand on the browser's native file dialog there
 * (test/support/x11-dialog.py, through XTEST): what a headless browser cannot show, such as
 * Chromium's `showSaveFilePicker`, is driven for real.
 */
export const XVFB = which('Xvfb');
const DIALOG_SCRIPT = fileURLToPath(new URL('./x11-dialog.py', import.meta.url));

export interface Display {
  /** `:N`, for DISPLAY. */
  readonly display: string;
  /**
   * Waits for the next file dialog on this display and answers it: `save` types `path` and presses
   * Save; `cancel` presses Escape. Resolves once the dialog is gone.
   */
  answerDialog(answer: { action: 'save'; path: string } | { action: 'cancel' }, timeoutSeconds?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startXvfb(): Promise<Display> {
  if (!XVFB) throw new Error('Xvfb not found: apt-get install -y xvfb');
  const child = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within 20 s: ${log}`)), 20_000);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${log}`));
    });
  });
  // Should the test process end without `close()` (a timeout kills it), the display goes with it.
  const leftover = () => child.kill('SIGTERM');
  process.once('exit', leftover);
  return {
    display,
    answerDialog: (answer, timeoutSeconds = 120) =>
      new Promise<void>((resolve, reject) => {
        execFile(
          'python3',
          [DIALOG_SCRIPT, JSON.stringify({ ...answer, timeout: timeoutSeconds })],
          { env: { ...process.env, DISPLAY: display }, timeout: (timeoutSeconds + 30) * 1000 },
          (error, stdout, stderr) => {
            if (error) reject(new Error(`the file dialog was not answered: ${stdout} ${stderr} ${error.message}`));
            else resolve();
          },
        );
      }),
    async close() {
      process.removeListener('exit', leftover);
      await stopChild(child);
    },
  };
}

/** Stops a child process: SIGTERM, SIGKILL after 5 s; resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
