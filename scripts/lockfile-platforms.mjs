#!/usr/bin/env node
// Adds Biome's platform binaries that npm left out of package-lock.json (`npm run lockfile:platforms`).
//
// Why: the npm registry these machines reach does not serve every platform package of @biomejs/biome
// (darwin, win32, musl and android builds are missing), so `npm install` cannot resolve them and drops
// them from the lockfile, and `npm ci` then refuses the lockfile as out of sync with package.json. The
// entries only need to exist: npm skips an optional package built for another platform without
// fetching it. The os/cpu/libc of each come from its name, the version from @biomejs/biome's own entry.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const biome = packages['node_modules/@biomejs/biome'];
if (!biome) process.exit(0);

const added = [];
for (const [name, version] of Object.entries(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (packages[key]) continue;
  const match = /^@biomejs\/cli-(\w+)-(\w+?)(?:-(musl))?$/.exec(name);
  if (!match) throw new Error(`unexpected Biome platform package name: ${name}`);
  const [, os, cpu, musl] = match;
  packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    ...(os === 'linux' ? { libc: [musl ? 'musl' : 'glibc'] } : {}),
    license: biome.license,
    optional: true,
    os: [os],
    engines: biome.engines,
  };
  added.push(name);
}
if (added.length === 0) process.exit(0);
// npm keeps the entries sorted by path; the root package ('') stays first.
const sorted = Object.keys(packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0));
lock.packages = Object.fromEntries(sorted.map((k) => [k, packages[k]]));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added.join(', ')}`);
