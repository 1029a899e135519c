import type { AppEvent, EventSink } from '../app/events.js';
import { addressKey, CONFIRM_LINK_HOURS, consentLinks } from '../app/mail-consent.js';
import type { SigningKeys } from '../app/signing-keys.js';
import type { Config, WebhookEndpoint } from '../config/config.js';
import { randomText } from '../domain/ids.js';
import { folderPageUrl } from '../domain/links.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { NewOutboxEntry, OutboxEntry } from '../store/ops-store.js';
import { postJson } from './http-post.js';
import { composeConfirmation, composeDigest, type Mailer, smtpMailer } from './mail.js';
import { type MailBudget, mailBudget } from './mail-budget.js';
import { type EventBody, endpointTarget, eventBody } from './payload.js';
import { keyOfSecret, signedHeaders } from './signing.js';

/**
 * Notifications through a durable outbox in the metadata store.
 *
 * - `outbox` (the use cases' EventSink) makes one outbox row per event and target, which the store
 *   writes in the transaction of the change the event reports (app/events.ts withEvents): an
 *   operator endpoint (WEBHOOK_URL) for every event, and the folder owner's mail or webhook for
 *   downloads and uploads by others when the owner asked for them. The owner's address
 *   is not copied into the row: delivery looks it up, so it lives only in the folder's settings
 *   (deleted with the folder) and a notification for a deleted folder is dropped.
 * - A delivery loop on every node claims due rows with a lease (one node per row), sends them
 *   concurrently, and on failure schedules a retry with exponential backoff and jitter; after
 *   WEBHOOK_MAX_ATTEMPTS the row stays as failed (admin stats, metrics). At-least-once: a row is
 *   removed only after a 2xx; receivers de-duplicate on `webhook-id` (the event id).
 * - Nothing here runs inside a request except the outbox insert: a slow or failing endpoint never
 *   slows a request.
 */
export interface DeliveryObserver {
  delivered(kind: TargetKind): void;
  failed(kind: TargetKind, final: boolean): void;
  events(events: readonly AppEvent[]): void;
}

export type TargetKind = 'webhook' | 'owner-webhook' | 'owner-mail' | 'mail-confirm';

const LEASE_MS = 5 * 60_000;
const POLL_MS = 1000;
const BATCH = 32;
const MAX_BACKOFF_MS = 6 * 3600_000;

export interface Notifier extends EventSink {
  /** Starts the delivery loop. */
  start(): void;
  /** Runs one delivery round now (tests and the loop). Resolves when its deliveries are done. */
  deliverDue(): Promise<number>;
  /** Stops the loop after the deliveries in flight. */
  stop(): Promise<void>;
}

