import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deleteFolderNow } from '../app/admin/delete.js';
import { NO_ACTOR, recordAudit } from '../app/audit.js';
import { composeServices, type Services } from '../app/services.js';
import { SigningKeys } from '../app/signing-keys.js';
import { openBlobStore, openMetadataStore, resolveSigningSecret } from '../backends.js';
import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { isId } from '../domain/ids.js';
import { folderIdInLink } from '../domain/links.js';
import { createNotifier } from '../notify/notifier.js';
import { diskStatus } from '../ops/disk.js';
import type { FolderSummary } from '../store/ops-store.js';
import { BackupError, backup } from './backup.js';

/**
 * `webfolder admin list|show|delete|stats|backup`: the operator's commands on the server's own machine,
 * reading the store the server is configured with (the same variables and flags: DATA_DIR,
 * DATABASE_URL, S3_*). Server-side code: the client CLI never imports it; bin/webfolder.js
 * dispatches `admin` here.
 */
const USAGE = `Usage:
  webfolder admin list [--limit 50] [--before <epoch ms>] [--json]   newest folders first
  webfolder admin show <folderId | link> [--json]                     a folder and its files
  webfolder admin delete <folderId | link> [--json]                   take a folder down now (bytes and record)
  webfolder admin stats [--json]                                      totals, usage, quotas, notifications
  webfolder admin backup <dir> [--json]                               online backup of DATA_DIR into an empty folder

The store is the one the server uses: set the same DATA_DIR / DATABASE_URL / S3_* (environment or
--data-dir, --database-url, ... flags, as in docs/configuration.md).
Exit codes: 0 ok, 1 failure, 2 usage or configuration error, 3 no such folder.`;

