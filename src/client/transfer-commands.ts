import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkNote, type UploadEvent, type UploadResult } from '../transfer/direct-upload.js';
import { InputError } from '../transfer/errors.js';
import { parseShareLink, type UploadState } from '../transfer/state.js';
import { createFolder, getUploadStatus, type Mode } from '../transfer/v2.js';
import {
  concurrencyOf,
  EXIT,
  expiresOf,
  type Flags,
  httpOf,
  type Io,
  maxDownloadsOf,
  modeOf,
  ownerOf,
  passwordOf,
  serverOf,
  UsageError,
} from './cli-common.js';
import {
  defaultStateDir,
  diskFiles,
  download,
  latestStateFile,
  readStateFile,
  removeStateFile,
  resume,
  upload,
  writeStateFile,
} from './node/index.js';
import { saveOwned } from './node/owned.js';
import { emailStatusLine, type NotificationSettings } from './notify.js';
import { ownerClient } from './owner-commands.js';
import { formatBytes, ProgressView } from './progress.js';

/**
 * The transfer commands of `webfolder` (src/client/cli.ts dispatches to them): upload, resume,
 * status, download, create and notify, over the transfer core and the Node adapters. The owner's
 * commands are in ./owner-commands.ts.
 */

function progressFor(flags: Flags, io: Io): { onProgress?: (e: UploadEvent) => void; view: ProgressView | null } {
  if (flags.quiet) return { view: null };
  const view = new ProgressView(io.stderr, io.stderr.isTTY === true && io.stdout.isTTY === true && !flags.json);
  return { view, onProgress: (e) => view.handle(e) };
}

/**
 * The result on stdout: the share link (the one secret the user asked for), and for a `request`
 * folder also its `uploadAuth`. In request mode only the owner lists and downloads, and the owner of
 * a folder made by direct upload is whoever holds `uploadAuth`; the state file that kept it is removed
 * once the upload is complete, so without printing it no one could ever read the folder. In the other
 * modes the link is all anyone needs and `uploadAuth` stays unprinted.
 */
