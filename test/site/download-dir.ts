import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A browser's download directory, as the Firefox and WebKit suites read it (Chromium's downloads
 * come through playwright instead). A download is complete when its file is there, no partial file
 * of its name remains (Firefox writes `name.part`, WebKitGTK `name.wkdownload`, and rename when
 * done), and `check` accepts it: a zip still being written, or a file short of its size, is waited
 * for (two minutes at most).
 */
export interface DownloadDir {
  /** Empties the directory, before a download whose name may already be there. */
  clear(): Promise<void>;
  /** Waits until `name` is complete and `check` accepts it; answers what `check` answers. */
  when<T>(name: string, check: (path: string) => T | Promise<T>): Promise<T>;
  /** Waits until `name` is complete with `size` bytes; answers its bytes. */
  file(name: string, size: number): Promise<Buffer>;
}

export function downloadDir(downloads: string): DownloadDir {
  const entries = () => readdirSync(downloads);
  async function when<T>(name: string, check: (path: string) => T | Promise<T>): Promise<T> {
    const path = join(downloads, name);
    const deadline = Date.now() + 120_000;
    let last = 'absent';
    for (;;) {
      const partial = entries().filter((e) => e !== name && e.startsWith(name));
      if (existsSync(path) && partial.length === 0) {
        try {
          return await check(path);
        } catch (error) {
          last = (error as Error).message;
        }
      }
      if (Date.now() > deadline)
        throw new Error(`no complete ${name} in ${downloads}: ${JSON.stringify(entries())}; last: ${last}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    async clear() {
      await rm(downloads, { recursive: true, force: true });
      await mkdir(downloads, { recursive: true });
    },
    when,
    file: (name, size) =>
      when(name, async (path) => {
        const got = await stat(path);
        if (got.size !== size) throw new Error(`${got.size} bytes of ${size}`);
        return readFile(path);
      }),
  };
}
