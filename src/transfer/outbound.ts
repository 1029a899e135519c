import { answerValidator } from '../contract/answer-validators.js';
import type { AnswerName, Answers } from '../contract/answers.js';
import { ProtocolError } from './errors.js';
import { exchange, type HttpOptions, isRedirect } from './retry.js';

/**
 * The one outbound-request layer of every client: the library, the CLI, the page and its service
 * worker send every HTTP request through this module and no other (test/unit/outbound-scan.test.ts
 * fails on a `fetch(`, `XMLHttpRequest` or `exchange(` anywhere else in src/transfer, src/client or
 * web/src, but for the transports themselves). Two kinds of request, and nothing in between:
 *
 * - `home`: a call to the service's own address (the v2 API, the site's endpoints). Credential
 *   headers (`X-Owner-Token`, `X-Visitor-Token`, `X-Upload-Auth`, `X-Download-Ticket`, and the
 *   CLI's `Authorization` for a login in the server URL) and tickets in the query go only on these.
 *   Redirects are never followed (`redirect: 'manual'`): any 3xx is refused with
 *   `RedirectRefusedError`, naming where it pointed. Not even same-origin ones: the API never
 *   redirects, a browser does not reveal where a manual redirect points (so it could not tell same
 *   from cross origin), and one rule everywhere is the rule that holds. The only 3xx a caller may
 *   see is a chunk download's (`allowRedirect`), which the site points at object storage and which
 *   is then fetched as a `foreign` request. A JSON answer is checked against its contract schema
 *   (src/contract/answers.ts) before any field of it is read: a mismatch is a `ProtocolError`
 *   naming the call and the field.
 * - `foreign`: a presigned address of object storage (chunk PUT and GET), another origin by design.
 *   It carries none of our credentials: credential headers are removed, cookies are omitted, and
 *   the signature in the URL is all it needs. Redirects may be followed (nothing of ours is on it;
 *   fetch itself drops `Authorization` on a cross-origin redirect, see docs/security.md).
 */

/** Headers that carry a credential: sent on `home` requests only. Lower case. */
export const CREDENTIAL_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-owner-token',
  'x-visitor-token',
  'x-upload-auth',
  'x-download-ticket',
];

export interface HomeInit {
  readonly method?: string;
  /** Credential headers (X-Owner-Token …): to this URL's origin only, never across a redirect. */
  readonly credentials?: Readonly<Record<string, string>>;
  /** Other request headers (accept, content-type, range). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: BodyInit | null;
  /** Hand a 3xx back to the caller instead of refusing it (a chunk download only, see above). */
  readonly allowRedirect?: boolean;
  /** Sent even as the page goes away (a last word on `pagehide`): small bodies only. */
  readonly keepalive?: boolean;
}

/** A redirect answered to a call that carries (or may carry) credentials: never followed. */
export class RedirectRefusedError extends ProtocolError {
  override name = 'RedirectRefusedError';
  constructor(
    operation: string,
    readonly status: number,
    /** Where it pointed (absolute), or null when the browser hides it (an opaque redirect). */
    readonly location: string | null,
    from: string,
  ) {
    super(operation, describeRedirect(status, location, from));
  }
}

function describeRedirect(status: number, location: string | null, from: string): string {
  if (location === null)
    return 'the server answered with a redirect, which this client does not follow (its credentials stay with the address it was given)';
  const target = new URL(location);
  const where = target.origin === originOf(from) ? 'on the same origin' : `to another origin, ${target.origin}`;
  return `the server answered ${status} redirecting ${where}; not followed, so no credential leaves the address it was given: if the service moved, use its new address`;
}

/** The origin of `url` (relative URLs resolve against the page, as fetch resolves them). */
export function originOf(url: string): string {
  return new URL(url, globalThis.location?.href).origin;
}

/** A call to the service's own address, with redirects refused (unless `allowRedirect`). */
export async function homeRequest(
  operation: string,
  url: string,
  init: HomeInit,
  http: HttpOptions = {},
): Promise<Response> {
  const response = await exchange(
    operation,
    url,
    {
      method: init.method ?? 'GET',
      headers: { ...init.headers, ...init.credentials },
      body: init.body ?? null,
      redirect: 'manual',
      cache: 'no-store',
      ...(init.keepalive ? { keepalive: true } : {}),
    },
    http,
  );
  if (!isRedirect(response) || init.allowRedirect) return response;
  await response.body?.cancel().catch(() => undefined);
  throw new RedirectRefusedError(operation, response.status, redirectTarget(response, url), url);
}

