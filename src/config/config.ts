import { resolve } from 'node:path';
import { type AuthConfig, authConfig } from './auth.js';
import type { MailLimits } from './mail.js';
import { ConfigError, checkUrl, flagsToEnv, readVariables, type Values } from './variables.js';

/**
 * Configuration comes from environment variables, or the same names as `--kebab-case` command-line
 * flags (flags win). Every value is checked at start; a bad one stops the start with a message that
 * names the variable. The variables, their parsing and defaults are one table (variables.ts); this
 * module assembles the `Config` the service reads. See docs/configuration.md for the reference.
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
  /**
   * Published in ai-plugin.json and OpenAPI's info.contact: CONTACT_EMAIL, else webmaster@ BASE_URL's
   * host when that is a domain name, else null (not published: see defaultContactEmail).
   */
  readonly contactEmail: string | null;
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
  /** The break-glass admin token (`Authorization: Bearer`), at least 32 characters; null: none. */
  readonly adminToken: string | null;
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
  /** Operations and notifications: see docs/configuration.md and docs/deployment.md. */
  readonly ops: OpsConfig;
  /** Sign-in, admins and who may make folders (./auth.ts). */
  readonly auth: AuthConfig;
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
  /** With it, /metrics is served on the main port too, behind `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
  /** /metrics on its own listener at METRICS_HOST:METRICS_PORT; null: none (see ops/routes.ts). */
  readonly metricsPort: number | null;
  /** Where the metrics listener binds: loopback unless the operator opens it. */
  readonly metricsHost: string;
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
  /** What the instance may mail, per address, client, folder, hour and day (./mail.ts). */
  readonly mail: MailLimits;
  /** Most registered bytes the whole instance may hold; null: no quota. */
  readonly quotaTotalBytes: number | null;
  /** Most registered bytes one folder may hold; null: no quota. */
  readonly quotaFolderBytes: number | null;
  /** Most registered bytes one account's folders may hold unless an admin set its own; null: no quota. */
  readonly quotaAccountBytes: number | null;
  /** The audit log (src/app/audit.ts). */
  readonly audit: AuditConfig;
}

export interface AuditConfig {
  /** Entries older than this are deleted by the sweeper. */
  readonly retentionDays: number;
  /** 'hashed': each entry keeps a keyed hash of the client's address; 'off': no address at all. */
  readonly clientAddress: 'off' | 'hashed';
  /** 'log': every entry is also written to the log as one JSON line (`auditEntry`), for syslog and collectors. */
  readonly stream: 'off' | 'log';
}

export interface Limits {
  readonly maxFilesPerFolder: number;
  readonly maxChunksPerFolder: number;
  /** Free space the local storage keeps: below it, registrations and chunk uploads are refused. */
  readonly diskFreeMinBytes: number;
  /** A registration's reserved bytes lapse once no chunk of its folder arrived for this long. */
  readonly diskReservationIdleMs: number;
  /** The most one folder or one client may hold reserved, in percent of the free space above the floor. */
  readonly diskReservationSharePercent: number;
  /** Node's requestTimeout: the whole request, body included, must arrive within this. */
  readonly requestTimeoutMs: number;
  /** Idle socket timeout: a connection silent this long is closed. */
  readonly connectionTimeoutMs: number;
  readonly maxConnections: number;
  /** Connections one client address (IPv6: one /64) may hold; never more than 3/4 of maxConnections. */
  readonly maxConnectionsPerClient: number;
  /** Node's headersTimeout: a request's head (line and headers) must arrive within this. */
  readonly headersTimeoutMs: number;
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

export { ConfigError, KNOWN_VARIABLES } from './variables.js';

type Source = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Source = process.env, argv: readonly string[] = []): Config {
  const v = readVariables({ ...env, ...flagsToEnv(argv) });
  const host = v.HOST;
  const publicHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  if (v.BASE_URL_REQUIRED && v.BASE_URL === null)
    throw new ConfigError(
      'BASE_URL',
      'is required here (the container image): set it to the address people and clients reach this service at, such as -e BASE_URL=https://files.example.com (links, chunk upload URLs and every discovery document are built from it)',
    );
  const baseUrl = v.BASE_URL ?? checkUrl('BASE_URL', `http://${publicHost}:${v.PORT}`);
  return {
    port: v.PORT,
    host,
    baseUrl,
    webUrl: v.WEB_URL ?? baseUrl,
    docsUrl: v.DOCS_URL ?? `${baseUrl}/docs`,
    contactEmail: v.CONTACT_EMAIL ?? defaultContactEmail(baseUrl),
    siteName: v.SITE_NAME,
    imprintUrl: v.IMPRINT_URL,
    privacyUrl: v.PRIVACY_URL,
    dataDir: resolve(v.DATA_DIR),
    chunkSizeMiB: v.CHUNK_SIZE_MIB,
    freeDownloadHours: v.FREE_DOWNLOAD_HOURS,
    maxExpiresHours: v.MAX_EXPIRES_HOURS,
    activityIps: v.ACTIVITY_IPS,
    uploadUrlTtlSeconds: v.UPLOAD_URL_TTL_SECONDS,
    signingSecret: v.SIGNING_SECRET,
    adminToken: v.ADMIN_TOKEN,
    sweepIntervalSeconds: v.SWEEP_INTERVAL_SECONDS,
    maxJsonBodyBytes: v.MAX_JSON_BODY_BYTES,
    rateLimit: {
      windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS,
      create: v.RATE_LIMIT_CREATE,
      status: v.RATE_LIMIT_STATUS,
      chunk: v.RATE_LIMIT_CHUNK,
      site: v.RATE_LIMIT_SITE,
      agents: v.RATE_LIMIT_AGENTS,
    },
    limits: {
      maxFilesPerFolder: v.MAX_FILES_PER_FOLDER,
      maxChunksPerFolder: v.MAX_CHUNKS_PER_FOLDER,
      diskFreeMinBytes: v.DISK_FREE_MIN_MIB * 1024 * 1024,
      diskReservationIdleMs: v.DISK_RESERVATION_IDLE_SECONDS * 1000,
      diskReservationSharePercent: v.DISK_RESERVATION_SHARE_PERCENT,
      requestTimeoutMs: v.REQUEST_TIMEOUT_SECONDS * 1000,
      connectionTimeoutMs: v.CONNECTION_TIMEOUT_SECONDS * 1000,
      maxConnections: v.MAX_CONNECTIONS,
      maxConnectionsPerClient: v.MAX_CONNECTIONS_PER_CLIENT,
      headersTimeoutMs: v.HEADERS_TIMEOUT_SECONDS * 1000,
      minBodyBytesPerSecond: v.MIN_BODY_RATE_KIB * 1024,
      minBodyRateWindowMs: v.MIN_BODY_RATE_WINDOW_SECONDS * 1000,
      maxConcurrentChunkUploads: v.MAX_CONCURRENT_CHUNK_UPLOADS,
    },
    trustProxy: v.TRUST_PROXY,
    logLevel: v.LOG_LEVEL,
    clockOffsetSeconds: v.CLOCK_OFFSET_SECONDS,
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    s3: v.S3_BUCKET
      ? {
          endpoint: v.S3_ENDPOINT,
          region: v.S3_REGION,
          bucket: v.S3_BUCKET,
          accessKeyId: v.S3_ACCESS_KEY_ID,
          secretAccessKey: v.S3_SECRET_ACCESS_KEY,
          forcePathStyle: v.S3_FORCE_PATH_STYLE,
        }
      : null,
    ops: opsConfig(v),
    auth: authConfig(v),
  };
}

