import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkNote, type UploadEvent, type UploadResult, upload } from '../transfer/direct-upload.js';
import {
  AbortedError,
  InputError,
  LocalFileChangedError,
  NetworkError,
  PasswordRequiredError,
  ProtocolError,
  WebfolderClientError,
  WebfolderError,
  WrongSecretError,
} from '../transfer/errors.js';
import { parseShareLink, redactLink, type UploadState } from '../transfer/state.js';
import { createFolder, getUploadStatus, type Mode } from '../transfer/v2.js';
import {
  COMMAND_OPTIONS,
  concurrencyOf,
  DEFAULT_SERVER,
  EXIT,
  expiresOf,
  type Flags,
  httpOf,
  type Io,
  maxDownloadsOf,
  modeOf,
  ownerOf,
  parseCommandLine,
  passwordOf,
  serverOf,
  UsageError,
} from './cli-common.js';
import {
  defaultStateDir,
  diskFile,
  download,
  latestStateFile,
  readStateFile,
  removeStateFile,
  resume,
  writeStateFile,
} from './node/index.js';
import { saveOwned } from './node/owned.js';
import { emailStatusLine, type NotificationSettings } from './notify.js';
import {
  activityCommand,
  deleteCommand,
  infoCommand,
  ownerClient,
  requestCommand,
  setCommand,
} from './owner-commands.js';
import { formatBytes, ProgressView } from './progress.js';

/**
 * The `webfolder` command. `run(argv)` returns the exit code instead of exiting, so tests and the
 * launcher (bin/webfolder.js) share it. Results go to stdout (the share link, or one JSON object
 * with --json); progress, hints and errors go to stderr. Secrets appear only in the share link the
 * user asked for: never in progress lines, errors or hints.
 */
