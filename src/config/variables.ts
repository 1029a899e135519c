import { distance } from 'fastest-levenshtein';
import { MIN_CHUNK_SIZE_MIB } from '../domain/chunk-plan.js';

/**
 * Every configuration variable, once: its name (the environment variable, and `--kebab-case` as a
 * flag), how its text is parsed and checked, and its default. The flags, the known-names list, the
 * warning about unknown names and the parsing all come from this table (config.ts assembles the
 * `Config` from its values and checks what spans several variables); docs/configuration.md has one
 * row per entry (a test checks it).
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** How one variable's text becomes its value; `raw` is undefined when unset (an empty value counts as unset). */
export interface Variable<T> {
  readonly read: (raw: string | undefined, name: string) => T;
}

const given = (raw: string | undefined): string | undefined =>
  raw === undefined || raw.trim() === '' ? undefined : raw;

function int(fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): Variable<number> {
  return {
    read(raw, name) {
      if (given(raw) === undefined) return fallback;
      if (!/^-?\d+$/.test(raw!.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
      const n = Number(raw);
      if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
      return n;
    },
  };
}

/** A size in MiB where 0 means "none": the bytes, or null. */
function mibOrNone(): Variable<number | null> {
  const count = int(0, 0, 1024 * 1024 * 1024);
  return {
    read(raw, name) {
      const n = count.read(raw, name);
      return n === 0 ? null : n * 1024 * 1024;
    },
  };
}

function bool(fallback: boolean): Variable<boolean> {
  return {
    read(raw, name) {
      const value = given(raw)?.trim().toLowerCase();
      if (value === undefined) return fallback;
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new ConfigError(name, `must be true or false, got "${raw}"`);
    },
  };
}

/** Checks an absolute URL with one of `protocols` and no query or fragment; drops trailing slashes. */
export function checkUrl(name: string, raw: string, protocols: readonly string[] = ['http:', 'https:']): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol))
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${raw}"`);
  if (parsed.hash || parsed.search) throw new ConfigError(name, 'must not have a query or fragment');
  return raw.replace(/\/+$/, '');
}

/** A URL, or null when unset (defaults that depend on other variables are filled in by config.ts). */
function url(protocols: readonly string[] = ['http:', 'https:']): Variable<string | null> {
  return { read: (raw, name) => (given(raw) === undefined ? null : checkUrl(name, raw!.trim(), protocols)) };
}

/** Trimmed text, or `fallback` when unset, checked by `check` (which returns what is kept). */
function text<T extends string | null>(fallback: T, check: (value: string, name: string) => string = (v) => v) {
  return {
    read: (raw: string | undefined, name: string) => (given(raw) === undefined ? fallback : check(raw!.trim(), name)),
  };
}

function oneOf<const T extends string>(values: readonly T[], fallback: T): Variable<T> {
  return {
    read(raw, name) {
      const value = given(raw)?.trim().toLowerCase() ?? fallback;
      if (!(values as readonly string[]).includes(value))
        throw new ConfigError(name, `must be one of ${values.join(', ')}`);
      return value as T;
    },
  };
}

