import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The path of an executable found on PATH (or in `extraDirs`), or null: how test suites find the programs they drive. */
export function which(name: string, extraDirs: readonly string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extraDirs]) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}
