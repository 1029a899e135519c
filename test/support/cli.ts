import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

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
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(ROOT, options.script ?? 'src/client/cli.ts'), ...args],
    { cwd: options.cwd ?? ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}