/** A comma-separated list of non-empty items. */
function list(): Variable<string[]> {
  return {
    read: (raw) =>
      (raw ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
  };
}

const minLength =
  (n: number, what = 'characters') =>
  (value: string, name: string) => {
    if (value.length < n) throw new ConfigError(name, `must be at least ${n} ${what}`);
    return value;
  };

const HTTP = ['http:', 'https:'];

export const VARIABLES = {
  // Addresses and storage
  PORT: int(8080, 0, 65535),
  HOST: text('127.0.0.1'),
  BASE_URL: url(HTTP),
  /** Set by the container image: there BASE_URL's default (`http://localhost:8080`) is the wrong address. */
  BASE_URL_REQUIRED: bool(false),
  WEB_URL: url(HTTP),
  DOCS_URL: url(HTTP),
  CONTACT_EMAIL: text(null, (value, name) => {
    if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ConfigError(name, 'must be an e-mail address');
    return value;
  }),
  SITE_NAME: text('webfolder', (value, name) => {
    if (value.length > 60) throw new ConfigError(name, 'must be at most 60 characters');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(value)) throw new ConfigError(name, 'must be one line of text');
    return value;
  }),
  IMPRINT_URL: url(HTTP),
  PRIVACY_URL: url(HTTP),
  DATA_DIR: text('./data'),
  // Uploads and lifetimes
  CHUNK_SIZE_MIB: int(10, MIN_CHUNK_SIZE_MIB, 4096),
  FREE_DOWNLOAD_HOURS: int(72, 1, 24 * 365),
  MAX_EXPIRES_HOURS: int(720, 1, 24 * 365),
  ACTIVITY_IPS: bool(false),
  // S3 SigV4 presigned URLs are valid for at most 7 days; the local backend keeps the same ceiling.
  UPLOAD_URL_TTL_SECONDS: int(72 * 3600, 60, 7 * 24 * 3600),
  // Not trimmed: every character of a secret counts.
  SIGNING_SECRET: { read: (raw, name) => (raw?.length ? minLength(32)(raw, name) : null) } as Variable<string | null>,
  SWEEP_INTERVAL_SECONDS: int(60, 1, 24 * 3600),
  MAX_JSON_BODY_BYTES: int(64 * 1024, 1024, 16 * 1024 * 1024),
  CLOCK_OFFSET_SECONDS: int(0, -10 * 365 * 86400, 10 * 365 * 86400),
  // Rate limits
  RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 24 * 3600),
  RATE_LIMIT_CREATE: int(60, 1),
  RATE_LIMIT_STATUS: int(600, 1),
  RATE_LIMIT_CHUNK: int(6000, 1),
  RATE_LIMIT_SITE: int(1200, 1),
  RATE_LIMIT_AGENTS: int(300, 1),
  // Limits
  MAX_FILES_PER_FOLDER: int(10_000, 10, 10_000_000),
  MAX_CHUNKS_PER_FOLDER: int(1_000_000, 10_000, 1_000_000_000),
  DISK_FREE_MIN_MIB: int(1024, 0, 1 << 30),
  DISK_RESERVATION_IDLE_SECONDS: int(900, 1, 7 * 24 * 3600),
  DISK_RESERVATION_SHARE_PERCENT: int(50, 1, 100),
  REQUEST_TIMEOUT_SECONDS: int(900, 60, 7 * 24 * 3600),
  CONNECTION_TIMEOUT_SECONDS: int(60, 5, 24 * 3600),
  MAX_CONNECTIONS: int(1000, 10, 1_000_000),
  MAX_CONNECTIONS_PER_CLIENT: int(128, 1, 1_000_000),
  HEADERS_TIMEOUT_SECONDS: int(20, 1, 60),
  MIN_BODY_RATE_KIB: int(8, 0, 1 << 20),
  MIN_BODY_RATE_WINDOW_SECONDS: int(30, 1, 3600),
  MAX_CONCURRENT_CHUNK_UPLOADS: int(32, 1, 100_000),
  // Operation
  TRUST_PROXY: bool(false),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  LOG_FORMAT: oneOf(['auto', 'json', 'pretty'], 'auto'),
  SHUTDOWN_GRACE_SECONDS: int(30, 0, 3600),
  METRICS_TOKEN: text(null, minLength(16)),
  // The break-glass admin token (src/http/admin-guard.ts). Not trimmed: every character counts; a
  // short one is refused at start, as a guessable token would open every folder's record.
  ADMIN_TOKEN: { read: (raw, name) => (raw?.length ? minLength(32)(raw, name) : null) } as Variable<string | null>,
  METRICS_PORT: int(0, 0, 65535),
  METRICS_HOST: text('127.0.0.1'),
  // Scale-out backends
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  REDIS_URL: url(['redis:', 'rediss:']),
  S3_ENDPOINT: url(HTTP),
  S3_REGION: text('us-east-1'),
  S3_BUCKET: text(null, (value, name) => {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value))
      throw new ConfigError(name, `"${value}" is not a valid bucket name`);
    return value;
  }),
  S3_ACCESS_KEY_ID: text(null),
  S3_SECRET_ACCESS_KEY: text(null),
  S3_FORCE_PATH_STYLE: bool(false),
  // Notifications
  WEBHOOK_URL: list(),
  WEBHOOK_SECRET: list(),
  WEBHOOK_INCLUDE_TITLES: bool(false),
  WEBHOOK_MAX_ATTEMPTS: int(12, 1, 100),
  WEBHOOK_RETRY_BASE_SECONDS: int(10, 1, 3600),
  WEBHOOK_TIMEOUT_SECONDS: int(10, 1, 300),
  OWNER_WEBHOOK_ALLOW_PRIVATE: bool(false),
  SMTP_URL: url(['smtp:', 'smtps:']),
  MAIL_FROM: text(null, (value, name) => {
    if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(value))
      throw new ConfigError(name, `must be an address (or "Name <address>"), got "${value}"`);
    return value;
  }),
  // Mail limits (./mail.ts)
  MAIL_DIGEST_SECONDS: int(3600, 1, 24 * 3600),
  MAIL_PER_FOLDER_PER_DAY: int(12, 1),
  MAIL_PER_ADDRESS_PER_DAY: int(24, 1),
  MAIL_CONFIRMATIONS_PER_ADDRESS_PER_DAY: int(2, 1),
  MAIL_CONFIRMATIONS_PER_CLIENT_PER_DAY: int(10, 1),
  MAIL_BUDGET_PER_HOUR: int(100, 1),
  MAIL_BUDGET_PER_DAY: int(500, 1),
  // Quotas
  QUOTA_TOTAL_MIB: mibOrNone(),
  QUOTA_FOLDER_MIB: mibOrNone(),
  // Per account: the default for every signed-in account; an admin may set one per account.
  QUOTA_ACCOUNT_MIB: mibOrNone(),
  // Audit log (src/app/audit.ts)
  AUDIT_RETENTION_DAYS: int(365, 1, 100 * 365),
  AUDIT_CLIENT_ADDRESS: oneOf(['off', 'hashed'], 'off'),
  AUDIT_STREAM: oneOf(['off', 'log'], 'off'),
  // Sign-in and who may make folders (./auth.ts)
  OIDC_ISSUER: url(HTTP),
  OIDC_CLIENT_ID: text(null),
  OIDC_CLIENT_SECRET: text(null),
  OIDC_SCOPES: text('openid email profile', (value, name) => {
    if (!value.split(/\s+/).includes('openid')) throw new ConfigError(name, 'must include openid');
    return value;
  }),
  OIDC_REQUIRED_CLAIM: text(null),
  OIDC_ADMIN_CLAIM: text(null),
  ADMIN_EMAILS: list(),
  SESSION_HOURS: int(168, 1, 24 * 366),
  CREATE_POLICY: oneOf(['anyone', 'signed-in'], 'anyone'),
  CREATE_POLICY_API: oneOf(['key', 'open'], 'key'),
} satisfies Record<string, Variable<unknown>>;

