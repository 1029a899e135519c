import { distance } from 'fastest-levenshtein';
import { MIN_CHUNK_SIZE_MIB } from '../domain/chunk-plan.js';
import { MAX_URL_VALIDITY_SECONDS } from '../domain/limits.js';
import { baseUrlOf, defaultContactEmail } from './addresses.js';
import { oidcConfig } from './auth.js';
import {
  bool,
  ConfigError,
  directory,
  int,
  list,
  mibOrNone,
  minLength,
  oneOf,
  type Parser,
  portOrNone,
  secret,
  text,
  times,
  url,
} from './parsers.js';
import { webhookEndpoints } from './webhooks.js';

/**
 * Every configuration variable, once, in the sections of the reference: its name (the environment
 * variable, and `--kebab-case` as a flag), the field of the `Config` it fills, how its text is parsed
 * and checked, its default, and what the reference says of it. The `Config` type (./config.ts), the
 * flags, the known-names list, the warning about unknown names, the parsing and the tables of
 * docs/configuration.md (./docs-table.ts) all come from this table. A section is one table of the
 * reference and one group of the `Config` (or its top level); a section whose fields depend on each
 * other (a default made of other variables, a check across several) assembles them once, here.
 */
export interface Variable<K extends string = string, T = unknown> extends Parser<T> {
  /** The field of the section's part of the `Config` that this variable fills. */
  readonly key: K;
  /** The reference's description. */
  readonly meaning: string;
}

/**
 * What the reference says of a default or of the bounds, beyond what the parser says: a note after
 * it (`(30 days)`), or, where the parser's default is unset, the text of a default made of other
 * variables (`BASE_URL/docs`).
 */
interface Shown {
  readonly default?: string;
  readonly defaultNote?: string;
  readonly bounds?: string;
  readonly boundsNote?: string;
}

const noted = (text: string, note: string | undefined) =>
  note === undefined ? text : /^[,;]/.test(note) ? `${text}${note}` : `${text} ${note}`;

/** `parser` as the variable that fills `key`, with the reference's description of it. */
function v<K extends string, T>(key: K, parser: Parser<T>, meaning: string, shown: Shown = {}): Variable<K, T> {
  return {
    ...parser,
    key,
    meaning,
    shownDefault: noted(shown.default ?? parser.shownDefault, shown.defaultNote),
    bounds: noted(shown.bounds ?? parser.bounds, shown.boundsNote),
  };
}

type Variables = Readonly<Record<string, Variable>>;

/** A section's variables read into their fields, before the section assembles them. */
export type Fields<V extends Variables> = { readonly [N in keyof V as V[N]['key']]: ReturnType<V[N]['read']> };

/** Where a section's part sits in the `Config`: a group of its own, or the top level. */
type Placement = 'own' | 'top';

interface Section<V extends Variables, R, P extends Placement> {
  readonly placement: P;
  readonly variables: V;
  readonly assemble: (fields: Fields<V>) => R;
}

function section<const P extends Placement, const V extends Variables>(
  placement: P,
  variables: V,
): Section<V, Fields<V>, P>;
function section<const P extends Placement, const V extends Variables, R>(
  placement: P,
  variables: V,
  assemble: (fields: Fields<V>) => R,
): Section<V, R, P>;
function section(
  placement: Placement,
  variables: Variables,
  assemble: (fields: never) => unknown = (fields) => fields,
): object {
  return { placement, variables, assemble };
}

const emailAddress = (value: string, name: string) => {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ConfigError(name, 'must be an e-mail address');
  return value;
};

