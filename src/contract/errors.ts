/**
 * The stable error codes of every surface (REST, site endpoints, chunk PUTs, MCP, A2A). Every
 * refusal on the wire carries one of these as `code` next to its human-readable `error`; clients,
 * the page and the agent surfaces branch on `code`, never on the text, which may be reworded.
 *
 * A code's name and meaning never change once published; new codes may be added. `status` is the
 * HTTP status the code is answered with, with one exception: the two v2 contract operations answer
 * only the statuses spec section 7 lists (400, 404, 429, 500), so there a code whose status the spec
 * does not list is answered 400 if it is a refusal (a wrong media type, an oversized body) and 500 if
 * it is the server's state (no storage left), still with its own code.
 */
export const ERROR_CODES = {
  invalid_request: {
    status: 400,
    description: 'A body field, query or path parameter or header is missing or breaks a rule; `error` names which.',
  },
  invalid_json: {
    status: 400,
    description: 'The body is not valid JSON (or is empty where a body is required, or repeats a key).',
  },
  forbidden: {
    status: 403,
    description:
      'The credential (token, signature) is missing, wrong or expired, or it does not allow this action, or the Origin or Host is not allowed.',
  },
  not_found: {
    status: 404,
    description:
      'No such route, folder, file or chunk (a wrong uploadAuth also answers this, so as not to reveal the file).',
  },
  expired: {
    status: 404,
    description:
      'The folder has expired and its files are deleted (answered as 404, like a folder that never existed).',
  },
  taken_down: {
    status: 404,
    description:
      "The operator took this folder down; nothing of it is served. The folder's page says why (`GET <site>/api/site/folders/{folderId}/take-down`).",
  },
  download_ticket_required: {
    status: 403,
    description:
      'This file has a download limit: its chunks are served only with a download ticket (`X-Download-Ticket` or `?ticket=`, from POST …/downloads); the ticket is missing, wrong or expired.',
  },
  download_limit_reached: {
    status: 410,
    description:
      "The file has been downloaded as many times as its owner allowed (the file's download limit, else the folder's); nothing was counted.",
  },
  sign_in_required: {
    status: 401,
    description:
      'The operator lets only signed-in people make folders (CREATE_POLICY=signed-in): sign in on the site, or send an API key as `Authorization: Bearer wfk_…`. The v2 contract operations answer it as 400 (their statuses, spec 7), with this code.',
  },
  api_key_invalid: {
    status: 401,
    description:
      'The API key sent as `Authorization: Bearer wfk_…` is unknown or revoked: nothing was done. Without a key the request counts as anonymous.',
  },
  method_not_allowed: { status: 405, description: 'The route exists but not with this method.' },
  conflict: {
    status: 409,
    description:
      'The request conflicts with the current state (for example, a chunk of a file that is already complete, or other bytes for a chunk stored already).',
  },
  request_timeout: {
    status: 408,
    description: 'The request (or its body) did not arrive in time; nothing was stored.',
  },
  length_required: { status: 411, description: 'A chunk upload must state its Content-Length (no chunked encoding).' },
  payload_too_large: { status: 413, description: 'The body is larger than this endpoint accepts.' },
  quota_exceeded: {
    status: 413,
    description:
      "The files would take the folder past its storage quota (the operator's QUOTA_FOLDER_MIB); nothing was registered.",
  },
  uri_too_long: { status: 414, description: 'The request line or a path segment is longer than the server accepts.' },
  unsupported_media_type: { status: 415, description: 'The body has a media type this endpoint does not accept.' },
  headers_too_large: { status: 431, description: 'The request headers are larger than the server accepts.' },
  rate_limited: {
    status: 429,
    description: 'Too many requests from this client address; retry after the `Retry-After` header (seconds).',
  },
  internal_error: {
    status: 500,
    description: 'A fault of the service; the details are in its log, not in the answer.',
  },
  unavailable: { status: 503, description: 'The server is shutting down or a backend is unreachable; retry shortly.' },
  insufficient_storage: {
    status: 507,
    description:
      "The server has no room for this data (disk full, below its free-space floor, or the instance's storage quota used up); nothing was stored.",
  },
} as const satisfies Record<string, { readonly status: number; readonly description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];

/** The statuses the v2 contract operations may answer (spec section 7). */
export const CONTRACT_ERROR_STATUSES: readonly number[] = [400, 404, 429, 500];

/** The wire shape of every REST error body: `{error, code}` (the spec's ErrorResponse plus `code`). */
export interface ErrorBody {
  readonly error: string;
  readonly code: ErrorCode;
}

/**
 * Failures reported to the caller, by a use case or by a blob store (blobs/blob-store.ts): a stable
 * code (above) and a message.
 * The HTTP status is the one the catalogue gives the code, so a code and its status never disagree;
 * the HTTP layer sends it with `{error, code}`, the agent surfaces turn the same pair into tool or
 * task errors. Anything else thrown is a bug or an outage and becomes a 500 with a generic message.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status the code is answered with (the v2 contract scope narrows it: spec 7). */
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}