export type VariableName = keyof typeof VARIABLES;
export type Values = { readonly [K in VariableName]: ReturnType<(typeof VARIABLES)[K]['read']> };

/** Every configuration variable's name, in the table's order. */
export const KNOWN_VARIABLES = Object.keys(VARIABLES) as VariableName[];

/** The flag of a variable: `BASE_URL` -> `--base-url`. */
export const flagOf = (name: string): string => `--${name.toLowerCase().replace(/_/g, '-')}`;

type Source = Readonly<Record<string, string | undefined>>;

/** Parses every variable of the table from `src`; the first bad value throws a ConfigError naming it. */
export function readVariables(src: Source): Values {
  const values: Record<string, unknown> = {};
  for (const name of KNOWN_VARIABLES) values[name] = (VARIABLES[name] as Variable<unknown>).read(src[name], name);
  return values as Values;
}

/** `--base-url=x` / `--base-url x` -> { BASE_URL: 'x' }. Unknown flags are refused. */
export function flagsToEnv(
  argv: readonly string[],
  known: readonly string[] = KNOWN_VARIABLES,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new ConfigError(arg, 'unexpected argument (flags look like --port 8080)');
    const name = m[1]!.toUpperCase().replace(/-/g, '_');
    if (!known.includes(name)) throw new ConfigError(`--${m[1]}`, 'unknown flag');
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new ConfigError(`--${m[1]}`, 'needs a value');
      i++;
    }
    out[name] = value;
  }
  return out;
}

/** Name prefixes shared by two or more variables (`S3_`, `RATE_LIMIT_`, `MAX_` ...): a family. */
const FAMILIES = (() => {
  const counts = new Map<string, number>();
  for (const name of KNOWN_VARIABLES) {
    const parts = name.split('_');
    for (let n = 1; n < parts.length; n++) {
      const prefix = `${parts.slice(0, n).join('_')}_`;
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  return ['WEBFOLDER_', ...[...counts].filter(([, c]) => c >= 2).map(([p]) => p)];
})();

export interface UnknownVariable {
  readonly name: string;
  /** The known variable it most likely means, if one is close. */
  readonly suggestion: string | null;
}

/**
 * Environment variables that look meant for webfolder but are not among its names: a misspelling of
 * one (`PORTT`, one edit from `PORT`; two edits for names of six letters or more), or a name in one
 * of its families (`WEBFOLDER_*`, `S3_*`, `RATE_LIMIT_*` ...). Warned about at start: a misspelled
 * variable is otherwise silently ignored. Other programs' variables (`HOME`, `PATH`) are left alone.
 */
export function unknownVariables(env: Source): UnknownVariable[] {
  const known = new Set<string>(KNOWN_VARIABLES);
  const found: UnknownVariable[] = [];
  for (const name of Object.keys(env).sort()) {
    if (known.has(name) || !/^[A-Z][A-Z0-9_]*$/.test(name)) continue;
    let best: { name: string; d: number } | null = null;
    for (const candidate of KNOWN_VARIABLES) {
      const d = distance(name, candidate);
      if (!best || d < best.d) best = { name: candidate, d };
    }
    const close = best !== null && best.d <= (Math.min(name.length, best.name.length) >= 6 ? 2 : 1);
    const family = FAMILIES.some((prefix) => name.startsWith(prefix));
    if (close || family) found.push({ name, suggestion: close ? best!.name : null });
  }
  return found;
}