/** The absolute target of a redirect answer, or null when it is not readable (an opaque redirect). */
export function redirectTarget(response: Response, url: string): string | null {
  const location = response.type === 'opaqueredirect' ? null : response.headers.get('location');
  if (!location) return null;
  try {
    return new URL(location, new URL(url, globalThis.location?.href)).href;
  } catch {
    return null;
  }
}

/** A JSON call to the service: the answer is checked against the contract's schema `answer`. */
export async function homeJson<N extends AnswerName>(
  operation: string,
  url: string,
  answer: N,
  init: Omit<HomeInit, 'body' | 'allowRedirect'> & { readonly json?: unknown } = {},
  http: HttpOptions = {},
): Promise<Answers[N]> {
  const { json, ...rest } = init;
  const headers: Record<string, string> = { accept: 'application/json', ...rest.headers };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const body = json === undefined ? null : JSON.stringify(json);
  const response = await homeRequest(operation, url, { ...rest, headers, body }, http);
  return readAnswer(response, operation, answer);
}

/** A call the service answers 204 (no content): any other success is not its answer. */
export async function homeEmpty(
  operation: string,
  url: string,
  init: Omit<HomeInit, 'allowRedirect'> = {},
  http: HttpOptions = {},
): Promise<void> {
  const response = await homeRequest(
    operation,
    url,
    { ...init, headers: { accept: 'application/json', ...init.headers } },
    http,
  );
  await response.body?.cancel().catch(() => undefined);
  // The service answers these 204: a 200 with a body is someone else's answer, not a deletion done.
  if (response.status !== 204)
    throw new ProtocolError(operation, `${response.status} where 204 (no content) was expected`);
}

/**
 * Bodies a transport already holds as one buffer (the Node transport reads a chunk GET straight into
 * a buffer of its announced length): `responseBytes` hands that buffer on, with no copy through a
 * body stream. Only the layer's transports register them (`heldBodyResponse`).
 */
const heldBodies = new WeakMap<Response, Uint8Array>();

/** A success answer whose body is `bytes`, held as they are: for transports. */
export function heldBodyResponse(bytes: Uint8Array, init: ResponseInit): Response {
  const response = new Response(null, init);
  heldBodies.set(response, bytes);
  return response;
}

/** The whole body of `response` as bytes: the transport's own buffer when it holds one. */
export async function responseBytes(response: Response): Promise<Uint8Array> {
  return heldBodies.get(response) ?? new Uint8Array(await response.arrayBuffer());
}

/** Reads a JSON success body and checks it against `answer`'s schema before anyone reads it. */
export async function readAnswer<N extends AnswerName>(
  response: Response,
  operation: string,
  answer: N,
): Promise<Answers[N]> {
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolError(operation, `answer is not JSON: ${text.slice(0, 100)}`);
  }
  const checked = answerValidator(answer)(value);
  if (!checked.ok) throw new ProtocolError(operation, `${checked.error} (is this address a webfolder service?)`);
  return checked.value as Answers[N];
}

export interface ForeignInit {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: BodyInit | null;
  readonly onUploadProgress?: (sentBytes: number) => void;
}

/**
 * A request to a presigned address (object storage, or the local backend's imitation of it): no
 * credential of ours goes with it, whatever the headers given (they come from a server's answer).
 */
export function foreignRequest(
  operation: string,
  url: string,
  init: ForeignInit = {},
  http: HttpOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {}))
    if (!CREDENTIAL_HEADERS.includes(name.toLowerCase())) headers[name] = value;
  return exchange(
    operation,
    url,
    {
      method: init.method ?? 'GET',
      headers,
      body: init.body ?? null,
      credentials: 'omit',
      cache: 'no-store',
      ...(init.onUploadProgress ? { onUploadProgress: init.onUploadProgress } : {}),
    },
    http,
  );
}
