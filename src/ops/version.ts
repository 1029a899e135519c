import { readFileSync } from 'node:fs';

/**
 * The running build's version, from the package.json two folders up (src/ops/ under tsx, dist/ops/
 * when built, and the same in an installed package or the container image, which all ship it).
 */
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (pkg.name === 'webfolder' && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // Not shipped: unknown rather than a failed start.
  }
  return 'unknown';
}

export const VERSION = readVersion();
