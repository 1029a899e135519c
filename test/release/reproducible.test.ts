import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../support/server.js';

/**
 * The site build is reproducible: two clean trees of the same sources (at paths of different
 * lengths, node_modules linked to this one's, as the lockfile installs it) build the page, the docs
 * site and the site manifest, and every file of dist/web, dist/docs-site and dist/site-manifest.json
 * has the same SHA-256 in both. The builds run one after the other (two Vite builds and two docs
 * builds: a few seconds of one core each).
 */
const ROOT = new URL('../../', import.meta.url).pathname;

/** The sources as they are in this tree (tracked files and new ones not ignored), copied to `into`. */
function copyTree(into: string): void {
  const files = execFileSync('git', ['-C', ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && !f.startsWith('test/') && !f.startsWith('bench/'));
  for (const file of files) {
    const target = join(into, file);
    mkdirSync(dirname(target), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), target);
    } catch (error) {
      // A file deleted in the work tree but not yet in the index.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'));
}

function build(tree: string): void {
  const env = { ...process.env, WEBFOLDER_COMMIT: 'reproducible-build-test' };
  const tsx = ['--import', import.meta.resolve('tsx')];
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: tree, env, stdio: 'pipe' });
  run([join(tree, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);
  run([...tsx, 'src/docs/build.ts']);
  run([...tsx, 'src/release/build-manifest.ts']);
}

/** Every file under `tree`'s built site, by its path there, with its SHA-256. */
function hashes(tree: string): Map<string, string> {
  const out = new Map<string, string>();
  const dist = join(tree, 'dist');
  for (const top of ['web', 'docs-site']) {
    for (const entry of readdirSync(join(dist, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      out.set(relative(dist, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
    }
  }
  out.set(
    'site-manifest.json',
    createHash('sha256')
      .update(readFileSync(join(dist, 'site-manifest.json')))
      .digest('hex'),
  );
  return out;
}

test('two clean builds of the same sources are byte for byte the same', { timeout: 600_000 }, async () => {
  const a = await tempDir('webfolder-build-a-');
  const b = await tempDir('webfolder-build-bb-');
  try {
    const trees = [join(a, 'tree'), join(b, 'a', 'deeper', 'checkout')];
    for (const tree of trees) {
      copyTree(tree);
      build(tree);
    }
    const [first, second] = trees.map(hashes) as [Map<string, string>, Map<string, string>];
    assert.ok(first.size > 20, `the build wrote its files (${first.size})`);
    assert.ok(
      [...first.keys()].some((f) => f.startsWith('web/assets/') && f.endsWith('.js')),
      'the page is among them',
    );
    assert.ok(
      [...first.keys()].some((f) => f.startsWith('docs-site/_assets/') && f.endsWith('.js')),
      "the docs' scripts are among them",
    );
    const differing = [...new Set([...first.keys(), ...second.keys()])]
      .filter((f) => first.get(f) !== second.get(f))
      .sort();
    assert.deepEqual(differing, [], 'files that differ between the two builds');
    // No absolute path of either tree made it into a file.
    for (const tree of trees)
      for (const f of first.keys())
        assert.ok(
          !readFileSync(join(tree, 'dist', f)).includes(tree),
          `${f} holds the path of the tree it was built in`,
        );
  } finally {
    await rm(a, { recursive: true, force: true });
    await rm(b, { recursive: true, force: true });
  }
});
