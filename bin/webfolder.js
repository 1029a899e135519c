#!/usr/bin/env node
// The `webfolder` command for installed use: runs the compiled CLI (npm run build), and from a
// checkout that was not built, the TypeScript source through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const compiled = `${root}dist/client/cli.js`;
let cli;
if (existsSync(compiled)) {
  cli = await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(`${root}src/client/cli.ts`).href);
}
await cli.runMain(process.argv.slice(2));
