import { pathToFileURL } from 'node:url';
import { redactLink } from '../domain/links.js';
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
import {
  COMMAND_OPTIONS,
  DEFAULT_SERVER,
  EXIT,
  type Flags,
  type Io,
  parseCommandLine,
  UsageError,
} from './cli-common.js';
import { activityCommand, deleteCommand, infoCommand, requestCommand, setCommand } from './owner-commands.js';
import {
  createCommand,
  downloadCommand,
  notifyCommand,
  resumeCommand,
  statusCommand,
  uploadCommand,
} from './transfer-commands.js';
import { verifySiteCommand } from './verify-site.js';

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
  webfolder verify-site <site URL> [--manifest FILE] [--release-key FILE] [--page FILE] [--json]
  webfolder serve [--port 8080 --data-dir ./data ...]   (starts the service; flags as in docs/configuration.md)

Files are encrypted on this machine before they leave it; the key exists only in the share link
(after "#"). A path may be a directory: its files are uploaded with their paths inside it
(photos/2024/a.jpg; empty files are left out). A relative path keeps its folders in the name
(a/b.txt), and download recreates them. One upload makes one folder of any number of files, up
to the server's limit per folder (MAX_FILES_PER_FOLDER, 10,000 by default), as the site does.

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
  --api-key-file F   an API key of your account on the server (made on its site, under Account),
                     from the first line of file F; or set $WEBFOLDER_API_KEY. Sent to the
                     server's own address only. Needed where only signed-in people make folders
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
  --manifest FILE    verify-site: the release's site manifest to compare with (default: the
                     installed package's, when the instance claims its version)
  --release-key F    verify-site: also trust manifests signed by this Ed25519 public key (PEM)
  --page FILE        verify-site: also check a saved copy of the page (or only it, without a URL)
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
  webfolder verify-site https://files.example.com   # the instance serves a release's code, byte for byte

Exit codes:
  0 ok, 1 failure, 2 usage or input error (also: a password is needed and none was given),
  3 server refused (also: a download limit used up), 4 network unreachable,
  5 wrong secret or password, or integrity failure (verify-site: 1 when anything differs), 130 interrupted (resume with webfolder resume)
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
      case 'verify-site':
        return await verifySiteCommand(positionals, flags, io);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return report(error, io);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
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
