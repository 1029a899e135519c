import type { FileRecord, FolderRecord, Outbox } from '../store/metadata-store.js';
import type { AppEvent, EventSink, EventType } from './event-types.js';
import type { Services } from './services.js';

/** Sending what the use cases report (the events themselves: event-types.ts). */
export type { AppEvent, EventSink, EventType };

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
  const outbox = await sink.outbox(events);
  const result = await change(outbox);
  if (tookEffect(result)) sink.committed(events, outbox);
  return result;
}

/** Reports events that change nothing else (a download is only its event): the outbox write alone. */
export function emit(services: Services, ...events: AppEvent[]): Promise<void> {
  return withEvents(services, events, (outbox) => services.store.outbox.enqueueOutbox(outbox));
}
