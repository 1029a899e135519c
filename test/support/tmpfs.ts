import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tempDir } from './server.js';

const run = promisify(execFile);

/**
 * A real, small filesystem for tests of a full disk: a tmpfs of `sizeMiB` mounted on a fresh
 * directory. Mounting needs root: elsewhere answers why it cannot (a skip reason), unless
 * TEST_REQUIRE_MOUNT=1 (CI), where it throws instead.
 */
export async function mountTmpfs(sizeMiB: number): Promise<string | { skip: string }> {
  const dir = await tempDir('webfolder-tmpfs-');
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir]);
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const why = `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]}): run as root to test a full disk`;
    if (process.env.TEST_REQUIRE_MOUNT === '1') throw new Error(`TEST_REQUIRE_MOUNT=1: ${why}`);
    return { skip: why };
  }
}

export async function unmountTmpfs(dir: string): Promise<void> {
  await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
  await rm(dir, { recursive: true, force: true });
}