function printResult(
  result: UploadResult,
  mode: Mode | undefined,
  flags: Flags,
  io: Io,
  settings: Settings = {},
): void {
  const ownerToken = mode === 'request' ? result.uploadAuth : null;
  if (flags.json) {
    const out = {
      link: result.link,
      folderId: result.folderId,
      folderUrl: result.folderUrl,
      files: result.files,
      chunksSent: result.chunksSent,
      ...(ownerToken ? { uploadAuth: ownerToken } : {}),
      ...settings,
    };
    io.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  io.stdout.write(`${result.link}\n`);
  if (ownerToken) {
    io.stdout.write(`owner token: ${ownerToken}\n`);
    if (!flags.quiet)
      io.stderr.write(
        `request folder: visitors with the link can upload; only the owner token lists and downloads (webfolder download <link> --upload-auth=<token>). Keep it; it cannot be recovered.\n`,
      );
  }
  if (flags.quiet) return;
  const said = [
    settings.expiresAt !== undefined && `available until ${new Date(settings.expiresAt).toISOString()}`,
    settings.maxDownloads !== undefined &&
      `${settings.maxDownloads} download${settings.maxDownloads === 1 ? '' : 's'} per file`,
    settings.password && 'password set: recipients need the link and the password (tell it another way)',
    settings.note && 'note set (encrypted like the names)',
  ].filter(Boolean);
  if (said.length > 0) io.stderr.write(`${said.join('; ')}\n`);
}

/** What upload set besides the files, echoed in its result. */
interface Settings {
  readonly expiresAt?: number;
  readonly maxDownloads?: number;
  readonly password?: true;
  readonly note?: true;
}

export async function uploadCommand(paths: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
  if (paths.length === 0)
    throw new UsageError('upload needs at least one file or directory: webfolder upload <paths...>');
  const server = serverOf(flags, io);
  const mode = modeOf(flags);
  const concurrency = concurrencyOf(flags);
  const expires = expiresOf(flags);
  const maxDownloads = maxDownloadsOf(flags);
  const note = flags.note?.trim() || undefined;
  checkNote(note);
  const passwordSource = passwordOf(flags, io, 'new');
  if (passwordSource && mode === 'request')
    throw new UsageError('a request folder cannot have a password: its files are sealed to the owner instead');
  const { files, skippedEmpty } = await diskFiles(paths);
  if (skippedEmpty.length > 0 && !flags.quiet)
    io.stderr.write(`left out ${skippedEmpty.length} empty file(s): the service takes files of at least 1 byte\n`);
  const password = typeof passwordSource === 'function' ? await passwordSource() : passwordSource;
  const settings: Settings = {
    ...(expires !== undefined ? { expiresAt: Date.now() + expires } : {}),
    ...(maxDownloads !== undefined ? { maxDownloads } : {}),
    ...(password ? { password: true as const } : {}),
    ...(note ? { note: true as const } : {}),
  };
  const stateDir = defaultStateDir(io.env);
  let statePath: string | null = flags.state ? resolve(flags.state) : null;
  const { view, onProgress } = progressFor(flags, io);
  try {
    const result = await upload(files, {
      server,
      ...(flags.title !== undefined ? { title: flags.title } : {}),
      ...(mode ? { mode } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(onProgress ? { onProgress } : {}),
      ...(settings.expiresAt !== undefined ? { expiresAt: settings.expiresAt } : {}),
      ...(maxDownloads !== undefined ? { maxDownloads } : {}),
      ...(password ? { password } : {}),
      ...(note ? { note } : {}),
      ...httpOf(flags, io),
      signal,
      onState: async (state) => {
        statePath ??= join(stateDir, `${state.folderId}.json`);
        await writeStateFile(statePath, state);
        // Kept after the upload too: `webfolder delete` and `info` find the owner credential here.
        await saveOwned(stateDir, {
          folderId: state.folderId,
          folderUrl: state.folderUrl,
          uploadAuth: state.uploadAuth,
          createdAt: Date.now(),
        });
        if (!flags.quiet) io.stderr.write(`folder ${state.folderId} registered; resume state in ${statePath}\n`);
      },
    });
    view?.finish();
    if (statePath) await removeStateFile(statePath);
    printResult(result, mode, flags, io, settings);
    return EXIT.OK;
  } catch (error) {
    if (statePath && existsSync(statePath))
      io.stderr.write(`the upload is not finished; continue it with: webfolder resume ${statePath}\n`);
    throw error;
  }
}

export async function resumeCommand(args: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
  if (args.length > 1) throw new UsageError('resume takes at most one state file');
  const statePath = args[0]
    ? resolve(args[0])
    : flags.state
      ? resolve(flags.state)
      : await latestStateFile(defaultStateDir(io.env));
  if (!statePath)
    throw new InputError(`no interrupted upload found in ${defaultStateDir(io.env)}: give the state file`);
  const state = await readStateFile(statePath);
  const concurrency = concurrencyOf(flags);
  const { view, onProgress } = progressFor(flags, io);
  if (!flags.quiet) io.stderr.write(`resuming folder ${state.folderId} from ${statePath}\n`);
  const result = await resume(state, {
    ...(flags.server ? { server: serverOf(flags, io) } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(onProgress ? { onProgress } : {}),
    ...httpOf(flags, io),
    signal,
  });
  view?.finish();
  await removeStateFile(statePath);
  printResult(result, state.mode, flags, io);
  return EXIT.OK;
}

interface StatusRow {
  name: string | null;
  fileId: string;
  complete: boolean;
  missing: number[];
  chunks: number | null;
}

export async function statusCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1)
    throw new UsageError('status takes one argument: a share link, folderId/fileId, or a state file');
  const target = args[0]!;
  let server = serverOf(flags, io);
  let folderId: string;
  let rows: StatusRow[];
  const fromState = async (state: UploadState) => {
    server = flags.server ? server : state.server;
    return Promise.all(
      state.files.map(async (f) => {
        const s = await getUploadStatus({
          server,
          folderId: state.folderId,
          fileId: f.fileId,
          uploadAuth: state.uploadAuth,
          ...httpOf(flags, io),
        });
        return { name: f.name, fileId: f.fileId, complete: s.complete, missing: s.missing, chunks: f.chunks };
      }),
    );
  };
  if (/^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/.test(target) && !existsSync(target)) {
    const [folder, fileId] = target.split('/') as [string, string];
    folderId = folder;
    const s = await getUploadStatus({ server, folderId, fileId, ...httpOf(flags, io) });
    rows = [{ name: null, fileId, complete: s.complete, missing: s.missing, chunks: null }];
  } else if (/^https?:\/\//.test(target)) {
    const link = parseShareLink(target);
    folderId = link.folderId;
    const statePath = join(defaultStateDir(io.env), `${folderId}.json`);
    if (existsSync(statePath)) {
      rows = await fromState(await readStateFile(statePath));
    } else {
      // No local state: the files of the folder come from the site's listing (it needs the secret to read the names).
      const { listFolder } = await import('./node/download.js');
      const password = passwordOf(flags, io, 'open');
      const listing = await listFolder(target, {
        ...(flags.server ? { site: server } : {}),
        ...(await ownerOf(target, flags, io)),
        ...(password !== undefined ? { password } : {}),
        ...httpOf(flags, io),
      });
      folderId = listing.folderId;
      rows = listing.files.map((f) => ({
        name: f.name,
        fileId: f.fileId,
        complete: f.complete,
        missing: [],
        chunks: f.chunks,
      }));
    }
  } else {
    const state = await readStateFile(resolve(target));
    folderId = state.folderId;
    rows = await fromState(state);
  }
  const complete = rows.every((r) => r.complete);
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ folderId, complete, files: rows })}\n`);
  } else {
    io.stdout.write(`folder ${folderId}: ${complete ? 'complete' : 'incomplete'}\n`);
    for (const r of rows) {
      const label = r.name ?? r.fileId;
      const detail = r.complete
        ? 'complete'
        : r.missing.length > 0
          ? `${r.missing.length}${r.chunks ? `/${r.chunks}` : ''} chunks missing`
          : 'incomplete';
      io.stdout.write(`  ${label}  ${detail}\n`);
    }
  }
  return EXIT.OK;
}

export async function downloadCommand(args: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
  if (args.length < 1 || args.length > 2) throw new UsageError('download takes a share link and an optional directory');
  const [link, dir = '.'] = args as [string, string?];
  const password = passwordOf(flags, io, 'open');
  const result = await download(link, resolve(dir ?? '.'), {
    // The link names the site it lives on; --server overrides it (a site behind another address).
    ...(flags.server ? { site: serverOf(flags, io) } : {}),
    // The owner's credential, when this machine made the folder (or it is given): owners' downloads
    // are not counted, and a request folder's files open only for them.
    ...(await ownerOf(link, flags, io)),
    ...(password !== undefined ? { password } : {}),
    ...httpOf(flags, io),
    signal,
    ...(flags.quiet || flags.json
      ? {}
      : {
          onFile: (f: { name: string; size: number; path: string }) =>
            io.stderr.write(`saved ${f.path} (${formatBytes(f.size)})\n`),
          onWaiting: waitingLine(io),
        }),
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(result)}\n`);
  else if (!flags.quiet) io.stdout.write(`${result.files.length} file(s) saved to ${result.directory}\n`);
  const limited = result.skipped.filter((f) => f.code === 'download_limit_reached');
  for (const f of limited)
    io.stderr.write(`webfolder: "${f.name}" was not downloaded: its download limit is used up (the owner set it)\n`);
  return limited.length > 0 ? EXIT.SERVER : EXIT.OK;
}

