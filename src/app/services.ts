import type { BlobCapabilities, BlobStore } from '../blobs/blob-store.js';
import type { Config } from '../config/config.js';
import type { NewAuditEntry } from '../store/audit-store.js';
import type { MetadataStore } from '../store/metadata-store.js';
import type { EventSink } from './event-types.js';
import type { SigningKeys } from './signing-keys.js';

/**
 * What the use cases work with: configuration, the two storage ports and the clock. Built once by
 * the composition root (src/server.ts) and shared by the HTTP routes and the agent surfaces.
 */
export interface Services {
  readonly config: Config;
  readonly store: MetadataStore;
  readonly blobs: BlobStore;
  /** What `blobs` can do beyond the base port: the store's own declaration (`blobs.capabilities`). */
  readonly capabilities: BlobCapabilities;
  /** Epoch ms; the only clock the application reads. */
  readonly clock: () => number;
  /** Where use cases report what happened (webhooks, owner notifications, metrics); none in unit set-ups. */
  readonly events?: EventSink;
  /** The keys derived from the server's signing secret, one per purpose (./signing-keys.ts). */
  readonly keys: SigningKeys;
  /** Where recorded audit entries are also sent as they happen (AUDIT_STREAM=log: the log). */
  readonly auditStream?: (entry: NewAuditEntry) => void;
}

/** The services over these parts, with the blob store's capabilities at hand. */
export function composeServices(parts: Omit<Services, 'capabilities'>): Services {
  return { ...parts, capabilities: parts.blobs.capabilities };
}
