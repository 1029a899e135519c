import type { Mode } from '../domain/modes.js';
import type { Outbox } from '../store/metadata-store.js';

/**
 * What happened, as the use cases report it: the events the operator's webhooks receive, the owner
 * notifications are made from, and the metrics count. Only metadata the server has anyway (ids,
 * sizes, mode, times); never a secret, a file name or a title (the title is attached only for the
 * sink to send when the operator opts in).
 *
 * Types only, apart from events.ts which sends them: the services name their sink here, so that
 * services.ts and events.ts do not import each other.
 */
export type EventType =
  | 'folder.created'
  | 'file.registered'
  | 'file.completed'
  | 'file.downloaded'
  | 'folder.claimed'
  | 'folder.deleted'
  | 'folder.expired';

export interface AppEvent {
  readonly type: EventType;
  /** Epoch ms of the change. */
  readonly at: number;
  readonly folderId: string;
  readonly mode?: Mode;
  /** `empty` (a browser fills it) or `direct` (registered with its files). */
  readonly flow?: 'empty' | 'direct';
  readonly fileId?: string;
  /** Plaintext size in bytes, as registered. */
  readonly size?: number;
  readonly chunks?: number;
  /** Who did it, where the server knows: the folder's owner or a visitor. */
  readonly by?: 'owner' | 'visitor';
  /** Folder title: sent only when the operator opted in (WEBHOOK_INCLUDE_TITLES). */
  readonly title?: string;
}

/**
 * Where events go. Events are written in the same transaction as the change they report (the store
 * methods take outbox rows, see withEvents), so a crash right after a commit loses no event and a
 * change that failed reports none.
 */
export interface EventSink {
  /** The outbox rows that report `events` (one per event and target; none when no one listens). */
  outbox(events: readonly AppEvent[]): Promise<Outbox>;
  /**
   * The change that reported `events` committed, with the outbox rows `outbox` gave it: counts the
   * events and starts delivering the rows. Never throws.
   */
  committed(events: readonly AppEvent[], outbox: Outbox): void;
}
