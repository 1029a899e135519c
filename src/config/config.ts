import { resolve } from 'node:path';
import { MIN_CHUNK_SIZE_MIB } from '../domain/chunk-plan.js';

/**
 * Configuration comes from environment variables, or the same names as `--kebab-case` command-line
 * flags (flags win). Every value is checked at start; a bad one stops the start with a message that
 * names the variable. See docs/configuration.md for the reference.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Public address of the API, without a trailing slash. */
  readonly baseUrl: string;
  /** Public address of the browser site, without a trailing slash. */
  readonly webUrl: string;
  /** Public address of the documentation site, without a trailing slash. */
  readonly docsUrl: string;
  /** Published contact address (ai-plugin.json, OpenAPI info.contact). */
  readonly contactEmail: string;
  /** The instance's name on the browser site and in owner e-mails (the operator's brand). */
  readonly siteName: string;
  /** The operator's legal pages, linked from the site's footer when set. */
  readonly imprintUrl: string | null;
  readonly privacyUrl: string | null;
  readonly dataDir: string;
  readonly chunkSizeMiB: number;
  readonly freeDownloadHours: number;
  /** The longest expiry an owner may choose for a folder's files, in hours from now. */
  readonly maxExpiresHours: number;
  /** Whether the owner's activity list records client addresses (off: never stored). */
  readonly activityIps: boolean;
  /** How long presigned chunk upload URLs stay valid. */
  readonly uploadUrlTtlSeconds: number;
  /** HMAC key for the local backend's chunk URLs; generated and kept in DATA_DIR when absent. */
  readonly signingSecret: string | null;
  readonly sweepIntervalSeconds: number;
  readonly maxJsonBodyBytes: number;
  readonly rateLimit: {
    readonly windowSeconds: number;
    readonly create: number;
    readonly status: number;
    readonly chunk: number;
    readonly site: number;
    readonly agents: number;
  };
  /** Bounds on what one folder, one request and one client may cost (docs/configuration.md#limits). */
  readonly limits: Limits;
  readonly trustProxy: boolean;
  readonly logLevel: string;
  /** Shifts the service clock; for hosts with a wrong clock and for expiry tests. */
  readonly clockOffsetSeconds: number;
  readonly databaseUrl: string | null;
  readonly redisUrl: string | null;
  readonly s3: S3Config | null;
  /** Operations and notifications (issue 14): see docs/configuration.md and docs/deployment.md. */
  readonly ops: OpsConfig;
}

export interface WebhookEndpoint {
  readonly url: string;
  /** The HMAC key: the bytes of a `whsec_<base64>` secret, or the UTF-8 bytes of any other. */
  readonly key: Buffer;
}

export interface OpsConfig {
  /** How long in-flight requests may run after SIGTERM before their connections are closed. */
  readonly shutdownGraceSeconds: number;
  /** `auto`: pretty lines on a terminal, JSON otherwise. */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** Bearer token /metrics requires; null: none. */
  readonly metricsToken: string | null;
  /** Serve /metrics on this port (on HOST) instead of the main one; null: the main port. */
  readonly metricsPort: number | null;
  readonly webhooks: readonly WebhookEndpoint[];
  /** Send folder titles in webhook bodies (off: titles are personal data). */
  readonly webhookIncludeTitles: boolean;
  readonly webhookMaxAttempts: number;
  readonly webhookRetryBaseSeconds: number;
  readonly webhookTimeoutSeconds: number;
  /** Owners' per-folder webhooks may target private and loopback addresses (off: public only). */
  readonly ownerWebhookAllowPrivate: boolean;
  readonly smtpUrl: string | null;
  readonly mailFrom: string | null;
  /** Most registered bytes the whole instance may hold; null: no quota. */
  readonly quotaTotalBytes: number | null;
  /** Most registered bytes one folder may hold; null: no quota. */
  readonly quotaFolderBytes: number | null;
}

export interface Limits {
  readonly maxFilesPerFolder: number;
  readonly maxChunksPerFolder: number;
  /** Free space the local storage keeps: below it, registrations and chunk uploads are refused. */
  readonly diskFreeMinBytes: number;
  /** Node's requestTimeout: the whole request, body included, must arrive within this. */
  readonly requestTimeoutMs: number;
  /** Idle socket timeout: a connection silent this long is closed. */
  readonly connectionTimeoutMs: number;
  readonly maxConnections: number;
  /** A chunk body slower than this over `minBodyRateWindowMs` is cut off. */
  readonly minBodyBytesPerSecond: number;
  readonly minBodyRateWindowMs: number;
  /** Chunk uploads one client address may have in flight at once (per node). */
  readonly maxConcurrentChunkUploads: number;
}