export function createNotifier(
  config: Config,
  store: MetadataStore,
  clock: () => number,
  observer: DeliveryObserver,
  onError: (error: unknown, context: string) => void,
  /** The keys of the instance's signing secret, for the consent links in every mail (src/app/mail-consent.ts). */
  keys: SigningKeys,
): Notifier {
  const notifications = config.notifications;
  const endpoints = new Map<string, WebhookEndpoint>(notifications.webhooks.map((e) => [endpointTarget(e.url), e]));
  const mailer: Mailer | null =
    notifications.smtpUrl && notifications.mailFrom
      ? smtpMailer(notifications.smtpUrl, notifications.mailFrom, notifications.webhookTimeoutSeconds * 1000)
      : null;
  const budget: MailBudget = mailBudget(config.mail, store);
  const digestMs = config.mail.digestSeconds * 1000;
  const links = (to: string) => consentLinks({ config, keys }, to, clock());
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  const ownerEvent = (e: AppEvent): 'download' | 'upload' | null =>
    e.by !== 'visitor'
      ? null
      : e.type === 'file.downloaded'
        ? 'download'
        : e.type === 'file.completed'
          ? 'upload'
          : null;

  async function rowsFor(event: AppEvent): Promise<NewOutboxEntry[]> {
    const kind = ownerEvent(event);
    // Nobody listens (no WEBHOOK_URL, not an owner's event): no row, and nothing to draw or read.
    if (endpoints.size === 0 && !kind) return [];
    const eventId = `msg_${randomText(12)}`;
    const now = clock();
    const row = (target: string, body: EventBody): NewOutboxEntry => ({
      id: `${eventId}:${target}`,
      eventId,
      target,
      folderId: event.folderId,
      payload: JSON.stringify(body),
      createdAt: now,
      nextAttemptAt: now,
    });
    const rows = [...endpoints.keys()].map((target) =>
      row(target, eventBody(event, notifications.webhookIncludeTitles)),
    );
    if (kind) {
      const settings = await store.notificationSettings.getFolderNotifications(event.folderId);
      const wanted = settings && (kind === 'download' ? settings.onDownload : settings.onUpload);
      // Owners get no titles either: the body is the same for everyone.
      if (wanted && settings.webhookUrl) rows.push(row('owner-hook', eventBody(event, false)));
      // One digest per folder and digest period: every event's row is due when its
      // period ends, and the rows of one folder and period are sent as one mail (deliverDigest).
      if (wanted && settings.email && mailer)
        rows.push({ ...row('owner-mail', eventBody(event, false)), nextAttemptAt: periodOf(now + digestMs) });
    }
    return rows;
  }

  /** The start of the digest period `at` falls in. */
  function periodOf(at: number): number {
    return Math.floor(at / digestMs) * digestMs;
  }

  /** A failed delivery: retried later with backoff, or given up after its last attempt. */
  async function failedDelivery(entry: OutboxEntry, kind: TargetKind, error: unknown): Promise<void> {
    const attempts = entry.attempts + 1;
    const final = attempts >= notifications.webhookMaxAttempts;
    const backoff = Math.min(MAX_BACKOFF_MS, notifications.webhookRetryBaseSeconds * 1000 * 2 ** (attempts - 1));
    const jittered = Math.round(backoff * (0.8 + Math.random() * 0.4));
    observer.failed(kind, final);
    await store.outbox
      .retryOutbox(entry.id, attempts, final ? null : clock() + jittered, (error as Error).message ?? String(error))
      .catch((e) => onError(e, 'recording a failed delivery'));
  }

  /**
   * The owner-mail rows of one folder and digest period, as one mail: only to a confirmed address,
   * within the folder's and the address's daily allowance and the instance's budget, and once per
   * folder and period (rows of the period claimed later are told in no second mail); else the rows
   * are dropped. The counts are the rows' events: others' downloads and completed uploads.
   */
  async function deliverDigest(rows: readonly OutboxEntry[]): Promise<void> {
    const first = rows[0]!;
    const folderId = first.folderId!;
    try {
      const settings = await store.notificationSettings.getFolderNotifications(folderId);
      const to = settings?.email;
      let sent = false;
      if (to && mailer && (await store.mail.addressStatus(addressKey(to))) === 'confirmed') {
        const since = periodOf(first.createdAt);
        // A retry (a failed send) is a new attempt at the period's one digest.
        if (await budget.spendDigest(folderId, addressKey(to), `${since}:${first.attempts}`, clock())) {
          const events = rows.map((r) => JSON.parse(r.payload) as EventBody);
          const counts = {
            downloads: events.filter((e) => e.type === 'file.downloaded').length,
            uploads: events.filter((e) => e.type === 'file.completed').length,
          };
          const { refuse } = await links(to);
          const link = folderPageUrl(config.webUrl, folderId);
          await mailer.send(
            to,
            composeDigest(events[0]!, counts, since, link, config.siteName, refuse, settings.language),
          );
          sent = true;
        }
      }
      for (const row of rows) await store.outbox.finishOutbox(row.id);
      if (sent) observer.delivered('owner-mail');
    } catch (error) {
      for (const row of rows) await failedDelivery(row, 'owner-mail', error);
    }
  }

  async function deliver(entry: OutboxEntry): Promise<void> {
    const kind: TargetKind = entry.target.startsWith('hook:') ? 'webhook' : (entry.target as TargetKind);
    try {
      const sent = await send(entry);
      await store.outbox.finishOutbox(entry.id);
      if (sent) observer.delivered(kind);
    } catch (error) {
      await failedDelivery(entry, kind, error);
    }
  }

  /** Sends one delivery; false when there is nothing to send any more (target gone), throws on failure. */
  async function send(entry: OutboxEntry): Promise<boolean> {
    const timeoutMs = notifications.webhookTimeoutSeconds * 1000;
    const stamp = Math.floor(clock() / 1000);
    if (entry.target.startsWith('hook:')) {
      const endpoint = endpoints.get(entry.target);
      if (!endpoint) return false; // removed from WEBHOOK_URL since
      const headers = signedHeaders(endpoint.key, entry.eventId, stamp, entry.payload);
      await expect2xx(postJson(endpoint.url, entry.payload, { ...headers }, { timeoutMs, publicOnly: false }));
      return true;
    }
    const settings = entry.folderId ? await store.notificationSettings.getFolderNotifications(entry.folderId) : null;
    if (entry.target === 'owner-hook') {
      if (!settings?.webhookUrl || !settings.webhookSecret) return false;
      const headers = signedHeaders(keyOfSecret(settings.webhookSecret), entry.eventId, stamp, entry.payload);
      await expect2xx(
        postJson(
          settings.webhookUrl,
          entry.payload,
          { ...headers },
          { timeoutMs, publicOnly: !notifications.ownerWebhookAllowPrivate },
        ),
      );
      return true;
    }
    if (entry.target === 'mail-confirm') {
      const { to, language } = JSON.parse(entry.payload) as { to: string; language?: string };
      if (!mailer || (await store.mail.addressStatus(addressKey(to))) !== null) return false;
      if (!(await budget.spendInstance(clock()))) return false;
      const { confirm, refuse } = await links(to);
      await mailer.send(
        to,
        composeConfirmation(config.siteName, confirm, refuse, CONFIRM_LINK_HOURS, language ?? null),
      );
      return true;
    }
    return false;
  }

  async function deliverDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await store.outbox.claimOutbox(clock(), LEASE_MS, BATCH);
      const digests = new Map<string, OutboxEntry[]>();
      for (const entry of due) {
        if (entry.target !== 'owner-mail' || !entry.folderId) continue;
        const key = `${entry.folderId}:${periodOf(entry.createdAt)}`;
        digests.set(key, [...(digests.get(key) ?? []), entry]);
      }
      await Promise.all([
        ...due.filter((e) => e.target !== 'owner-mail' || !e.folderId).map(deliver),
        ...[...digests.values()].map(deliverDigest),
      ]);
      total += due.length;
      if (due.length < BATCH || stopped) return total;
    }
  }

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDue()
      .catch((error) => {
        onError(error, 'delivering notifications');
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          tick();
        }
      });
  };

  return {
    async outbox(events) {
      return (await Promise.all(events.map(rowsFor))).flat();
    },
    committed(events, outbox) {
      observer.events(events);
      // Deliver soon on this node rather than at the next poll; a change that enqueued nothing has
      // nothing to deliver (a claim would be one more write transaction per request).
      if (timer && outbox.length > 0) setImmediate(tick);
    },
    start() {
      if (timer || stopped) return;
      timer = setInterval(tick, POLL_MS);
      timer.unref();
      tick();
    },
    deliverDue,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      mailer?.close();
    },
  };
}

async function expect2xx(result: Promise<{ status: number }>): Promise<void> {
  const { status } = await result;
  if (status < 200 || status > 299) throw new Error(`HTTP ${status}`);
}
