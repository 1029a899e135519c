import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { distance } from 'fastest-levenshtein';
import { InputError } from '../transfer/errors.js';
import type { Fetch } from '../transfer/retry.js';
import { parseShareLink } from '../transfer/state.js';
import { MODES, type Mode } from '../transfer/v2.js';
import { defaultStateDir, failFast, nodeFetch, withApiKey, withOriginAuthorization } from './node/index.js';
import { readOwned } from './node/owned.js';
import { promptHidden } from './prompt.js';

/**
 * What every `webfolder` command shares: exit codes, the command line (our own checks and
 * messages), the server address, the transport and retry policy, durations and limits, where a
 * password comes from, and the owner credentials this machine keeps (src/client/node/owned.ts).
 */
export const EXIT = {
  OK: 0,
  /** Anything else: an integrity failure, a local file that changed, a bug. */
  FAILURE: 1,
  /** Bad command line or input (unknown flag, missing file, more than 10 files, not a link). */
  USAGE: 2,
  /** The server refused (a 4xx, or a 5xx that outlasted the retries), or answered something unusable. */
  SERVER: 3,
  /** The server could not be reached (after the retries). */
  NETWORK: 4,
  /** The link's secret does not open the folder, or downloaded data failed authentication. */
  WRONG_SECRET: 5,
  /** Interrupted (Ctrl-C); an upload keeps its state file for `webfolder resume`. */
  INTERRUPTED: 130,
} as const;

export const DEFAULT_SERVER = 'http://127.0.0.1:8080';

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env: NodeJS.ProcessEnv;
  /** Where a password prompt reads from (default: process.stdin); prompts need a terminal. */
  readonly stdin?: NodeJS.ReadStream;
}

const OPTIONS = {
  server: { type: 'string' },
  title: { type: 'string' },
  mode: { type: 'string' },
  concurrency: { type: 'string' },
  retries: { type: 'string' },
  'api-key-file': { type: 'string' },
  state: { type: 'string' },
  'upload-auth': { type: 'string' },
  email: { type: 'string' },
  'webhook-url': { type: 'string' },
  on: { type: 'string' },
  off: { type: 'boolean', default: false },
  expires: { type: 'string' },
  'max-downloads': { type: 'string' },
  password: { type: 'boolean', default: false },
  'password-file': { type: 'string' },
  file: { type: 'string' },
  note: { type: 'string' },
  manifest: { type: 'string' },
  'release-key': { type: 'string' },
  page: { type: 'string' },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const satisfies ParseArgsConfig['options'];

export type OptionName = keyof typeof OPTIONS;

/** The flags each command takes besides these, which all take; any other is refused by name. */
const EVERY_COMMAND: readonly OptionName[] = ['server', 'api-key-file', 'retries', 'json', 'quiet', 'help', 'version'];
export const COMMAND_OPTIONS: Record<string, readonly OptionName[]> = {
  upload: ['title', 'mode', 'concurrency', 'state', 'expires', 'max-downloads', 'password', 'password-file', 'note'],
  resume: ['concurrency', 'state'],
  status: ['password', 'password-file'],
  download: ['upload-auth', 'password', 'password-file'],
  create: ['title', 'mode'],
  notify: ['upload-auth', 'email', 'webhook-url', 'on', 'off'],
  delete: ['upload-auth', 'file', 'password', 'password-file'],
  info: ['upload-auth', 'password', 'password-file'],
  set: ['upload-auth', 'expires', 'max-downloads', 'note', 'file', 'password', 'password-file'],
  activity: ['upload-auth', 'password', 'password-file'],
  request: ['title', 'expires'],
  'verify-site': ['manifest', 'release-key', 'page'],
};

export type Flags = {
  server?: string;
  title?: string;
  mode?: string;
  concurrency?: string;
  retries?: string;
  'api-key-file'?: string;
  state?: string;
  'upload-auth'?: string;
  email?: string;
  'webhook-url'?: string;
  on?: string;
  off: boolean;
  expires?: string;
  'max-downloads'?: string;
  password: boolean;
  'password-file'?: string;
  file?: string;
  note?: string;
  manifest?: string;
  'release-key'?: string;
  page?: string;
  json: boolean;
  quiet: boolean;
  help: boolean;
  version: boolean;
};

export class UsageError extends Error {}

/**
 * The flags and operands after the command word; throws a UsageError with our own one-line message
 * (never node:util's text) for an unknown flag, a flag the command does not take, a missing value
 * or a value given to a switch. A value that begins with "-" must be joined with "="
 * (`--upload-auth=-abc`): after a space it is ambiguous (a forgotten value followed by another flag
 * looks the same). Tokens are base64url, so one in 64 begins with "-"; the help and every hint
 * therefore write token flags with "=".
 */
export function parseCommandLine(args: readonly string[], command?: string): { flags: Flags; positionals: string[] } {
  const parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const allowed = command && COMMAND_OPTIONS[command] ? [...EVERY_COMMAND, ...COMMAND_OPTIONS[command]!] : null;
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spec = (OPTIONS as Record<string, { type: 'string' | 'boolean' }>)[token.name];
    if (!spec) throw new UsageError(`unknown option ${token.rawName}${closestOption(token.name)}`);
    if (allowed && !allowed.includes(token.name as OptionName))
      throw new UsageError(`${token.rawName} does not apply to ${command}`);
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
    } else if (token.value === undefined) {
      throw new UsageError(`${token.rawName} needs a value: ${token.rawName}=VALUE`);
    } else if (!token.inlineValue && token.value.startsWith('-')) {
      // The value itself stays out of the message: it may be a token.
      throw new UsageError(
        `the value after ${token.rawName} begins with "-", which is ambiguous: write ${token.rawName}=VALUE`,
      );
    }
  }
  const flags = parsed.values as Flags;
  return { flags, positionals: parsed.positionals };
}

