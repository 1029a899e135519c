import type { Mode } from '../domain/modes.js';
import type { Services } from './services.js';

/**
 * What happened, as the use cases report it: the events the operator's webhooks receive, the owner
 * notifications are made from, and the metrics count. Only metadata the server has anyway (ids,
 * sizes, mode, times); never a secret, a file name or a title (the title is attached only for the
 * sink to send when the operator opts in).
 */
export type EventType =
  | 'folder.created'
  | 'file.registered'
  | 'file.completed'
  | 'file.downloaded'
  | 'folder.claimed'
  | 'folder.deleted'
  | 'folder.expired';

export const EVENT_TYPES: readonly EventType[] = [
  'folder.created',
  'file.registered',
  'file.completed',
  'file.downloaded',
  'folder.claimed',
  'folder.deleted',
  'folder.expired',
];

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
 * Where events go. `emit` resolves once the event is recorded (durably, where deliveries hang on it)
 * and never rejects: a notification problem must not fail the request that caused it.
 */
export interface EventSink {
  emit(events: readonly AppEvent[]): Promise<void>;
}

/** Reports events if the composition root gave the services a sink. */
export function emit(services: Services, ...events: AppEvent[]): Promise<void> {
  return services.events && events.length > 0 ? services.events.emit(events) : Promise.resolve();
}
