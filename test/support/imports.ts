import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * The one scan of import statements that the layer tests read (test/unit/layers.test.ts,
 * test/unit/discovery-imports.test.ts, test/unit/client-layers.test.ts): every module a file imports or
 * re-exports, statically or dynamically, type-only imports included (a type import is a dependency
 * of the code's meaning all the same).
 */
export const ROOT = resolve(new URL('../../', import.meta.url).pathname);

/** The TypeScript files under `dir` (relative to the repository), recursively, as absolute paths. */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx|mts)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export interface Import {
  /** As written: `./x.js`, `../domain/ids.js`, `node:fs`, `fastify`. */
  readonly specifier: string;
  /** The absolute path a relative specifier points at (with its `.js`); null for a package. */
  readonly target: string | null;
}

/** What `file` imports or re-exports. */
export async function importsOf(file: string): Promise<Import[]> {
  const text = await readFile(file, 'utf8');
  const specifiers = new Set<string>();
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"`;]*?from\s*['"]([^'"]+)['"]/g)) specifiers.add(m[1]!);
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.add(m[1]!);
  return [...specifiers].map((specifier) => ({
    specifier,
    target: specifier.startsWith('.') ? resolve(dirname(file), specifier) : null,
  }));
}