const HELP = `webfolder: end-to-end-encrypted file transfer from the command line

Usage:
  webfolder upload <paths...> [--title T] [--mode send|share|request] [--expires 7d]
                              [--max-downloads N] [--password | --password-file FILE] [--note T]
                              [--server URL] [--concurrency N] [--state FILE] [--json] [--quiet]
  webfolder resume [state-file] [--concurrency N] [--json] [--quiet]
  webfolder status <link | folderId/fileId | state-file> [--password-file FILE] [--server URL] [--json]
  webfolder download <link> [dir] [--password | --password-file FILE] [--upload-auth=TOKEN]
                              [--server URL] [--json] [--quiet]
  webfolder info <link> [--password | --password-file FILE] [--upload-auth=TOKEN] [--json]
  webfolder delete <link> [--file NAME|ID] [--upload-auth=TOKEN] [--json]
  webfolder set <link> [--expires D] [--max-downloads N|none] [--note T|none] [--upload-auth=TOKEN]
  webfolder set <link> --file NAME|ID --max-downloads N|none
  webfolder activity <link> [--upload-auth=TOKEN] [--json]
  webfolder request [--title T] [--expires 7d] [--server URL] [--json]
  webfolder create [--title T] [--mode send|share] [--server URL] [--json]
  webfolder notify <link> [--upload-auth=TOKEN] [--email ADDR|none] [--webhook-url URL|none]
                          [--on download,upload|none] [--off] [--json]
  webfolder serve [--port 8080 --data-dir ./data ...]   (starts the service; flags as in docs/configuration.md)

Files are encrypted on this machine before they leave it; the key exists only in the share link
(after "#"). A folder holds at most 10 files: archive more into one file first. A relative path
keeps its folders in the name (a/b.txt), and download recreates them.

Options:
  --server URL       API and site address (default: $WEBFOLDER_SERVER, else ${DEFAULT_SERVER});
                     a private instance's login goes in it (https://name:password@host: prefer
                     $WEBFOLDER_SERVER, which other users of the machine cannot read in the process list)
  --title T          folder title (up to 200 characters; not encrypted)
  --mode M           send (default), share or request
  --expires D        how long the files stay available: 30m, 12h, 7d, 2w (up to the server's maximum)
  --max-downloads N  downloads allowed per file; the server counts and then refuses
                     (a download is counted when someone starts fetching a file; the owner's are not)
  --password         a password in addition to the link: asked without echo (twice for a new folder);
                     download, info and delete ask on a terminal when the folder has one
  --password-file F  the password from the first line of file F (for scripts)
  --note T           a note to recipients (up to 800 characters), encrypted like the names; the
                     page shows it above the files. set --note none removes it
  --file NAME|ID     delete: only this file (its id, or its name), not the whole folder;
                     set: this file's own download limit (none: the folder's applies)
  --concurrency N    chunks uploaded in parallel (default 4)
  --retries N        retries of a failed request (default 8; exponential backoff with jitter,
                     429 waits for Retry-After); 4xx answers other than 408/429 are not retried,
                     nor a refused first connection ("is the server running at URL?")
  --upload-auth=T    the owner credential of a folder made by a direct upload elsewhere (upload
                     --mode request prints it as "owner token"). Not needed for folders this machine
                     made: upload and request keep their owner credential in the state directory.
                     An owner link (…#secret&owner=…) works in place of the link as well.
                     Write it with "=": a token can begin with "-"
  --email, --webhook-url, --on, --off
                     notify: as the folder's owner, be told by e-mail or at a webhook when someone
                     else downloads or (share/request folders) uploads; --off stops it; with none of
                     them, notify prints the current settings
  --state FILE       where upload keeps its resume state (default: a file per folder in
                     $WEBFOLDER_STATE_DIR, $XDG_STATE_HOME/webfolder or ~/.local/state/webfolder)
  --json             print one JSON object on stdout instead of text
  --quiet            no progress output
  -h, --help         this help; -v, --version: the version

Examples:
  webfolder upload report.pdf photos.zip --title "Q3 report"
  webfolder upload contract.pdf --expires 2d --max-downloads 1 --password
  WEBFOLDER_SERVER=https://files.example.com webfolder upload big.iso --concurrency 8
  webfolder upload data.bin --json | jq -r .link
  webfolder resume                       # finishes the most recent interrupted upload
  webfolder status 'https://files.example.com/f/AbC123#secret'
  webfolder download 'https://files.example.com/f/AbC123#secret' ./received
  webfolder info 'https://files.example.com/f/AbC123#secret'
  webfolder delete 'https://files.example.com/f/AbC123#secret' --file report.pdf
  webfolder set 'https://files.example.com/f/AbC123#secret' --expires 14d --note "Signed copy inside"
  webfolder set 'https://files.example.com/f/AbC123#secret' --file report.pdf --max-downloads 1
  webfolder activity 'https://files.example.com/f/AbC123#secret'
  webfolder request --title "Send me your photos" --expires 7d
  webfolder create --title "Send me the contract" --mode send

Exit codes:
  0 ok, 1 failure, 2 usage or input error (also: a password is needed and none was given),
  3 server refused (also: a download limit used up), 4 network unreachable,
  5 wrong secret or password, or integrity failure, 130 interrupted (resume with webfolder resume)
`;

