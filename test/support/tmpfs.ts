import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { after, before } from 'node:test';
import { promisify } from 'node:util';
import { type RunningServer, startServer, tempDir } from './server.js';

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

/**
 * A server whose DATA_DIR is a tmpfs of `sizeMiB`, for one suite (its before and after hooks): 5 MiB
 * chunks plus `env`. `mount` stays null and `skip` says why where no tmpfs can be mounted.
 */
export function serverOnTmpfs(sizeMiB: number, env: Record<string, string>) {
  const fx = { mount: null as string | null, skip: '', server: null as unknown as RunningServer };
  before(async () => {
    const made = await mountTmpfs(sizeMiB);
    if (typeof made !== 'string') {
      fx.skip = made.skip;
      return;
    }
    fx.mount = made;
    fx.server = await startServer({ DATA_DIR: made, CHUNK_SIZE_MIB: '5', ...env });
  });
  after(async () => {
    if (!fx.mount) return;
    await fx.server.close();
    await unmountTmpfs(fx.mount);
  });
  return fx;
}