export interface AdminIo {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

class Usage extends Error {}

/** The folder id in an id or a share link (`…/f/<id>#key`). */
export function folderIdOf(arg: string | undefined): string {
  if (!arg) throw new Usage('give a folder id or a share link');
  const fromLink = folderIdInLink(arg);
  const id = fromLink ?? arg;
  if (!isId(id)) throw new Usage(`"${arg}" is not a folder id (16 characters) or a share link`);
  return id;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const size = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GiB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
      : bytes >= 1024
        ? `${(bytes / 1024).toFixed(1)} KiB`
        : `${bytes} B`;
const ownerOf = (f: { ownerTokenHash: string | null; uploadAuthHash: string | null }) =>
  f.ownerTokenHash ? 'browser' : f.uploadAuthHash ? 'uploadAuth' : 'none';

function summary(f: FolderSummary) {
  return {
    folderId: f.id,
    mode: f.mode,
    flow: f.flow,
    title: f.title,
    createdAt: iso(f.createdAt),
    deleteAfter: iso(f.deleteAfter),
    owner: ownerOf(f),
    files: f.files,
    bytes: f.bytes,
  };
}

export async function runAdmin(argv: readonly string[], io: AdminIo = process): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`webfolder admin: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { command, args, json, limit, before, configFlags } = parsed;
  if (command === 'help' || command === undefined) {
    io.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  let config: Config;
  try {
    config = loadConfig(io.env, configFlags);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`webfolder admin: invalid configuration: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const out = (human: string, data: unknown) =>
    io.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human}\n`);
  const clock = () => Date.now() + config.clockOffsetSeconds * 1000;
  const store = await openMetadataStore(config);
  const signingSecret = await resolveSigningSecret(config);
  const blobs = await openBlobStore(config, clock, signingSecret);
  try {
    switch (command) {
      case 'list': {
        const folders = (await store.listings.listFolders(limit, before)).map(summary);
        const lines = folders.map(
          (f) =>
            `${f.folderId}  ${f.createdAt}  ${f.mode.padEnd(7)} ${f.flow.padEnd(6)} ${String(f.files).padStart(5)} files ${size(f.bytes).padStart(10)}  owner: ${f.owner.padEnd(10)} ${JSON.stringify(f.title)}`,
        );
        out(lines.length ? lines.join('\n') : 'no folders', { folders });
        return 0;
      }
      case 'show': {
        const folderId = folderIdOf(args[0]);
        const folder = await store.getFolder(folderId);
        if (!folder) {
          io.stderr.write(`webfolder admin: no folder ${folderId}\n`);
          return 3;
        }
        const files = await store.listFiles(folderId);
        const notifications = await store.notificationSettings.getFolderNotifications(folderId);
        const data = {
          folderId,
          mode: folder.mode,
          flow: folder.flow,
          title: folder.title,
          createdAt: iso(folder.createdAt),
          deleteAfter: iso(folder.deleteAfter),
          owner: ownerOf(folder),
          // Whether the owner asked for notifications, not where to: the address is the owner's.
          notifications: notifications
            ? { email: notifications.email !== null, webhook: notifications.webhookUrl !== null }
            : null,
          files: files.map((f) => ({
            fileId: f.id,
            size: f.filesize,
            chunks: f.chunks,
            createdAt: iso(f.createdAt),
            completedAt: f.completedAt === null ? null : iso(f.completedAt),
            expiresAt: iso(f.expiresAt),
          })),
        };
        const human = [
          `folder ${folderId}: ${folder.mode}, ${folder.flow}, owner: ${data.owner}, title ${JSON.stringify(folder.title)}`,
          `created ${data.createdAt}, deleted after ${data.deleteAfter}`,
          `notifications: ${notifications ? `e-mail ${data.notifications!.email ? 'on' : 'off'}, webhook ${data.notifications!.webhook ? 'on' : 'off'}` : 'none'}`,
          `${files.length} file(s):`,
          ...data.files.map(
            (f) =>
              `  ${f.fileId}  ${size(f.size).padStart(10)}  ${String(f.chunks).padStart(5)} chunks  ${f.completedAt ? `complete ${f.completedAt}` : 'incomplete'}  expires ${f.expiresAt}`,
          ),
        ].join('\n');
        out(human, data);
        return 0;
      }
      case 'delete': {
        const folderId = folderIdOf(args[0]);
        const services = composeServices({ config, store, blobs, clock, keys: new SigningKeys(signingSecret) });
        const deleted = await takeDown(services, folderId);
        if (!deleted) {
          io.stderr.write(`webfolder admin: no folder ${folderId} (or it is being deleted already)\n`);
          return 3;
        }
        // The operator at the machine: no account, no address (docs/organisations.md#audit-log).
        await recordAudit(services, { ...NO_ACTOR, action: 'folder.delete', folderId, detail: { by: 'admin-cli' } });
        out(`deleted folder ${folderId} (its bytes and its record)`, { deleted: folderId });
        return 0;
      }
      case 'stats': {
        const usage = await store.byteCounts.usage();
        const outbox = await store.outbox.outboxCounts();
        const disk = await diskStatus(config);
        const data = {
          folders: usage.folders,
          files: usage.files,
          bytes: usage.bytes,
          openUploads: usage.incompleteFiles,
          quota: { totalBytes: config.quotas.totalBytes, folderBytes: config.quotas.folderBytes },
          notifications: outbox,
          store: config.databaseUrl ? 'postgresql' : 'sqlite',
          blobs: config.s3 ? `s3:${config.s3.bucket}` : 'local',
          disk: disk
            ? {
                dataDir: disk.path,
                freeBytes: disk.freeBytes,
                totalBytes: disk.totalBytes,
                floorBytes: disk.floorBytes,
                usableBytes: disk.usableBytes,
              }
            : null,
        };
        const quota = (q: number | null) => (q === null ? 'none' : size(q));
        const human = [
          `folders: ${usage.folders}, files: ${usage.files} (${usage.incompleteFiles} being uploaded)`,
          `stored: ${size(usage.bytes)} registered; quota: ${quota(data.quota.totalBytes)} in total, ${quota(data.quota.folderBytes)} per folder`,
          `notifications: ${outbox.pending} pending, ${outbox.failed} failed`,
          `store: ${data.store}, blobs: ${data.blobs}${disk ? `, disk: ${size(disk.freeBytes)} free of ${size(disk.totalBytes)} at ${disk.path}` : ''}`,
          ...(disk
            ? [
                `disk floor (DISK_FREE_MIN_MIB): ${size(disk.floorBytes)}; uploads may use ${size(disk.usableBytes)} more${disk.usableBytes === 0 && disk.floorBytes > 0 ? ' (below the floor: uploads are refused)' : ''}`,
              ]
            : []),
        ].join('\n');
        out(human, data);
        return 0;
      }
      case 'backup': {
        if (!args[0]) throw new Usage('give the folder to back up into (it must be empty or not exist yet)');
        const report = await backup(config, resolve(args[0]), store.schema.version);
        const blobs =
          typeof report.blobs === 'string' ? report.blobs : `${report.blobs.files} files, ${size(report.blobs.bytes)}`;
        out(
          [
            `backed up into ${report.dir}`,
            `database: ${report.database}`,
            `blobs: ${blobs}`,
            `signing secret: ${report.signingSecret}`,
            "restore: stop the server, empty DATA_DIR, copy this folder's contents into it, start (docs/deployment.md#backup-and-restore)",
          ].join('\n'),
          report,
        );
        return 0;
      }
      default:
        io.stderr.write(`webfolder admin: unknown command "${command}"\n\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    if (error instanceof Usage || error instanceof BackupError) {
      io.stderr.write(`webfolder admin: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`webfolder admin: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  } finally {
    await Promise.allSettled([store.close(), blobs.close()]);
  }
}

/**
 * `delete`: deleteFolderNow (src/app/admin/delete.ts) with this process's own notifier, whose outbox
 * rows the running servers deliver. False when there is no such live folder.
 */
export async function takeDown(services: Services, folderId: string): Promise<boolean> {
  const events =
    services.events ??
    createNotifier(services.config, services.store, services.clock, NO_OBSERVER, () => {}, services.keys);
  return deleteFolderNow({ ...services, events }, folderId);
}

const NO_OBSERVER = { delivered() {}, failed() {}, events() {} };

function parse(argv: readonly string[]) {
  const [command, ...rest] = argv;
  const own: string[] = [];
  const configFlags: string[] = [];
  // The admin's own options; everything else is configuration (loadConfig checks it).
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--json' || a === '--help') own.push(a);
    else if (/^--(limit|before)(=|$)/.test(a)) {
      own.push(a);
      if (!a.includes('=')) own.push(rest[++i] ?? '');
    } else if (a.startsWith('--')) {
      configFlags.push(a);
      if (!a.includes('=') && rest[i + 1] !== undefined && !rest[i + 1]!.startsWith('--')) configFlags.push(rest[++i]!);
    } else own.push(a);
  }
  const { values, positionals } = parseArgs({
    args: own,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean' },
      limit: { type: 'string' },
      before: { type: 'string' },
    },
  });
  const number = (v: string | undefined, name: string, fallback: number | undefined) => {
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v)) throw new Usage(`--${name} must be a whole number`);
    return Number(v);
  };
  return {
    command: values.help ? 'help' : command,
    args: positionals,
    json: values.json === true,
    limit: Math.min(number(values.limit, 'limit', 50)!, 10_000),
    before: number(values.before, 'before', undefined),
    configFlags,
  };
}

const isEntryPoint = process.argv[1]?.endsWith('/admin/cli.js') || process.argv[1]?.endsWith('/admin/cli.ts');
if (isEntryPoint) runAdmin(process.argv.slice(2)).then((code) => process.exit(code));