/** " (did you mean --title?)" for a flag one or two typos away from a known one, else "". */
function closestOption(name: string): string {
  if (name.length < 3) return '';
  let best: string | null = null;
  let bestDistance = 3;
  for (const known of Object.keys(OPTIONS)) {
    const d = distance(name, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best ? ` (did you mean --${best}?)` : '';
}

/** The server address as given: --server, else $WEBFOLDER_SERVER, else the default. */
function givenServer(flags: Flags, io: Io): URL {
  const server = flags.server ?? io.env.WEBFOLDER_SERVER ?? DEFAULT_SERVER;
  try {
    const url = new URL(server);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url;
  } catch {
    // Never echo the value: it may hold a password.
    throw new UsageError('--server must be an http(s) URL');
  }
}

/**
 * The server address, without any `user:password@`: a private instance's login (docs/deployment.md)
 * goes only into the Authorization header of requests to that origin (see httpOf), never into a
 * link, a state file or a message.
 */
export function serverOf(flags: Flags, io: Io): string {
  const url = givenServer(flags, io);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

/** `Authorization: Basic` for the server's origin when its address has `user:password@`; else null. */
function serverLogin(flags: Flags, io: Io): { origin: string; authorization: string } | null {
  const url = givenServer(flags, io);
  if (!url.username && !url.password) return null;
  const login = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { origin: url.origin, authorization: `Basic ${Buffer.from(login, 'utf8').toString('base64')}` };
}

export function modeOf(flags: Flags): Mode | undefined {
  if (flags.mode === undefined) return undefined;
  if (!(MODES as readonly string[]).includes(flags.mode))
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}`);
  return flags.mode as Mode;
}

export function concurrencyOf(flags: Flags): number | undefined {
  if (flags.concurrency === undefined) return undefined;
  const n = Number(flags.concurrency);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new UsageError('--concurrency must be a whole number from 1 to 64');
  return n;
}

/**
 * The API key of a signed-in person: the first line of --api-key-file, else
 * $WEBFOLDER_API_KEY; null when neither is given. Sent only to the server's own origin (httpOf).
 * A file or the environment, never a flag's value: other users of the machine can read a command line.
 */
function apiKeyOf(flags: Flags, io: Io): string | null {
  let raw: string | undefined;
  const file = flags['api-key-file'];
  if (file !== undefined) {
    try {
      raw = readFileSync(file, 'utf8').split(/\r?\n/)[0];
    } catch {
      throw new UsageError(`--api-key-file: cannot read ${file}`);
    }
  } else raw = io.env.WEBFOLDER_API_KEY;
  if (raw === undefined || raw.trim() === '') return null;
  return raw.trim();
}

/** One fail-fast transport per command run (keyed by its parsed flags): see failFast. */
const transports = new WeakMap<Flags, Fetch>();

/**
 * The transport and retry policy of every call a command makes: fail-fast on a server that was
 * never reached, and the private instance's login (if the server address has one) on requests to
 * the server's own origin only: never on presigned URLs of object storage or any other origin.
 */
export function httpOf(flags: Flags, io: Io): { fetch: Fetch; retry?: { retries: number } } {
  let fetch = transports.get(flags);
  if (!fetch) {
    const login = serverLogin(flags, io);
    const key = apiKeyOf(flags, io);
    if (login && key)
      throw new UsageError(
        'an API key and a login in the server address both need the Authorization header: give one of them',
      );
    const origin = givenServer(flags, io).origin;
    fetch = failFast(
      login
        ? withOriginAuthorization(nodeFetch, login.origin, login.authorization)
        : key
          ? withApiKey(nodeFetch, origin, key)
          : nodeFetch,
    );
    transports.set(flags, fetch);
  }
  if (flags.retries === undefined) return { fetch };
  const n = Number(flags.retries);
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError('--retries must be a whole number from 0 to 100');
  return { fetch, retry: { retries: n } };
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--expires`: a duration like `30m`, `12h`, `7d` or `2w`, in milliseconds; undefined when not given. */
export function expiresOf(flags: Flags): number | undefined {
  if (flags.expires === undefined) return undefined;
  const m = /^(\d{1,6})([mhdw])$/.exec(flags.expires.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2]!]! : 0;
  if (ms <= 0) throw new UsageError(`--expires takes a duration such as 30m, 12h, 7d or 2w, got "${flags.expires}"`);
  return ms;
}

/** `--max-downloads`: a whole number from 1 to 1,000,000 (the server's bounds). */
export function maxDownloadsOf(flags: Flags): number | undefined {
  if (flags['max-downloads'] === undefined) return undefined;
  const n = Number(flags['max-downloads']);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new UsageError('--max-downloads must be a whole number from 1 to 1000000');
  return n;
}

/**
 * Where a password comes from: `--password-file <path>` (its first line), or a prompt without echo
 * (`--password`, or, reading a folder, asked when the folder turns out to have one and stdin is a
 * terminal). A new folder's password is asked twice. Undefined: none can be had (a folder with a
 * password then fails with PasswordRequiredError, which the CLI reports as a usage error).
 */
export function passwordOf(
  flags: Flags,
  io: Io,
  purpose: 'new' | 'open',
): string | (() => Promise<string>) | undefined {
  if (flags.password && flags['password-file'] !== undefined)
    throw new UsageError('give --password (a prompt) or --password-file, not both');
  if (flags['password-file'] !== undefined) {
    const path = flags['password-file'];
    return async () => readPasswordFile(path);
  }
  const stdin = io.stdin ?? process.stdin;
  if (!stdin.isTTY) {
    if (flags.password)
      throw new UsageError('--password asks on a terminal, and stdin is not one: use --password-file <path>');
    return undefined;
  }
  if (purpose === 'new' && !flags.password) return undefined;
  return async () => {
    const first = await promptHidden(purpose === 'new' ? 'Password for the folder: ' : 'Password: ', stdin, io.stderr);
    if (purpose === 'open') return first;
    if (!first) throw new UsageError('the password is empty');
    const again = await promptHidden('Again: ', stdin, io.stderr);
    if (again !== first) throw new UsageError('the two passwords differ');
    return first;
  };
}

async function readPasswordFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read the password file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  // The first line: a file written with echo or an editor ends with a newline that is not part of it.
  const password = text.split(/\r?\n/)[0] ?? '';
  if (!password) throw new InputError(`the password file ${path} is empty`);
  return password;
}

/**
 * The owner credentials for a folder link: `--upload-auth=`, an owner link's `&owner=` secret, or
 * what this machine kept when it made the folder (`upload`, `request`).
 */
export async function ownerOf(
  link: string,
  flags: Flags,
  io: Io,
): Promise<{ uploadAuth?: string; ownerSecret?: string }> {
  const parsed = parseShareLink(link);
  const owned = await readOwned(defaultStateDir(io.env), parsed.folderId);
  const uploadAuth = flags['upload-auth'] ?? owned?.uploadAuth;
  const ownerSecret = parsed.ownerSecret ?? owned?.ownerSecret;
  return { ...(uploadAuth ? { uploadAuth } : {}), ...(ownerSecret ? { ownerSecret } : {}) };
}
