import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppEvent } from '../app/events.js';
import type { SweepResult } from '../app/sweeper.js';
import type { Config } from '../config/config.js';
import { policyOf, type RoutePolicy, type RouteSurface } from '../http/callers/route-policy.js';
import type { DeliveryObserver, TargetKind } from '../notify/notifier.js';
import type { MetadataStore } from '../store/metadata-store.js';
import { diskStatus } from './disk.js';
import { VERSION } from './version.js';

/**
 * Prometheus metrics (prom-client), one registry per server (tests run many in one process).
 * Counters are fed by HTTP hooks (requests by route family and status, chunk bytes, chunk PUT
 * latency, 429s), by the use cases' events (creates, registrations, completions, downloads), by the
 * sweeper and by the notification deliveries; usage gauges are read from the store at scrape time,
 * at most every few seconds, so a scrape never costs more than one aggregate query.
 */
export type RouteFamily =
  | 'create'
  | 'upload_status'
  | 'chunk_upload'
  | 'chunk_download'
  | Exclude<RouteSurface, 'chunk'>
  | 'unmatched';

/**
 * The family of a route, from its declaration (src/http/callers/route-policy.ts; never the raw URL: no ids
 * in labels): its surface, with the contract's create and upload status and the two directions of
 * chunk transfers counted apart.
 */
export function routeFamily(policy: RoutePolicy | undefined, method: string): RouteFamily {
  if (!policy) return 'unmatched';
  if (policy.operation === 'create') return 'create';
  if (policy.operation === 'upload-status') return 'upload_status';
  if (policy.surface === 'chunk') return method === 'PUT' ? 'chunk_upload' : 'chunk_download';
  return policy.surface;
}

const USAGE_TTL_MS = 5000;

export class Metrics implements DeliveryObserver {
  readonly registry = new Registry();
  private readonly requests;
  private readonly duration;
  private readonly rateLimited;
  private readonly foldersCreated;
  private readonly filesRegistered;
  private readonly filesCompleted;
  private readonly downloads;
  private readonly bytesIn;
  private readonly bytesOut;
  private readonly chunkPut;
  private readonly inFlight;
  private readonly sweeps;
  private readonly sweptFolders;
  private readonly sweptFiles;
  private readonly sweepFailures;
  private readonly deliveries;
  private readonly deliveryFailures;
  private usageCache: {
    at: number;
    value: Promise<Awaited<ReturnType<MetadataStore['byteCounts']['usage']>> & { pending: number; failed: number }>;
  } | null = null;

