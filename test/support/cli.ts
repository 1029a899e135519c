import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { entryArgv } from './entries.js';
import { type SpawnedServer, spawnServer, tempDir } from './server.js';

/** The `webfolder` command as a child process (tests of the real entry: exit codes, stdout, stderr). */
const ROOT = new URL('../../', import.meta.url).pathname;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function startCli(
  args: readonly string[],
  env: Record<string, string>,
  options: { readonly script?: string; readonly cwd?: string } = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  // tsx by its resolved address: the child may run in another directory.
  const entry = options.script
    ? ['--import', import.meta.resolve('tsx'), join(ROOT, options.script)]
    : entryArgv('client/cli');
  const argv = [...entry, ...args];
  return startNode(argv, env, options.cwd);
}

/** `webfolder admin …` through the real launcher (bin/webfolder.js: the build), its logs silent unless `env` says. */
export function runAdmin(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return startNode([join(ROOT, 'bin/webfolder.js'), 'admin', ...args], { LOG_LEVEL: 'silent', ...env }).done;
}

/** Node with `argv` in a child process (environment: this one's and `env`), its output collected. */
export function startNode(
  argv: readonly string[],
  env: Record<string, string>,
  cwd = ROOT,
): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, argv, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/** A server child process with a scratch folder, for a file of CLI tests: started before, removed after. */
export interface CliFixture {
  readonly server: SpawnedServer;
  readonly dataDir: string;
  /** Where the tests write their files, and where each CLI user keeps its state directory. */
  readonly dir: string;
  /** The CLI as `who` (the uploader, a recipient…), each with its own state directory, as on its own machine. */
  as(who: string): (...args: string[]) => Promise<CliRun>;
}

export function useCliServer(name: string, env: Record<string, string> = {}): CliFixture {
  // The hooks fill this object in before the tests read it (as useBrowserFixture does).
  const fx = {
    as:
      (who: string) =>
      (...args: string[]) =>
        startCli(args, { WEBFOLDER_SERVER: fx.server.baseUrl, WEBFOLDER_STATE_DIR: join(fx.dir, `state-${who}`) }).done,
  } as { server: SpawnedServer; dataDir: string; dir: string; as: CliFixture['as'] };
  before(async () => {
    fx.dataDir = await tempDir(`webfolder-${name}-data-`);
    fx.dir = await tempDir(`webfolder-${name}-`);
    fx.server = await spawnServer({ DATA_DIR: fx.dataDir, LOG_LEVEL: 'warn', ...env });
  });
  after(async () => {
    await fx.server?.stop();
    await rm(fx.dataDir, { recursive: true, force: true });
    await rm(fx.dir, { recursive: true, force: true });
  });
  return fx;
}
