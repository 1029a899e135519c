#!/usr/bin/env node
// The `webfolder` command for installed use: runs the compiled code (npm run build), and from a
// checkout that was not built, the TypeScript source through tsx. `webfolder serve` starts the
// service (src/main.ts), `webfolder admin` runs the operator's commands on the server's store
// (src/admin/cli.ts); every other command is the client CLI (src/client/cli.ts), which never
// imports server code.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const [command, ...rest] = process.argv.slice(2);
const serve = command === 'serve';
const admin = command === 'admin';
const entry = serve ? 'main' : admin ? 'admin/cli' : 'client/cli';

async function load() {
  const compiled = `${root}dist/${entry}.js`;
  if (existsSync(compiled)) return import(pathToFileURL(compiled).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(`${root}src/${entry}.ts`).href);
}

const module = await load();
if (serve) {
  await module.main(rest).catch(module.failedToStart);
} else if (admin) {
  process.exit(await module.runAdmin(rest));
} else {
  await module.runMain(process.argv.slice(2));
}