  constructor(
    private readonly config: Config,
    store: MetadataStore,
  ) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'webfolder_' });
    this.requests = new Counter({
      name: 'webfolder_http_requests_total',
      help: 'HTTP requests answered, by route family and status code',
      labelNames: ['family', 'status'] as const,
      registers,
    });
    // Whole requests by route family, for latency objectives (p99 per family from the buckets).
    this.duration = new Histogram({
      name: 'webfolder_http_request_duration_seconds',
      help: 'Time from the request arriving to its answer being sent, by route family',
      labelNames: ['family'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    // The usual Prometheus build-info idiom: a constant 1 whose labels say what runs.
    new Gauge({
      name: 'webfolder_build_info',
      help: 'The running version of webfolder and of Node.js (always 1)',
      labelNames: ['version', 'node'] as const,
      registers,
    }).set({ version: VERSION, node: process.versions.node }, 1);
    this.rateLimited = new Counter({
      name: 'webfolder_rate_limited_total',
      help: 'Requests refused with 429, by route family',
      labelNames: ['family'] as const,
      registers,
    });
    this.foldersCreated = new Counter({
      name: 'webfolder_folders_created_total',
      help: 'Folders created, by flow (empty: for the browser; direct: with files)',
      labelNames: ['flow'] as const,
      registers,
    });
    this.filesRegistered = new Counter({
      name: 'webfolder_files_registered_total',
      help: 'Files registered for upload',
      registers,
    });
    this.filesCompleted = new Counter({
      name: 'webfolder_files_completed_total',
      help: 'Files whose every chunk is stored',
      registers,
    });
    this.downloads = new Counter({
      name: 'webfolder_file_downloads_total',
      help: 'Whole-file downloads (the last chunk handed out)',
      registers,
    });
    this.bytesIn = new Counter({
      name: 'webfolder_chunk_bytes_received_total',
      help: 'Encrypted chunk bytes stored through this server (local backend)',
      registers,
    });
    this.bytesOut = new Counter({
      name: 'webfolder_chunk_bytes_sent_total',
      help: 'Encrypted chunk bytes served by this server (local backend)',
      registers,
    });
    this.chunkPut = new Histogram({
      name: 'webfolder_chunk_put_duration_seconds',
      help: 'Time to receive and store one chunk (successful PUTs)',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'webfolder_chunk_uploads_in_flight',
      help: 'Chunk PUTs being received right now on this node',
      registers,
    });
    this.sweeps = new Counter({ name: 'webfolder_sweeps_total', help: 'Expiry sweeper runs', registers });
    this.sweepFailures = new Counter({
      name: 'webfolder_sweep_failures_total',
      help: 'Expiry sweeper runs that failed',
      registers,
    });
    this.sweptFolders = new Counter({
      name: 'webfolder_swept_folders_total',
      help: 'Folders deleted by the sweeper',
      registers,
    });
    this.sweptFiles = new Counter({
      name: 'webfolder_swept_files_total',
      help: 'Single expired files deleted by the sweeper',
      registers,
    });
    this.deliveries = new Counter({
      name: 'webfolder_notifications_delivered_total',
      help: 'Notifications delivered (webhook: operator endpoints; owner-webhook, owner-mail)',
      labelNames: ['target'] as const,
      registers,
    });
    this.deliveryFailures = new Counter({
      name: 'webfolder_notification_failures_total',
      help: 'Failed notification attempts; final="true" when it was the last attempt',
      labelNames: ['target', 'final'] as const,
      registers,
    });
    const usage = () => {
      const now = Date.now();
      if (!this.usageCache || now - this.usageCache.at > USAGE_TTL_MS) {
        const value = Promise.all([store.byteCounts.usage(), store.outbox.outboxCounts()]).then(([u, o]) => ({
          ...u,
          ...o,
        }));
        // A failed read is not cached: the next scrape tries again.
        value.catch(() => {
          this.usageCache = null;
        });
        this.usageCache = { at: now, value };
      }
      return this.usageCache.value;
    };
    const gauge = (name: string, help: string, read: (u: Awaited<ReturnType<typeof usage>>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(read(await usage()));
        },
      });
    gauge('webfolder_stored_bytes', 'Registered (plaintext) bytes of the live files, all nodes', (u) => u.bytes);
    gauge('webfolder_folders', 'Live folders', (u) => u.folders);
    gauge('webfolder_files', 'Live files', (u) => u.files);
    gauge('webfolder_open_uploads', 'Files registered and not yet complete', (u) => u.incompleteFiles);
    gauge('webfolder_notifications_pending', 'Notifications waiting in the outbox', (u) => u.pending);
    gauge('webfolder_notifications_failed', 'Notifications given up after their last attempt', (u) => u.failed);
    const quota = new Gauge({
      name: 'webfolder_quota_bytes',
      help: 'Configured quotas in bytes (scope: total or folder); absent when unlimited',
      labelNames: ['scope'] as const,
      registers,
    });
    if (config.quotas.totalBytes !== null) quota.set({ scope: 'total' }, config.quotas.totalBytes);
    if (config.quotas.folderBytes !== null) quota.set({ scope: 'folder' }, config.quotas.folderBytes);
    // The local disk's free space beside its floor (one statfs per scrape); absent on S3.
    if (!config.s3) {
      new Gauge({
        name: 'webfolder_disk_bytes',
        help: 'Local blob disk: free (for this process), floor (DISK_FREE_MIN_MIB, uploads refused below it), usable (free above the floor)',
        labelNames: ['kind'] as const,
        registers,
        async collect() {
          const d = await diskStatus(config);
          if (!d) return;
          this.set({ kind: 'free' }, d.freeBytes);
          this.set({ kind: 'floor' }, d.floorBytes);
          this.set({ kind: 'usable' }, d.usableBytes);
        },
      });
    }
  }

  /** Counts every answered request (hooks on the root instance, so every plugin's routes pass). */
  install(app: FastifyInstance): void {
    const family = (request: FastifyRequest) => routeFamily(policyOf(request.routeOptions.config), request.method);
    // Callback hooks: every request passes them, and an async hook costs a promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      if (family(request) === 'chunk_upload') {
        this.inFlight.inc();
        reply.raw.once('close', () => this.inFlight.dec());
      }
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      this.answered(request, reply, family(request));
      done();
    });
  }

  /** One answered request in the counters. */
  private answered(request: FastifyRequest, reply: FastifyReply, f: string): void {
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    once(this.counted, `${f} ${status}`, () => this.requests.labels({ family: f, status: String(status) })).inc();
    once(this.timed, f, () => this.duration.labels({ family: f })).observe(seconds);
    if (status === 429) this.rateLimited.inc({ family: f });
    if (status !== 200) return;
    if (f === 'chunk_upload') {
      this.bytesIn.inc(Number(request.headers['content-length'] ?? 0));
      this.chunkPut.observe(seconds);
    } else if (
      f === 'chunk_download' &&
      String(reply.getHeader('content-type')).startsWith('application/octet-stream')
    ) {
      this.bytesOut.inc(Number(reply.getHeader('content-length') ?? 0));
    }
  }

  // Each metric's child for one set of label values, looked up once (once()): prom-client hashes the
  // labels on every call otherwise. The sets are few (route families times statuses).
  private readonly counted = new Map<string, { inc(): void }>();
  private readonly timed = new Map<string, { observe(value: number): void }>();

  events(events: readonly AppEvent[]): void {
    for (const e of events) {
      if (e.type === 'folder.created') this.foldersCreated.inc({ flow: e.flow ?? 'empty' });
      else if (e.type === 'file.registered') this.filesRegistered.inc();
      else if (e.type === 'file.completed') this.filesCompleted.inc();
      else if (e.type === 'file.downloaded') this.downloads.inc();
    }
  }

  swept(result: SweepResult): void {
    this.sweeps.inc();
    this.sweptFolders.inc(result.foldersDeleted);
    this.sweptFiles.inc(result.filesDeleted);
  }

  sweepFailed(): void {
    this.sweeps.inc();
    this.sweepFailures.inc();
  }

  delivered(kind: TargetKind): void {
    this.deliveries.inc({ target: kind });
  }

  failed(kind: TargetKind, final: boolean): void {
    this.deliveryFailures.inc({ target: kind, final: String(final) });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The value of `key` in `map`, made by `make` the first time. */
function once<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