export async function run(
  argv: readonly string[],
  io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') {
    // The service is started by the `webfolder` launcher (bin/webfolder.js), so that the client
    // never imports server code.
    io.stderr.write('webfolder: serve is started by the webfolder command (bin/webfolder.js serve)\n');
    return EXIT.USAGE;
  }
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (command === '-v' || command === '--version') {
    io.stdout.write(`${await version()}\n`);
    return EXIT.OK;
  }
  let flags: Flags;
  let positionals: string[];
  try {
    if (command.startsWith('-'))
      throw new UsageError(`unknown option ${command}: the command comes first (webfolder <command> ...)`);
    if (!COMMAND_OPTIONS[command]) throw new UsageError(`unknown command "${command}"`);
    ({ flags, positionals } = parseCommandLine(rest, command));
  } catch (error) {
    return report(error, io);
  }
  if (flags.help) {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    switch (command) {
      case 'upload':
        return await uploadCommand(positionals, flags, io, controller.signal);
      case 'resume':
        return await resumeCommand(positionals, flags, io, controller.signal);
      case 'status':
        return await statusCommand(positionals, flags, io);
      case 'download':
        return await downloadCommand(positionals, flags, io, controller.signal);
      case 'create':
        return await createCommand(positionals, flags, io);
      case 'notify':
        return await notifyCommand(positionals, flags, io);
      case 'request':
        return await requestCommand(positionals, flags, io);
      case 'info':
        return await infoCommand(positionals, flags, io);
      case 'delete':
        return await deleteCommand(positionals, flags, io);
      case 'set':
        return await setCommand(positionals, flags, io);
      case 'activity':
        return await activityCommand(positionals, flags, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return report(error, io);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

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

async function uploadCommand(paths: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
  if (paths.length === 0) throw new UsageError('upload needs at least one file: webfolder upload <paths...>');
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
  const files = await Promise.all(paths.map((p) => diskFile(p)));
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

async function resumeCommand(args: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
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

async function statusCommand(args: string[], flags: Flags, io: Io): Promise<number> {
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

async function downloadCommand(args: string[], flags: Flags, io: Io, signal: AbortSignal): Promise<number> {
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

async function createCommand(args: string[], flags: Flags, io: Io): Promise<number> {
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

async function notifyCommand(args: string[], flags: Flags, io: Io): Promise<number> {
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

function report(error: unknown, io: Io): number {
  const say = (text: string) => io.stderr.write(`webfolder: ${text}\n`);
  if (error instanceof UsageError) {
    say(`${error.message} (see webfolder --help)`);
    return EXIT.USAGE;
  }
  if (error instanceof AbortedError) {
    say('interrupted');
    return EXIT.INTERRUPTED;
  }
  if (error instanceof InputError) {
    say(error.message);
    return EXIT.USAGE;
  }
  if (error instanceof PasswordRequiredError) {
    say(
      'this folder has a password: give it with --password-file <path>, or run on a terminal to be asked (--password)',
    );
    return EXIT.USAGE;
  }
  if (error instanceof WebfolderError && error.status === 401) {
    // webfolder itself never answers 401: a reverse proxy in front of a private instance does.
    say(
      `${error.operation}: the server asks for a login (a private instance): give it in the server address, as WEBFOLDER_SERVER=https://name:password@host`,
    );
    return EXIT.SERVER;
  }
  if (error instanceof WebfolderError || error instanceof ProtocolError) {
    say(error.message);
    return EXIT.SERVER;
  }
  if (error instanceof NetworkError) {
    say(error.message);
    return EXIT.NETWORK;
  }
  if (error instanceof WrongSecretError) {
    say(error.message);
    return EXIT.WRONG_SECRET;
  }
  if (error instanceof Error && (error.name === 'IntegrityError' || error.name === 'CryptoFormatError')) {
    say(`integrity check failed: ${error.message} (wrong link, or the data was altered)`);
    return EXIT.WRONG_SECRET;
  }
  if (error instanceof LocalFileChangedError || error instanceof WebfolderClientError) {
    say(error.message);
    return EXIT.FAILURE;
  }
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT.FAILURE;
}

async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(await readFile(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'webfolder') return `webfolder ${pkg.version}`;
    } catch {
      /* try the next layout (source or dist) */
    }
  }
  return 'webfolder';
}

/** Runs the CLI when this module is the entry point (tsx src/client/cli.ts, node dist/client/cli.js). */
export async function runMain(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const code = await run(argv);
  // Let stdout drain before exiting (idle keep-alive sockets would otherwise hold the process a while).
  await new Promise<void>((r) => process.stdout.write('', () => r()));
  process.exit(code);
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) void runMain();

export { DEFAULT_SERVER, EXIT, type Flags, type Io, parseCommandLine, redactLink };