/** The checks that span several variables (MAIL_FROM with SMTP_URL, metrics, webhooks) are made here. */
function opsConfig(v: Values): OpsConfig {
  if (v.SMTP_URL && !v.MAIL_FROM) throw new ConfigError('MAIL_FROM', 'is required with SMTP_URL');
  return {
    shutdownGraceSeconds: v.SHUTDOWN_GRACE_SECONDS,
    logFormat: v.LOG_FORMAT,
    metricsToken: v.METRICS_TOKEN,
    metricsPort: v.METRICS_PORT === 0 ? null : v.METRICS_PORT,
    metricsHost: v.METRICS_HOST,
    webhooks: webhookEndpoints(v.WEBHOOK_URL, v.WEBHOOK_SECRET),
    webhookIncludeTitles: v.WEBHOOK_INCLUDE_TITLES,
    webhookMaxAttempts: v.WEBHOOK_MAX_ATTEMPTS,
    webhookRetryBaseSeconds: v.WEBHOOK_RETRY_BASE_SECONDS,
    webhookTimeoutSeconds: v.WEBHOOK_TIMEOUT_SECONDS,
    ownerWebhookAllowPrivate: v.OWNER_WEBHOOK_ALLOW_PRIVATE,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    mail: {
      digestSeconds: v.MAIL_DIGEST_SECONDS,
      perFolderPerDay: v.MAIL_PER_FOLDER_PER_DAY,
      perAddressPerDay: v.MAIL_PER_ADDRESS_PER_DAY,
      confirmationsPerAddressPerDay: v.MAIL_CONFIRMATIONS_PER_ADDRESS_PER_DAY,
      confirmationsPerClientPerDay: v.MAIL_CONFIRMATIONS_PER_CLIENT_PER_DAY,
      budgetPerHour: v.MAIL_BUDGET_PER_HOUR,
      budgetPerDay: v.MAIL_BUDGET_PER_DAY,
    },
    quotaTotalBytes: v.QUOTA_TOTAL_MIB,
    quotaFolderBytes: v.QUOTA_FOLDER_MIB,
    quotaAccountBytes: v.QUOTA_ACCOUNT_MIB,
    audit: {
      retentionDays: v.AUDIT_RETENTION_DAYS,
      clientAddress: v.AUDIT_CLIENT_ADDRESS,
      stream: v.AUDIT_STREAM,
    },
  };
}

/** WEBHOOK_URL: one URL or several separated by commas; WEBHOOK_SECRET: one for all, or one per URL. */
function webhookEndpoints(urls: readonly string[], secrets: readonly string[]): WebhookEndpoint[] {
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

/**
 * RFC 2142's mailbox for a web service (webmaster@) at BASE_URL's host, when that host is a domain
 * name that could receive mail. An IP address, localhost or a single-label name cannot
 * (`webmaster@127.0.0.1` was published on a loopback instance): then no address is
 * published until CONTACT_EMAIL names one.
 */
export function defaultContactEmail(baseUrl: string): string | null {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
  const local = host === 'localhost' || /\.(?:localhost|local|internal|localdomain|test|invalid|example)$/.test(host);
  if (isIp || local || !host.includes('.')) return null;
  return `webmaster@${host}`;
}