/** A file still being uploaded: one line each time the download waits for another chunk. */
function waitingLine(io: Io): (f: { name: string; chunk: number; chunks: number }) => void {
  let last = '';
  return (f) => {
    const line = `waiting for "${f.name}": chunk ${f.chunk} of ${f.chunks} is still being uploaded\n`;
    if (line !== last) io.stderr.write(line);
    last = line;
  };
}

export async function createCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length > 0)
    throw new UsageError('create takes no files: it makes an empty folder for someone to upload into in the browser');
  const mode = modeOf(flags);
  const created = await createFolder({
    server: serverOf(flags, io),
    ...(flags.title !== undefined ? { title: flags.title } : {}),
    ...(mode ? { mode } : {}),
    ...httpOf(flags, io),
  });
  if (flags.json) io.stdout.write(`${JSON.stringify(created)}\n`);
  else {
    io.stdout.write(`${created.folderUrl}\n`);
    if (!flags.quiet)
      io.stderr.write(
        `open this link in a browser and upload within ${created.uploadRequiredWithinHours} hours; then share the same link\n`,
      );
  }
  return EXIT.OK;
}

export async function notifyCommand(args: string[], flags: Flags, io: Io): Promise<number> {
  if (args.length !== 1) throw new UsageError('notify needs the folder link: webfolder notify <link>');
  // The secret after # is not needed here, so a link without it is taken too.
  const link = args[0]!.includes('#') ? args[0]! : `${args[0]!}#-`;
  const client = await ownerClient('notify', link, flags, io);
  const orNull = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);
  let settings: NotificationSettings | null;
  if (flags.off) {
    await client.clearNotifications();
    settings = null;
  } else if (flags.email === undefined && flags['webhook-url'] === undefined && flags.on === undefined) {
    settings = await client.notifications();
  } else {
    const on = flags.on === undefined ? undefined : flags.on.split(',').map((x) => x.trim());
    if (on && !on.every((x) => ['download', 'upload', 'none'].includes(x)))
      throw new UsageError('--on takes download, upload, both separated by a comma, or none');
    const email = orNull(flags.email);
    const webhookUrl = orNull(flags['webhook-url']);
    settings = await client.setNotifications({
      ...(email !== undefined ? { email } : {}),
      ...(webhookUrl !== undefined ? { webhookUrl } : {}),
      ...(on ? { onDownload: on.includes('download'), onUpload: on.includes('upload') } : {}),
    });
  }
  if (flags.json) io.stdout.write(`${JSON.stringify(settings ?? { off: true })}\n`);
  else if (!settings) io.stdout.write('notifications off\n');
  else {
    const events = [settings.onDownload && 'downloads', settings.onUpload && 'uploads'].filter(Boolean).join(' and ');
    io.stdout.write(
      `notify of: ${events || 'nothing'}\ne-mail: ${settings.email ?? 'none'}\nwebhook: ${settings.webhookUrl ?? 'none'}\n`,
    );
    if (settings.webhookSecret) io.stdout.write(`webhook secret: ${settings.webhookSecret}\n`);
    io.stdout.write(emailStatusLine(settings));
  }
  return EXIT.OK;
}
