import { createHash } from 'node:crypto';
import type { AppEvent } from '../app/events.js';

/**
 * The JSON body of a notification, in the Standard Webhooks shape `{type, timestamp, data}`: ids,
 * sizes, mode and times. Titles only when the operator opted in; never secrets or (encrypted) names.
 */
export interface EventBody {
  readonly type: AppEvent['type'];
  readonly timestamp: string;
  readonly data: Record<string, string | number>;
}

export function eventBody(event: AppEvent, includeTitle: boolean): EventBody {
  const data: Record<string, string | number> = { folderId: event.folderId };
  if (event.fileId !== undefined) data.fileId = event.fileId;
  if (event.mode !== undefined) data.mode = event.mode;
  if (event.flow !== undefined) data.flow = event.flow;
  if (event.size !== undefined) data.size = event.size;
  if (event.chunks !== undefined) data.chunks = event.chunks;
  if (event.by !== undefined) data.by = event.by;
  if (includeTitle && event.title !== undefined) data.title = event.title;
  return { type: event.type, timestamp: new Date(event.at).toISOString(), data };
}

/** The outbox target of an operator endpoint: stable across restarts and reordering of WEBHOOK_URL. */
export function endpointTarget(url: string): string {
  return `hook:${createHash('sha256').update(url).digest('base64url').slice(0, 16)}`;
}
