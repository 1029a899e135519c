import type { Mode } from '../domain/modes.js';
import type { FileRecord, FolderRecord, Outbox } from '../store/metadata-store.js';
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

/** An event about one file of a folder, in the one shape every use case reports it. */
export function fileEvent(
  type: 'file.registered' | 'file.completed' | 'file.downloaded',
  at: number,
  folder: Pick<FolderRecord, 'id' | 'mode' | 'title'>,
  file: Pick<FileRecord, 'id' | 'filesize' | 'chunks'>,
  by: 'owner' | 'visitor',
): AppEvent {
  const { id: folderId, mode, title } = folder;
  return { type, at, folderId, mode, title, fileId: file.id, size: file.filesize, chunks: file.chunks, by };
}

/**
 * Where events go. Events are written in the same transaction as the change they report (the store
 * methods take outbox rows, see withEvents), so a crash right after a commit loses no event and a
 * change that failed reports none.
 */
export interface EventSink {
  /** The outbox rows that report `events` (one per event and target; none when no one listens). */
  outbox(events: readonly AppEvent[]): Promise<Outbox>;
  /** The change that reported `events` committed: counts them and starts their delivery. Never throws. */
  committed(events: readonly AppEvent[]): void;
}

/**
 * Runs a change that reports `events`: `change` must hand the outbox rows it is given to the store
 * write that makes the change (which stores them in its transaction, only if the change took effect).
 * `tookEffect` says from the write's result whether it did (a completion already recorded, a refused
 * append), so the sink counts and delivers only what was committed.
 */
export async function withEvents<T>(
  services: Services,
  events: readonly AppEvent[],
  change: (outbox: Outbox) => Promise<T>,
  tookEffect: (result: T) => boolean = () => true,
): Promise<T> {
  const sink = services.events;
  if (!sink || events.length === 0) return change([]);
  const result = await change(await sink.outbox(events));
  if (tookEffect(result)) sink.committed(events);
  return result;
}

/** Reports events that change nothing else (a download is only its event): the outbox write alone. */
export function emit(services: Services, ...events: AppEvent[]): Promise<void> {
  return withEvents(services, events, (outbox) => services.store.ops.enqueueOutbox(outbox));
}
