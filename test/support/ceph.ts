import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './poll.js';
import { freePort } from './server.js';
import { which } from './which.js';

/**
 * A throwaway Ceph cluster whose RADOS Gateway is the S3 of the tests: a real, signature-checking S3
 * (SigV4 in headers and presigned query strings, the exact Content-Length, expiry), from Debian's
 * `ceph-mon`, `ceph-osd` and `radosgw` packages.
 *
 * One monitor and one OSD on `memstore` (objects live in the OSD's memory), pool size 1, no manager,
 * cephx off inside the cluster (radosgw still checks every S3 signature), radosgw's beast frontend on
 * 127.0.0.1, and one S3 user from `radosgw-admin user create`. `paxos propose interval` keeps the
 * monitor from batching for a second per change (a start of ~3 s instead of ~15 s), and `ms mon
 * client mode = crc` is what lets radosgw talk to a monitor without cephx. Everything lives under
 * one temporary directory, removed at stop.
 */
export interface CephCluster {
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Stops radosgw (the S3 endpoint refuses connections); the cluster and its objects stay. */
  haltGateway(): Promise<void>;
  /** Starts radosgw again on the same port; resolves once it answers. */
  resumeGateway(): Promise<void>;
  /** Kills every daemon and removes the directory; synchronous, so it can run in an exit hook. */
  destroy(): void;
}

const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'monmaptool', 'ceph-authtool'];

/** The Ceph binaries that are missing (empty when a cluster can be started). */
export function missingCephBinaries(): string[] {
  return BINARIES.filter((b) => !which(b));
}

/**
 * Starts the cluster; bounded by `timeoutMs` as a whole. `onCleanup` gets the clean-up at once, before
 * any daemon runs, so that an exit hook can remove a cluster whose start was cut short.
 */
export async function startCeph(onCleanup: (destroy: () => void) => void, timeoutMs = 90_000): Promise<CephCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'webfolder-ceph-'));
  for (const sub of ['mon', 'osd', 'run', 'log']) mkdirSync(join(dir, sub));
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = randomUUID();
  const conf = join(dir, 'ceph.conf');
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
osd objectstore = memstore
memstore device bytes = 4294967296
osd crush chooseleaf type = 0
paxos propose interval = 0.05
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
keyring = ${dir}/keyring
[mon.a]
mon data = ${dir}/mon
[osd.0]
osd data = ${dir}/osd
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
  );
  const daemons = new Map<string, ChildProcess>();
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1000, deadline - Date.now());
  const destroy = () => {
    for (const child of daemons.values()) child.kill('SIGKILL');
    daemons.clear();
    rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(destroy);
  /** Runs a command to completion, within what is left of the start's time. */
  const run = (command: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), left());
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(out);
        else reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${out.slice(-2000)}`));
      });
    });
  const daemon = (name: string, command: string, args: string[]) => {
    const log = openSync(join(dir, 'log', `${name}.out`), 'a');
    const child = spawn(command, ['-f', '-c', conf, ...args], { cwd: dir, stdio: ['ignore', log, log] });
    // The daemons do not keep a test file's process alive: its exit hook kills them (services.ts).
    child.unref();
    daemons.set(name, child);
    return child;
  };
  const gatewayAnswers = async () => {
    const gateway = daemons.get('rgw');
    if (!gateway || gateway.exitCode !== null) throw new Error(`radosgw exited: ${tail(join(dir, 'log', 'rgw.out'))}`);
    const res = await fetch(`http://127.0.0.1:${rgwPort}/`).catch(() => null);
    return res !== null;
  };
  try {
    await run('monmaptool', [
      '--create',
      '--addv',
      'a',
      `[v2:127.0.0.1:${monPort}]`,
      '--fsid',
      fsid,
      join(dir, 'monmap'),
    ]);
    await run('ceph-authtool', [
      '--create-keyring',
      join(dir, 'keyring'),
      '--gen-key',
      '-n',
      'mon.',
      '--cap',
      'mon',
      'allow *',
    ]);
    await run('ceph-mon', [
      '-c',
      conf,
      '--mkfs',
      '-i',
      'a',
      '--monmap',
      join(dir, 'monmap'),
      '--keyring',
      join(dir, 'keyring'),
    ]);
    daemon('mon', 'ceph-mon', ['-i', 'a']);
    const osdUuid = randomUUID();
    const osdId = (
      await run('ceph', ['-c', conf, '--connect-timeout', String(Math.ceil(left() / 1000)), 'osd', 'new', osdUuid])
    ).trim();
    await run('ceph-osd', ['-c', conf, '-i', osdId, '--mkfs', '--osd-uuid', osdUuid]);
    daemon('osd', 'ceph-osd', ['-i', osdId]);
    daemon('rgw', 'radosgw', ['-n', 'client.rgw']);
    await until('radosgw to answer', gatewayAnswers, left());
    const accessKeyId = `WF${randomBytes(9).toString('hex').toUpperCase()}`;
    const secretAccessKey = randomBytes(24).toString('base64url');
    await run('radosgw-admin', [
      '-c',
      conf,
      'user',
      'create',
      '--uid=webfolder-test',
      '--display-name=webfolder tests',
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ]);
    return {
      endpoint: `http://127.0.0.1:${rgwPort}`,
      accessKeyId,
      secretAccessKey,
      async haltGateway() {
        const gateway = daemons.get('rgw');
        if (!gateway || gateway.exitCode !== null) return;
        const exited = new Promise((resolve) => gateway.once('exit', resolve));
        gateway.ref(); // waited for: the process must not end before it has
        gateway.kill('SIGKILL');
        await exited;
      },
      async resumeGateway() {
        daemon('rgw', 'radosgw', ['-n', 'client.rgw']);
        await until('radosgw to answer again', gatewayAnswers, 60_000);
      },
      destroy,
    };
  } catch (error) {
    const logs = ['mon', 'osd', 'rgw'].map((n) => `${n}: ${tail(join(dir, 'log', `${n}.out`))}`).join('\n');
    destroy();
    throw new Error(`the Ceph cluster did not start: ${(error as Error).message}\n${logs}`);
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-1500);
  } catch {
    return '(no log)';
  }
}
