import { type BlobCapabilities, type BlobStore, capabilitiesOf } from '../blobs/blob-store.js';
import type { Config } from '../config/config.js';
import type { NewAuditEntry } from '../store/audit-store.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { EventSink } from './event-types.js';

/**
 * What the use cases work with: configuration, the two storage ports and the clock. Built once by
 * the composition root (src/server.ts) and shared by the HTTP routes and the agent surfaces.
 */
export interface Services {
  readonly config: Config;
  readonly store: MetadataStore;
  readonly blobs: BlobStore;
  /** What `blobs` can do beyond the base port, resolved once by composeServices. */
  readonly capabilities: BlobCapabilities;
  /** Epoch ms; the only clock the application reads. */
  readonly clock: () => number;
  /** Where use cases report what happened (webhooks, owner notifications, metrics); none in unit set-ups. */
  readonly events?: EventSink;
  /**
   * The server's signing secret (SIGNING_SECRET, or the one generated in DATA_DIR), read when first
   * needed: download tickets derive their key from it (app/site/downloads.ts).
   */
  readonly signingSecret?: () => Promise<string>;
  /** Where recorded audit entries are also sent as they happen (AUDIT_STREAM=log: the log). */
  readonly auditStream?: (entry: NewAuditEntry) => void;
}

/** The services over these parts, with the blob store's capabilities resolved once. */
export function composeServices(parts: Omit<Services, 'capabilities'>): Services {
  return { ...parts, capabilities: capabilitiesOf(parts.blobs) };
}
