/**
 * Why a transfer waits before its next try, as the upload and download lines tell it (one rule for
 * both): the server asked to slow down (429), the server answered that it cannot serve now (408 or
 * 5xx: a restart, an overloaded proxy), this device is offline, or no answer came at all. A 503 is
 * not "the server did not answer": it did, and the person should read that it is unavailable.
 */
export type WaitReason = 'slow' | 'unavailable' | 'offline' | 'no-answer';

/** `status`: the HTTP status that caused the retry, or null when no answer came (RetryInfo.status). */
export function waitReason(status: number | null): WaitReason {
  if (status === 429) return 'slow';
  if (status !== null) return 'unavailable';
  return typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'no-answer';
}

/** Each reason's catalog key on the upload line and on the download line. */
export const UPLOAD_WAIT = {
  slow: 'upload.waitSlow',
  unavailable: 'upload.waitUnavailable',
  offline: 'upload.waitOffline',
  'no-answer': 'upload.waitNoAnswer',
} as const satisfies Record<WaitReason, string>;

export const DOWNLOAD_WAIT = {
  slow: 'files.waitSlow',
  unavailable: 'files.waitUnavailable',
  offline: 'files.waitOffline',
  'no-answer': 'files.waitNoAnswer',
} as const satisfies Record<WaitReason, string>;