export interface S3Config {
  readonly endpoint: string | null;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  readonly forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Source = Readonly<Record<string, string | undefined>>;

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

export const KNOWN_VARIABLES = [
  'PORT',
  'HOST',
  'BASE_URL',
  'WEB_URL',
  'DOCS_URL',
  'CONTACT_EMAIL',
  'SITE_NAME',
  'IMPRINT_URL',
  'PRIVACY_URL',
  'DATA_DIR',
  'CHUNK_SIZE_MIB',
  'FREE_DOWNLOAD_HOURS',
  'MAX_EXPIRES_HOURS',
  'ACTIVITY_IPS',
  'UPLOAD_URL_TTL_SECONDS',
  'SIGNING_SECRET',
  'SWEEP_INTERVAL_SECONDS',
  'MAX_JSON_BODY_BYTES',
  'RATE_LIMIT_WINDOW_SECONDS',
  'RATE_LIMIT_CREATE',
  'RATE_LIMIT_STATUS',
  'RATE_LIMIT_CHUNK',
  'RATE_LIMIT_SITE',
  'RATE_LIMIT_AGENTS',
  'MAX_FILES_PER_FOLDER',
  'MAX_CHUNKS_PER_FOLDER',
  'DISK_FREE_MIN_MIB',
  'REQUEST_TIMEOUT_SECONDS',
  'CONNECTION_TIMEOUT_SECONDS',
  'MAX_CONNECTIONS',
  'MIN_BODY_RATE_KIB',
  'MIN_BODY_RATE_WINDOW_SECONDS',
  'MAX_CONCURRENT_CHUNK_UPLOADS',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'CLOCK_OFFSET_SECONDS',
  'DATABASE_URL',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'SHUTDOWN_GRACE_SECONDS',
  'LOG_FORMAT',
  'METRICS_TOKEN',
  'METRICS_PORT',
  'WEBHOOK_URL',
  'WEBHOOK_SECRET',
  'WEBHOOK_INCLUDE_TITLES',
  'WEBHOOK_MAX_ATTEMPTS',
  'WEBHOOK_RETRY_BASE_SECONDS',
  'WEBHOOK_TIMEOUT_SECONDS',
  'OWNER_WEBHOOK_ALLOW_PRIVATE',
  'SMTP_URL',
  'MAIL_FROM',
  'QUOTA_TOTAL_MIB',
  'QUOTA_FOLDER_MIB',
] as const;

function int(src: Source, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(src: Source, name: string, fallback: boolean): boolean {
  const raw = src[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${src[name]}"`);
}

function url(src: Source, name: string, fallback: string, protocols: readonly string[] = ['http:', 'https:']): string {
  const raw = src[name]?.trim() || fallback;
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

function optionalUrl(src: Source, name: string, protocols: readonly string[]): string | null {
  return src[name]?.trim() ? url(src, name, '', protocols) : null;
}

/** CONTACT_EMAIL, by default RFC 2142's mailbox for a web service at BASE_URL's host. */
function contactEmail(src: Source, baseUrl: string): string {
  const value = src.CONTACT_EMAIL?.trim();
  if (!value) return `webmaster@${new URL(baseUrl).hostname}`;
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ConfigError('CONTACT_EMAIL', 'must be an e-mail address');
  return value;
}

/** SITE_NAME: a short name of one line, shown as text (never as markup). */
function siteName(src: Source): string {
  const value = src.SITE_NAME?.trim();
  if (!value) return 'webfolder';
  if (value.length > 60) throw new ConfigError('SITE_NAME', 'must be at most 60 characters');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new ConfigError('SITE_NAME', 'must be one line of text');
  return value;
}

export function loadConfig(env: Source = process.env, argv: readonly string[] = []): Config {
  const src: Source = { ...env, ...flagsToEnv(argv) };
  const port = int(src, 'PORT', 8080, 0, 65535);
  const host = src.HOST?.trim() || '127.0.0.1';
  const publicHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = url(src, 'BASE_URL', `http://${publicHost}:${port}`);
  const chunkSizeMiB = int(src, 'CHUNK_SIZE_MIB', 10, MIN_CHUNK_SIZE_MIB, 4096);
  const s3Bucket = src.S3_BUCKET?.trim() || null;
  return {
    port,
    host,
    baseUrl,
    webUrl: url(src, 'WEB_URL', baseUrl),
    docsUrl: url(src, 'DOCS_URL', `${baseUrl}/docs`),
    contactEmail: contactEmail(src, baseUrl),
    siteName: siteName(src),
    imprintUrl: optionalUrl(src, 'IMPRINT_URL', ['http:', 'https:']),
    privacyUrl: optionalUrl(src, 'PRIVACY_URL', ['http:', 'https:']),
    dataDir: resolve(src.DATA_DIR?.trim() || './data'),
    chunkSizeMiB,
    freeDownloadHours: int(src, 'FREE_DOWNLOAD_HOURS', 72, 1, 24 * 365),
    maxExpiresHours: int(src, 'MAX_EXPIRES_HOURS', 720, 1, 24 * 365),
    activityIps: bool(src, 'ACTIVITY_IPS', false),
    // S3 SigV4 presigned URLs are valid for at most 7 days; the local backend keeps the same ceiling.
    uploadUrlTtlSeconds: int(src, 'UPLOAD_URL_TTL_SECONDS', 72 * 3600, 60, 7 * 24 * 3600),
    signingSecret: src.SIGNING_SECRET?.length ? checkSecret(src.SIGNING_SECRET) : null,
    sweepIntervalSeconds: int(src, 'SWEEP_INTERVAL_SECONDS', 60, 1, 24 * 3600),
    maxJsonBodyBytes: int(src, 'MAX_JSON_BODY_BYTES', 64 * 1024, 1024, 16 * 1024 * 1024),
    rateLimit: {
      windowSeconds: int(src, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 24 * 3600),
      create: int(src, 'RATE_LIMIT_CREATE', 60, 1),
      status: int(src, 'RATE_LIMIT_STATUS', 600, 1),
      chunk: int(src, 'RATE_LIMIT_CHUNK', 6000, 1),
      site: int(src, 'RATE_LIMIT_SITE', 1200, 1),
      agents: int(src, 'RATE_LIMIT_AGENTS', 300, 1),
    },
    limits: {
      maxFilesPerFolder: int(src, 'MAX_FILES_PER_FOLDER', 10_000, 10, 10_000_000),
      maxChunksPerFolder: int(src, 'MAX_CHUNKS_PER_FOLDER', 1_000_000, 10_000, 1_000_000_000),
      diskFreeMinBytes: int(src, 'DISK_FREE_MIN_MIB', 1024, 0, 1 << 30) * 1024 * 1024,
      requestTimeoutMs: int(src, 'REQUEST_TIMEOUT_SECONDS', 900, 60, 7 * 24 * 3600) * 1000,
      connectionTimeoutMs: int(src, 'CONNECTION_TIMEOUT_SECONDS', 60, 5, 24 * 3600) * 1000,
      maxConnections: int(src, 'MAX_CONNECTIONS', 1000, 10, 1_000_000),
      minBodyBytesPerSecond: int(src, 'MIN_BODY_RATE_KIB', 8, 0, 1 << 20) * 1024,
      minBodyRateWindowMs: int(src, 'MIN_BODY_RATE_WINDOW_SECONDS', 30, 1, 3600) * 1000,
      maxConcurrentChunkUploads: int(src, 'MAX_CONCURRENT_CHUNK_UPLOADS', 32, 1, 100_000),
    },
    trustProxy: bool(src, 'TRUST_PROXY', false),
    logLevel: checkLogLevel(src.LOG_LEVEL?.trim() || 'info'),
    clockOffsetSeconds: int(src, 'CLOCK_OFFSET_SECONDS', 0, -10 * 365 * 86400, 10 * 365 * 86400),
    databaseUrl: optionalUrl(src, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: optionalUrl(src, 'REDIS_URL', ['redis:', 'rediss:']),
    s3: s3Bucket
      ? {
          endpoint: optionalUrl(src, 'S3_ENDPOINT', ['http:', 'https:']),
          region: src.S3_REGION?.trim() || 'us-east-1',
          bucket: checkBucket(s3Bucket),
          accessKeyId: src.S3_ACCESS_KEY_ID?.trim() || null,
          secretAccessKey: src.S3_SECRET_ACCESS_KEY?.trim() || null,
          forcePathStyle: bool(src, 'S3_FORCE_PATH_STYLE', false),
        }
      : null,
    ops: loadOpsConfig(src),
  };
}

function loadOpsConfig(src: Source): OpsConfig {
  const format = src.LOG_FORMAT?.trim().toLowerCase() || 'auto';
  if (format !== 'auto' && format !== 'json' && format !== 'pretty')
    throw new ConfigError('LOG_FORMAT', `must be auto, json or pretty, got "${src.LOG_FORMAT}"`);
  const metricsToken = src.METRICS_TOKEN?.trim() || null;
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  const metricsPort = int(src, 'METRICS_PORT', 0, 0, 65535);
  const smtpUrl = optionalUrl(src, 'SMTP_URL', ['smtp:', 'smtps:']);
  const mailFrom = src.MAIL_FROM?.trim() || null;
  if (smtpUrl && !mailFrom) throw new ConfigError('MAIL_FROM', 'is required with SMTP_URL');
  if (mailFrom && !/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(mailFrom))
    throw new ConfigError('MAIL_FROM', `must be an address (or "Name <address>"), got "${mailFrom}"`);
  const mib = (name: string) => {
    const n = int(src, name, 0, 0, 1024 * 1024 * 1024);
    return n === 0 ? null : n * 1024 * 1024;
  };
  return {
    shutdownGraceSeconds: int(src, 'SHUTDOWN_GRACE_SECONDS', 30, 0, 3600),
    logFormat: format,
    metricsToken,
    metricsPort: metricsPort === 0 ? null : metricsPort,
    webhooks: webhookEndpoints(src),
    webhookIncludeTitles: bool(src, 'WEBHOOK_INCLUDE_TITLES', false),
    webhookMaxAttempts: int(src, 'WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    webhookRetryBaseSeconds: int(src, 'WEBHOOK_RETRY_BASE_SECONDS', 10, 1, 3600),
    webhookTimeoutSeconds: int(src, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 300),
    ownerWebhookAllowPrivate: bool(src, 'OWNER_WEBHOOK_ALLOW_PRIVATE', false),
    smtpUrl,
    mailFrom,
    quotaTotalBytes: mib('QUOTA_TOTAL_MIB'),
    quotaFolderBytes: mib('QUOTA_FOLDER_MIB'),
  };
}

/** WEBHOOK_URL: one URL or several separated by commas; WEBHOOK_SECRET: one for all, or one per URL. */
function webhookEndpoints(src: Source): WebhookEndpoint[] {
  const urls = (src.WEBHOOK_URL ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  const secrets = (src.WEBHOOK_SECRET ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length === 0) {
    if (secrets.length > 0) throw new ConfigError('WEBHOOK_SECRET', 'is set but WEBHOOK_URL is not');
    return [];
  }
  if (secrets.length === 0) throw new ConfigError('WEBHOOK_SECRET', 'is required with WEBHOOK_URL (bodies are signed)');
  if (secrets.length !== 1 && secrets.length !== urls.length)
    throw new ConfigError('WEBHOOK_SECRET', `give one secret, or one per URL (${urls.length}), not ${secrets.length}`);
  return urls.map((raw, i) => ({
    url: webhookUrl(raw),
    key: webhookKey(secrets[secrets.length === 1 ? 0 : i]!),
  }));
}

function webhookUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('WEBHOOK_URL', `must be absolute URLs, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError('WEBHOOK_URL', `must use http: or https:, got "${raw}"`);
  return parsed.href;
}

/** A Standard Webhooks secret `whsec_<base64>` gives its decoded bytes; any other string, its UTF-8 bytes. */
export function webhookKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    const key = Buffer.from(secret.slice(6), 'base64');
    if (key.length < 16)
      throw new ConfigError('WEBHOOK_SECRET', 'a whsec_ secret must hold at least 16 bytes of base64');
    return key;
  }
  if (secret.length < 32) throw new ConfigError('WEBHOOK_SECRET', 'must be whsec_<base64> or at least 32 characters');
  return Buffer.from(secret, 'utf8');
}

function checkSecret(value: string): string {
  if (value.length < 32) throw new ConfigError('SIGNING_SECRET', 'must be at least 32 characters');
  return value;
}

function checkLogLevel(value: string): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(value)) throw new ConfigError('LOG_LEVEL', `must be one of ${levels.join(', ')}`);
  return value;
}

function checkBucket(value: string): string {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value))
    throw new ConfigError('S3_BUCKET', `"${value}" is not a valid bucket name`);
  return value;
}