const oneLine = (max: number) => (value: string, name: string) => {
  if (value.length > max) throw new ConfigError(name, `must be at most ${max} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new ConfigError(name, 'must be one line of text');
  return value;
};

const bucketName = (value: string, name: string) => {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value))
    throw new ConfigError(name, `"${value}" is not a valid bucket name`);
  return value;
};

const mailbox = (value: string, name: string) => {
  if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(value))
    throw new ConfigError(name, `must be an address (or "Name <address>"), got "${value}"`);
  return value;
};

const withOpenid = (value: string, name: string) => {
  if (!value.split(/\s+/).includes('openid')) throw new ConfigError(name, 'must include openid');
  return value;
};

export const SECTIONS = {
  addresses: section(
    'top',
    {
      PORT: v('port', int(8080, 0, 65535), 'TCP port to listen on.'),
      HOST: v(
        'host',
        text('127.0.0.1', 'an address or host name'),
        'Interface to listen on. `0.0.0.0` or `::` listens on all interfaces (the default URLs then say `localhost`). Keep the default behind a reverse proxy on the same machine.',
      ),
      BASE_URL: v(
        'baseUrl',
        url(),
        'Public address of the API, as clients reach it (through your proxy). Chunk upload URLs and every discovery document are built from it. A trailing `/` is dropped.',
        { default: '`http://HOST:PORT`', boundsNote: ', no query or fragment' },
      ),
      BASE_URL_REQUIRED: v(
        'baseUrlRequired',
        bool(false),
        "Refuse to start without `BASE_URL`, with a message saying what to set. The container image sets it: there the default `http://localhost:8080` is the container's own address, and every link it handed out would point at a port the host may not expose.",
        { defaultNote: '(`true` in the container image)' },
      ),
      WEB_URL: v(
        'webUrl',
        url(),
        "Public address of the browser site. Share links are `WEB_URL/f/<folderId>#<key>`; the site is served at this URL's path.",
        { default: '`BASE_URL`', bounds: 'as `BASE_URL`' },
      ),
      DOCS_URL: v(
        'docsUrl',
        url(),
        "Public address of this documentation site; it is served at this URL's path. A DOCS_URL at the root of a host (`https://docs.example.com`) needs that host to differ from BASE_URL's.",
        { default: '`BASE_URL/docs`', bounds: 'as `BASE_URL`' },
      ),
      CONTACT_EMAIL: v(
        'contactEmail',
        text(null, 'an e-mail address', emailAddress),
        'Published as the contact of the service in `/.well-known/ai-plugin.json` (`contact_email`) and the OpenAPI document (`info.contact.email`). With no value (`BASE_URL` an IP address, `localhost`, a `.local` name …) neither is published. Set it to a mailbox someone reads when serving the public.',
        { default: "`webmaster@` + `BASE_URL`'s host when that is a domain name, else none" },
      ),
      SITE_NAME: v(
        'siteName',
        text('webfolder', 'one line of at most 60 characters', oneLine(60)),
        "The instance's name: in the browser site's header and window titles, and at the start of owner e-mails' subjects. Shown as text, never as markup. The API and agent surfaces keep naming the software (`webfolder`).",
      ),
      IMPRINT_URL: v(
        'imprintUrl',
        url(),
        'The operator\'s imprint (legal notice), linked as "Imprint" at the foot of every site page.',
      ),
      PRIVACY_URL: v(
        'privacyUrl',
        url(),
        'The operator\'s privacy policy, linked as "Privacy" at the foot of every site page.',
      ),
      DATA_DIR: v(
        'dataDir',
        directory('./data'),
        'Where the embedded storage lives: `webfolder.db` (SQLite, with its `-wal` and `-shm` files), `blobs/` (encrypted chunks) and `signing-secret`. See [quick start](quick-start.md#data-directory-and-backups).',
      ),
    },
    ({ baseUrlRequired, ...f }) => {
      const baseUrl = baseUrlOf(f, baseUrlRequired);
      return {
        ...f,
        baseUrl,
        webUrl: f.webUrl ?? baseUrl,
        docsUrl: f.docsUrl ?? `${baseUrl}/docs`,
        contactEmail: f.contactEmail ?? defaultContactEmail(baseUrl),
      };
    },
  ),
  uploads: section('top', {
    CHUNK_SIZE_MIB: v(
      'chunkSizeMiB',
      int(10, MIN_CHUNK_SIZE_MIB, 4096),
      'Plaintext chunk size in MiB for direct uploads. Grown per file only as much as needed to stay within 10 000 chunks. See [direct upload](direct-upload.md#chunk-size-and-number-of-chunks).',
    ),
    FREE_DOWNLOAD_HOURS: v(
      'freeDownloadHours',
      int(72, 1, 24 * 365),
      'How long a file can be downloaded, counted from the completion of its upload (from its registration if it never completes). Returned as `freeDownloadHours`.',
    ),
    MAX_EXPIRES_HOURS: v(
      'maxExpiresHours',
      int(720, 1, 24 * 365),
      "The longest expiry a folder's owner may choose on the site or with the CLI (`expiresInHours` at creation, `expiresAt` later), counted from the moment of the choice. Folders whose owner chose nothing keep `FREE_DOWNLOAD_HOURS`. Returned to the page as `maxExpiresInHours`.",
      { defaultNote: '(30 days)' },
    ),
    ACTIVITY_IPS: v(
      'activityIps',
      bool(false),
      "Record the client address with each upload and download in the owner's activity list. Off by default: no visitor address is stored. Behind a reverse proxy, set `TRUST_PROXY` too, or every address is the proxy's.",
    ),
    UPLOAD_URL_TTL_SECONDS: v(
      'uploadUrlTtlSeconds',
      int(72 * 3600, 60, MAX_URL_VALIDITY_SECONDS),
      'How long presigned chunk upload URLs stay valid.',
      { defaultNote: '(72 h)', boundsNote: "(7 days, S3's limit)" },
    ),
    SIGNING_SECRET: v(
      'signingSecret',
      secret(32),
      "HMAC key of the local storage's chunk URLs and of download tickets (files with a download limit). When unset, a random key is generated once and kept in `DATA_DIR/signing-secret` (mode 0600). Set it (the same on every node) when several processes share one storage. Changing it invalidates the upload URLs already handed out.",
      { default: 'generated' },
    ),
    SWEEP_INTERVAL_SECONDS: v(
      'sweepIntervalSeconds',
      int(60, 1, 24 * 3600),
      'How often expired folders and files are deleted (also once at start).',
    ),
    MAX_JSON_BODY_BYTES: v(
      'maxJsonBodyBytes',
      int(64 * 1024, 1024, 16 * 1024 * 1024),
      'Largest JSON request body; larger ones are refused (400 on the v2 API). Chunk uploads are not JSON and are not limited by this.',
    ),
    CLOCK_OFFSET_SECONDS: v(
      'clockOffsetSeconds',
      int(0, -10 * 365 * 86400, 10 * 365 * 86400),
      "Shifts the service's clock, for hosts with a wrong clock and for expiry tests. Leave it at 0.",
      { boundsNote: '(±10 years)' },
    ),
  }),
  rateLimit: section('own', {
    RATE_LIMIT_WINDOW_SECONDS: v(
      'windowSeconds',
      int(60, 1, 24 * 3600),
      'Length of the window that every limit below counts in.',
    ),
    RATE_LIMIT_CREATE: v(
      'create',
      int(60, 1),
      "`POST /v2/folders` per window, and the browser site's file registrations and upload-URL renewals (each signs chunk URLs, as a create does).",
    ),
    RATE_LIMIT_STATUS: v('status', int(600, 1), 'upload-status calls per window.'),
    RATE_LIMIT_CHUNK: v(
      'chunk',
      int(6000, 1),
      "Chunk transfers per window: `PUT`s to the local storage and the site's chunk downloads.",
    ),
    RATE_LIMIT_SITE: v(
      'site',
      int(1200, 1),
      "Requests to the browser site's own endpoints per window (chunk downloads count as chunk transfers instead).",
    ),
    RATE_LIMIT_AGENTS: v(
      'agents',
      int(300, 1),
      'Requests to the MCP and A2A endpoints (and the agent card) per window.',
    ),
  }),
  limits: section('own', {
    MAX_FILES_PER_FOLDER: v(
      'maxFilesPerFolder',
      int(10_000, 10, 10_000_000),
      'Files one folder may hold (expired files leave it when the sweeper deletes them). A registration that would pass it is refused whole with 409.',
    ),
    MAX_CHUNKS_PER_FOLDER: v(
      'maxChunksPerFolder',
      int(1_000_000, 10_000, 1_000_000_000),
      "Chunks of all a folder's files together (at the default 10 MiB chunks, about 10 TB). Refused with 409.",
    ),
    REQUEST_TIMEOUT_SECONDS: v(
      'requestTimeoutMs',
      times(1000, int(900, 60, 7 * 24 * 3600)),
      'A whole request, body included, must arrive within this (Node answers 408 and closes). Keep it above chunk size ÷ the slowest rate you accept: 10 MiB at 16 KiB/s is 640 s.',
    ),
    CONNECTION_TIMEOUT_SECONDS: v(
      'connectionTimeoutMs',
      times(1000, int(60, 5, 24 * 3600)),
      'A connection with no traffic for this long is closed.',
    ),
    MAX_CONNECTIONS: v(
      'maxConnections',
      int(1000, 10, 1_000_000),
      "Open connections per process; the ones past it are closed as they arrive. Keep it below the process's file-descriptor limit (`ulimit -n`).",
    ),
    MAX_CONNECTIONS_PER_CLIENT: v(
      'maxConnectionsPerClient',
      int(128, 1, 1_000_000),
      "Open connections one client address may hold (IPv6: one /64), and never more than three quarters of `MAX_CONNECTIONS`, so one client cannot take every slot; past it its new connections are closed as they arrive. Clients behind one NAT share it. Off with `TRUST_PROXY` (every connection then comes from the proxy): set the proxy's own per-client limit (nginx `limit_conn`).",
    ),
    HEADERS_TIMEOUT_SECONDS: v(
      'headersTimeoutMs',
      times(1000, int(20, 1, 60)),
      "A request's head (request line and headers) must arrive within this; a slower one is answered 408 and closed.",
    ),
    MIN_BODY_RATE_KIB: v(
      'minBodyBytesPerSecond',
      times(1024, int(8, 0, 1 << 20)),
      'A chunk upload whose body arrives slower than this many KiB/s over a whole window is cut off (the connection is closed and nothing is kept). Only time spent waiting for the client counts. `0` turns it off.',
    ),
    MIN_BODY_RATE_WINDOW_SECONDS: v(
      'minBodyRateWindowMs',
      times(1000, int(30, 1, 3600)),
      'The window the minimum body rate is measured over.',
    ),
    MAX_CONCURRENT_CHUNK_UPLOADS: v(
      'maxConcurrentChunkUploads',
      int(32, 1, 100_000),
      'Chunk uploads one client address may have in flight at once, per process; more answer 429 with `Retry-After: 1` before their body is read. Clients behind one NAT share it.',
    ),
  }),
  disk: section('own', {
    DISK_FREE_MIN_MIB: v(
      'freeMinBytes',
      times(1024 * 1024, int(1024, 0, 1 << 30)),
      'Free space the local storage keeps on the disk of `DATA_DIR/blobs` (uploads under way, and the encrypted bytes of files registered and not yet written, count as used). A registration whose files do not fit above it, and chunk uploads below it, are refused with 507 and a message saying the server is out of space, instead of failing mid-write. `0` turns the floor off (and with it the accounting of registered bytes); a full disk is still answered 507, never acknowledged. Not used with `S3_BUCKET`.',
    ),
    DISK_RESERVATION_IDLE_SECONDS: v(
      'reservationIdleMs',
      times(1000, int(900, 1, 7 * 24 * 3600)),
      "How long a registration keeps its files' bytes reserved against the free space while no chunk of its folder arrives (see [what a registration reserves](#what-a-registration-reserves)). Keep it above the time one chunk takes to arrive.",
    ),
    DISK_RESERVATION_SHARE_PERCENT: v(
      'reservationSharePercent',
      int(50, 1, 100),
      'The most one folder, and one client address (IPv6: one /64), may hold reserved for files not yet uploaded, in percent of the free space above `DISK_FREE_MIN_MIB`; a registration past it is refused with 507 (500 on the v2 create) saying so. `100`: no share. Clients behind one NAT share it; behind a reverse proxy set `TRUST_PROXY`.',
    ),
  }),
  ops: section('own', {
    TRUST_PROXY: v(
      'trustProxy',
      bool(false),
      'Take the client address from `X-Forwarded-For` (for rate limits and logs). Set it only when a reverse proxy is the sole way in.',
      { boundsNote: '(also `1`/`0`, `yes`/`no`, `on`/`off`)' },
    ),
    LOG_LEVEL: v(
      'logLevel',
      oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
      'Level of the JSON logs on standard output. Logs never contain a folder key or `uploadAuth`.',
    ),
    LOG_FORMAT: v(
      'logFormat',
      oneOf(['auto', 'json', 'pretty'], 'auto'),
      '`auto`: short coloured lines (pino-pretty) when standard output is a terminal, one JSON object per line otherwise (for journald, Docker and log collectors).',
    ),
    SHUTDOWN_GRACE_SECONDS: v(
      'shutdownGraceSeconds',
      int(30, 0, 3600),
      'On SIGTERM (or SIGINT) the server stops accepting connections, answers `/readyz` 503 and any new request on an open connection 503 `unavailable`, and lets requests in flight (chunk uploads) finish for up to this long; then it closes their connections. A chunk cut off this way is not stored (the client uploads it again). A second signal stops at once.',
    ),
    METRICS_TOKEN: v(
      'metricsToken',
      text(null, 'at least 16 characters', minLength(16)),
      'With it (and no `METRICS_PORT`), `GET /metrics` is served on the main port behind `Authorization: Bearer <token>` (compared in constant time; otherwise 401). With `METRICS_PORT`, the metrics listener asks for it too. `/healthz` and `/readyz` stay open.',
    ),
    ADMIN_TOKEN: v(
      'adminToken',
      secret(32),
      "The break-glass admin credential: `Authorization: Bearer <token>` opens the admin API (`/api/admin/…`) and the console at `/admin` (where it is typed into a form and kept in the tab's `sessionStorage` only), for instances without OIDC or when the identity provider is down. Compared in constant time; a shorter value stops the start. Unset: only signed-in admin accounts are admins ([organisations](organisations.md#admin-console)). Generate one with `openssl rand -base64 33`.",
    ),
    METRICS_PORT: v(
      'metricsPort',
      portOrNone(),
      'Serve `GET /metrics` on its own listener at `METRICS_HOST:METRICS_PORT` (the main port then answers 404 there). With neither `METRICS_PORT` nor `METRICS_TOKEN`, the metrics are not served at all: they tell stored bytes, folder counts and free disk, which are not for the public.',
    ),
    METRICS_HOST: v(
      'metricsHost',
      text('127.0.0.1', 'an address'),
      'The interface of the metrics listener: loopback, so that only the machine itself can scrape. Set it to a private address (or `0.0.0.0` in a container, with the port not published) for a scraper elsewhere.',
    ),
  }),
  backends: section('top', {
    DATABASE_URL: v(
      'databaseUrl',
      url(['postgres:', 'postgresql:']),
      '**Scale-out.** PostgreSQL for folder and file metadata.',
      { defaultNote: '(SQLite in `DATA_DIR`)' },
    ),
    REDIS_URL: v(
      'redisUrl',
      url(['redis:', 'rediss:']),
      '**Scale-out.** Redis for rate-limit counters shared by all nodes.',
      { defaultNote: '(in-memory)' },
    ),
  }),
  s3: section(
    'own',
    {
      S3_BUCKET: v(
        'bucket',
        text(null, 'a valid bucket name (3–63 of `a-z 0-9 . -`)', bucketName),
        '**Scale-out.** Setting it switches chunk storage to this S3-compatible bucket; clients then upload straight to it through presigned URLs.',
        { defaultNote: '(local files in `DATA_DIR/blobs`)' },
      ),
      S3_ENDPOINT: v(
        'endpoint',
        url(),
        '**Scale-out.** Endpoint of an S3-compatible service (MinIO, Garage, Ceph, ...).',
        { defaultNote: '(AWS)' },
      ),
      S3_REGION: v('region', text('us-east-1', 'a region name'), '**Scale-out.** Region used for signing.'),
      S3_ACCESS_KEY_ID: v('accessKeyId', text(null, '–'), '**Scale-out.** Access key.', {
        defaultNote: "(the AWS SDK's default credential chain)",
      }),
      S3_SECRET_ACCESS_KEY: v(
        'secretAccessKey',
        text(null, '–'),
        '**Scale-out.** Secret key. Prefer the environment to a flag, which other users of the machine can see.',
        { defaultNote: "(the AWS SDK's default credential chain)" },
      ),
      S3_FORCE_PATH_STYLE: v(
        'forcePathStyle',
        bool(false),
        '**Scale-out.** Address the bucket as `endpoint/bucket` instead of `bucket.endpoint` (most self-hosted S3 servers need it).',
      ),
    },
    (f) => (f.bucket === null ? null : { ...f, bucket: f.bucket }),
  ),
  quotas: section('own', {
    QUOTA_TOTAL_MIB: v(
      'totalBytes',
      mibOrNone(),
      'Most MiB the whole instance may hold. Past it, registrations answer **507** `{"code":"insufficient_storage"}` ("this server\'s storage quota is used up"). Exact across nodes sharing PostgreSQL.',
    ),
    QUOTA_FOLDER_MIB: v(
      'folderBytes',
      mibOrNone(),
      'Most MiB one folder may hold. Past it, the site\'s registration answers **413** `{"code":"quota_exceeded"}` naming the quota and what the folder holds (the v2 create answers 400 with the same code, as its contract lists only 400).',
    ),
    QUOTA_ACCOUNT_MIB: v(
      'accountBytes',
      mibOrNone(),
      'Most MiB the folders of one signed-in account may hold together; an admin may set another figure, or none, per account (`PUT /api/admin/accounts/:accountId/quota`). Past it, a registration answers like the folder quota: **413** `{"code":"quota_exceeded"}` (400 on the v2 create). Folders made without an account are not counted. Exact across nodes sharing PostgreSQL.',
    ),
  }),
  audit: section('own', {
    AUDIT_RETENTION_DAYS: v(
      'retentionDays',
      int(365, 1, 100 * 365),
      'Audit entries older than this are deleted by the sweeper ([organisations](organisations.md#audit-log)).',
    ),
    AUDIT_CLIENT_ADDRESS: v(
      'clientAddress',
      oneOf(['off', 'hashed'], 'off'),
      "`hashed`: each audit entry keeps a keyed hash (HMAC-SHA-256 with the signing secret) of the client's address, so that entries from one address can be told apart without the address being stored. `off`: no address at all.",
    ),
    AUDIT_STREAM: v(
      'stream',
      oneOf(['off', 'log'], 'off'),
      '`log`: every audit entry is also written to the server\'s log as one JSON line with a stable shape (`"auditEntry": {…}`), for syslog, journald or a log collector.',
    ),
  }),
  notifications: section(
    'own',
    {
      WEBHOOK_URL: v(
        'webhookUrls',
        list('`http:`/`https:` URLs, separated by commas'),
        "The operator's endpoints: each receives every event, signed (Standard Webhooks).",
      ),
      WEBHOOK_SECRET: v(
        'webhookSecrets',
        list(
          '`whsec_<base64>` (at least 16 bytes) or at least 32 characters; one for all URLs, or one per URL, comma-separated',
        ),
        'The signing key. A `whsec_` secret signs with its decoded bytes (what Standard Webhooks libraries expect); any other string with its UTF-8 bytes.',
        { defaultNote: '; required with `WEBHOOK_URL`' },
      ),
      WEBHOOK_INCLUDE_TITLES: v(
        'webhookIncludeTitles',
        bool(false),
        "Add the folder's title to the operator's webhook bodies. Off by default: titles are chosen by users and may say who they are. Owners' notifications never carry titles.",
      ),
      WEBHOOK_MAX_ATTEMPTS: v(
        'webhookMaxAttempts',
        int(12, 1, 100),
        'Attempts per delivery before it is given up (kept in the outbox as failed: `webfolder admin stats`, `webfolder_notifications_failed`).',
      ),
      WEBHOOK_RETRY_BASE_SECONDS: v(
        'webhookRetryBaseSeconds',
        int(10, 1, 3600),
        'Wait before the first retry; each further retry waits twice as long (±20 % jitter, at most 6 h). With the defaults the last attempt comes about 11 hours after the event.',
      ),
      WEBHOOK_TIMEOUT_SECONDS: v(
        'webhookTimeoutSeconds',
        int(10, 1, 300),
        'How long one delivery (a webhook POST or an SMTP exchange) may take. Anything but a 2xx within it is a failed attempt.',
      ),
      OWNER_WEBHOOK_ALLOW_PRIVATE: v(
        'ownerWebhookAllowPrivate',
        bool(false),
        "Let owners' per-folder webhooks reach private, loopback and link-local addresses. Off: the address is checked after DNS resolution at every delivery, so a folder owner cannot make the server call into its own network. Turn it on only where every folder owner is trusted.",
      ),
      SMTP_URL: v(
        'smtpUrl',
        url(['smtp:', 'smtps:']),
        "The mail server for owners' e-mail notifications (nodemailer). Without it, owners can only use a webhook.",
        { defaultNote: '(no e-mail)', boundsNote: ', e.g. `smtps://user:pass@mail.example.com`' },
      ),
      MAIL_FROM: v(
        'mailFrom',
        text(null, 'an address, or `Name <address>`', mailbox),
        'Sender of the notification mails.',
        { defaultNote: '; required with `SMTP_URL`' },
      ),
    },
    ({ webhookUrls, webhookSecrets, ...f }) => {
      if (f.smtpUrl && !f.mailFrom) throw new ConfigError('MAIL_FROM', 'is required with SMTP_URL');
      return { ...f, webhooks: webhookEndpoints(webhookUrls, webhookSecrets) };
    },
  ),
  mail: section('own', {
    MAIL_DIGEST_SECONDS: v(
      'digestSeconds',
      int(3600, 1, 24 * 3600),
      "An owner's notifications of one folder are gathered over this period and sent as one digest mail when it ends (counts of others' downloads and completed uploads), never one mail per event.",
    ),
    MAIL_PER_FOLDER_PER_DAY: v(
      'perFolderPerDay',
      int(12, 1),
      "Most digest mails of one folder per UTC day; past it, that day's notifications of the folder are dropped (they stay in its activity list).",
    ),
    MAIL_PER_ADDRESS_PER_DAY: v(
      'perAddressPerDay',
      int(24, 1),
      'Most digest mails to one address per UTC day, all its folders together.',
    ),
    MAIL_CONFIRMATIONS_PER_ADDRESS_PER_DAY: v(
      'confirmationsPerAddressPerDay',
      int(2, 1),
      'An address named for notifications gets a confirmation mail and nothing else until it confirms; at most this many confirmation mails per UTC day. More requests are accepted, and nothing is sent.',
    ),
    MAIL_CONFIRMATIONS_PER_CLIENT_PER_DAY: v(
      'confirmationsPerClientPerDay',
      int(10, 1),
      'Most confirmation mails one client address may cause per UTC day; past it, setting an unconfirmed address answers 429 `rate_limited`.',
    ),
    MAIL_BUDGET_PER_HOUR: v(
      'budgetPerHour',
      int(100, 1),
      'Most mails (confirmations and digests) the whole instance sends per hour, across all its nodes; past it, mails are dropped, never queued, so a flood never reaches the SMTP server.',
    ),
    MAIL_BUDGET_PER_DAY: v('budgetPerDay', int(500, 1), 'The same per UTC day.'),
  }),
  auth: section(
    'own',
    {
      OIDC_ISSUER: v(
        'issuer',
        url(),
        "The provider's issuer; its `/.well-known/openid-configuration` is read at the first sign-in. Register `<WEB_URL>/auth/callback` as the redirect URI.",
        { defaultNote: '(no sign-in)' },
      ),
      OIDC_CLIENT_ID: v(
        'clientId',
        text(null, '–'),
        'The client id registered at the provider (needed with `OIDC_ISSUER`).',
      ),
      OIDC_CLIENT_SECRET: v(
        'clientSecret',
        text(null, '–'),
        'The client secret (`client_secret_basic`). Prefer the environment to a flag.',
        { defaultNote: '(a public client: PKCE alone)' },
      ),
      OIDC_SCOPES: v(
        'scopes',
        text('openid email profile', 'must include `openid`', withOpenid),
        'The scopes asked for. Add the one that carries groups if the rules below read them (often `groups`).',
      ),
      OIDC_REQUIRED_CLAIM: v(
        'requiredClaim',
        text(null, '`claim=value`'),
        'Only people whose ID token claim equals the value, or is a list containing it (`groups=staff`), may sign in; anyone else sees a page saying so and gets no session.',
        { defaultNote: '(anyone the provider signs in)' },
      ),
      OIDC_ADMIN_CLAIM: v(
        'adminClaim',
        text(null, '`claim=value`'),
        'People holding this claim at sign-in are admins (`groups=webfolder-admins`).',
      ),
      ADMIN_EMAILS: v(
        'adminEmails',
        list('comma-separated addresses'),
        'Accounts with one of these (verified) e-mail addresses are admins; read on every request, so removing one takes effect at once.',
      ),
      SESSION_HOURS: v(
        'sessionHours',
        int(168, 1, 24 * 366),
        'How long a sign-in lasts (the cookie and the stored session).',
        { defaultNote: '(7 days)' },
      ),
      CREATE_POLICY: v(
        'createPolicy',
        oneOf(['anyone', 'signed-in'], 'anyone'),
        'Who may make folders. `signed-in`: the site asks visitors to sign in before they make a folder (401 `sign_in_required` from its create call); needs `OIDC_ISSUER`.',
      ),
      CREATE_POLICY_API: v(
        'createPolicyApi',
        oneOf(['key', 'open'], 'key'),
        'Under `CREATE_POLICY=signed-in`, whether the API and agent surfaces (`POST /v2/folders`, v1, MCP, A2A) need an API key (`Authorization: Bearer wfk_…`) or stay open to anyone. Refused: `POST /v2/folders` answers **400** `{"code":"sign_in_required"}` (its contract lists only 400), the v1 call 401 with the same code, MCP and A2A a tool/task error with it.',
      ),
    },
    ({ issuer, clientId, clientSecret, scopes, requiredClaim, adminClaim, ...f }) => {
      const oidc = oidcConfig({ issuer, clientId, clientSecret, scopes, requiredClaim, adminClaim });
      if (f.createPolicy === 'signed-in' && !oidc)
        throw new ConfigError('CREATE_POLICY', 'signed-in needs sign-in: set OIDC_ISSUER and OIDC_CLIENT_ID');
      return { ...f, oidc, adminEmails: f.adminEmails.map((email) => email.toLowerCase()) };
    },
  ),
};

/** Every section's variables, by name. */
export const VARIABLES: Readonly<Record<VariableName, Variable>> = Object.assign(
  {},
  ...Object.values(SECTIONS).map((s) => s.variables),
);

type AllVariables = { [S in keyof typeof SECTIONS]: (typeof SECTIONS)[S]['variables'] }[keyof typeof SECTIONS];
type KeysOf<U> = U extends unknown ? keyof U & string : never;
export type VariableName = KeysOf<AllVariables>;

/** Every configuration variable's name, in the table's order. */
export const KNOWN_VARIABLES = Object.keys(VARIABLES) as VariableName[];

/** The flag of a variable: `BASE_URL` -> `--base-url`. */
export const flagOf = (name: string): string => `--${name.toLowerCase().replace(/_/g, '-')}`;

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
