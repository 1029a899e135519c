#!/usr/bin/env node
// The `webfolder` command for installed use: runs the compiled code (npm run build), and from a
// checkout that was not built, the TypeScript source through tsx. `webfolder serve` starts the
// service (src/main.ts); every other command is the client CLI (src/client/cli.ts), which never
// imports server code.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const [command, ...rest] = process.argv.slice(2);
const serve = command === 'serve';
const entry = serve ? 'main' : 'client/cli';

async function load() {
  const compiled = `${root}dist/${entry}.js`;
  if (existsSync(compiled)) return import(pathToFileURL(compiled).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(`${root}src/${entry}.ts`).href);
}

const module = await load();
if (serve) {
  try {
    await module.main(rest);
  } catch (error) {
    process.stderr.write(`webfolder: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  }
} else {
  await module.runMain(process.argv.slice(2));
}
