/**
 * Typed failures of the client library. Every error the library throws on purpose is a
 * `WebfolderClientError`; callers tell them apart with `instanceof` or the `code` field:
 *
 * - `WebfolderError`: the server answered with a failure status. `status` is the HTTP status,
 *   `serverMessage` the server's `{error}` string (or the body text when it was not JSON) and
 *   `serverCode` its stable `{code}` when it sent one: callers branch on that, never on the text.
 * - `NetworkError`: no answer at all (connection refused or reset, DNS, timeout) after the retries.
 * - `WrongSecretError`: the secret in a share link does not open the folder (`ske` check failed),
 *   or, on a folder with a password, the password is wrong.
 * - `PasswordRequiredError`: the folder has a password and none was given.
 * - `IntegrityError` (from the crypto module): a chunk or name failed authentication.
 * - `LocalFileChangedError`: a file being resumed no longer has the size or mtime it was registered with.
 * - `ProtocolError`: the server answered success with something unusable (not JSON, an answer that
 *   does not match its contract schema, a chunk plan that does not fit the file, chunks still missing
 *   after they were all accepted). Its subclass `RedirectRefusedError` (./outbound.ts): a call that
 *   carries credentials was answered with a redirect, which no client follows.
 * - `InputError`: the caller asked for something impossible (too many files, an empty file, a bad link).
 */
export abstract class WebfolderClientError extends Error {
  abstract readonly code: string;
}

export class WebfolderError extends WebfolderClientError {
  override name = 'WebfolderError';
  readonly code = 'server_refused';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The server's `{error}` message, or the start of the body when it was not the JSON error shape. */
    readonly serverMessage: string,
    /** What the client was doing, e.g. `PUT chunk 3 of "a.bin"`. Never contains a secret. */
    readonly operation: string,
    /** Seconds from a Retry-After header, when the server sent one. */
    readonly retryAfterSeconds: number | null = null,
    /** The server's stable error code (`{error, code}`), or null when the answer had none. */
    readonly serverCode: string | null = null,
  ) {
    super(`${operation}: server answered ${status}: ${serverMessage}`);
  }
}

export class NetworkError extends WebfolderClientError {
  override name = 'NetworkError';
  readonly code = 'network';
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`${operation}: network error: ${describeCause(cause)}`);
  }
}

export class WrongSecretError extends WebfolderClientError {
  override name = 'WrongSecretError';
  readonly code = 'wrong_secret';
  constructor(message = 'the secret in this link does not open the folder (key check failed): is the link complete?') {
    super(message);
  }
}

/** The folder has a password and none was given (or the caller could not ask for one). */
export class PasswordRequiredError extends WebfolderClientError {
  override name = 'PasswordRequiredError';
  readonly code = 'password_required';
  constructor(message = 'this folder has a password: give it to open the folder') {
    super(message);
  }
}

export class LocalFileChangedError extends WebfolderClientError {
  override name = 'LocalFileChangedError';
  readonly code = 'local_file_changed';
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path} changed since the upload started (${detail}); it cannot be resumed: upload it again`);
  }
}

export class ProtocolError extends WebfolderClientError {
  override name = 'ProtocolError';
  readonly code = 'protocol';
  constructor(
    readonly operation: string,
    detail: string,
  ) {
    super(`${operation}: unexpected answer: ${detail}`);
  }
}

export class InputError extends WebfolderClientError {
  override name = 'InputError';
  readonly code = 'input';
}

/** The upload was cancelled through its AbortSignal. */
export class AbortedError extends WebfolderClientError {
  override name = 'AbortedError';
  readonly code = 'aborted';
  constructor() {
    super('the operation was aborted');
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = inner && typeof inner === 'object' && 'code' in inner ? String((inner as { code: unknown }).code) : '';
    const innerMessage = inner instanceof Error ? inner.message : '';
    return [cause.message, code, innerMessage].filter(Boolean).join(': ');
  }
  return String(cause);
}

/**
 * The stable `code` of a failure body `{error, code}`, or null. The one place that reads it: the
 * page, the library and the CLI branch on what this returns, never on the message text.
 */
export function errorCodeOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : null;
}

export interface Failure {
  /** The server's `{error}`, an S3 `<Message>`, or the start of the body. */
  readonly message: string;
  readonly code: string | null;
}

/** The one way of reading a failed answer: `{error, code}` JSON, an S3 XML error, or any text. */
export async function readFailure(response: Response): Promise<Failure> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    return { message: response.statusText || 'no body', code: null };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string')
      return { message: (parsed as { error: string }).error, code: errorCodeOf(parsed) };
  } catch {
    /* not JSON (an S3 XML error, a proxy page) */
  }
  const s3 = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? null;
  const s3Message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  if (s3Message) return { message: s3Message, code: s3 };
  return { message: text.slice(0, 200) || response.statusText || `HTTP ${response.status}`, code: null };
}

/**
 * A download of a file still arriving that can never complete: its upload was cancelled
 * (the file was removed), the folder was deleted or expired, or no chunk arrived for too long.
 * Nothing of the file is presented as complete (the CLI removes its partial file).
 */
export class UploadEndedError extends WebfolderClientError {
  override name = 'UploadEndedError';
  readonly code = 'upload_ended';
}
