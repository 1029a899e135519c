import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The Node arguments that run one of the service's entries (`main`: the server, `client/cli`,
 * `admin/cli`) in a child process: the build (dist/, what an installed copy runs) when the run says
 * it was just built (TEST_AGAINST_BUILD=1: scripts/test.sh's parts, which run after `npm run build`
 * or against the build there is, as the site's files already do), otherwise the TypeScript source
 * through tsx, so that a file run on its own after an edit never tests a stale build. The build
 * starts in half the CPU (nothing to compile), and the suite starts hundreds of these.
 */
export function entryArgv(entry: 'main' | 'client/cli' | 'admin/cli'): string[] {
  if (process.env.TEST_AGAINST_BUILD === '1') return [join(ROOT, 'dist', `${entry}.js`)];
  return ['--import', import.meta.resolve('tsx'), join(ROOT, 'src', `${entry}.ts`)];
}
