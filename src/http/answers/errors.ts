import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError, RateLimited } from '../../app/errors.js';
import { CONTRACT_ERROR_STATUSES, ERROR_CODES, type ErrorBody, type ErrorCode } from '../../contract/errors.js';
import { V2_OPERATION_ROUTES } from '../../contract/paths.js';
import { describeError } from '../../contract/validation.js';
import { BackendUnavailable } from '../../domain/backend-unavailable.js';
import { policyOf } from '../callers/route-policy.js';
import { connectionGone, connectionReason } from '../logging.js';
import { NOT_FOUND_CSP, notFoundPage, wantsHtml } from './not-found-page.js';
import { applySecurityHeaders, COMMON_HEADERS } from './security-headers.js';

/**
 * One mapping from every failure to a stable code and a message (src/contract/errors.ts), used by
 * every surface: the REST API and the site answer `{error, code}`, MCP and A2A answer a JSON-RPC
 * error carrying the same code. Malformed input of any kind, including what Fastify or Node refuse
 * before a route runs (bad JSON, a wrong media type, an oversized body, a bad percent-escape, an
 * over-long path), gets a code naming the problem; only a fault of ours is a 500, and its details go
 * to the log, never to the client. No message echoes the request's URL: a query string can carry a
 * signature or a token.
 */
export interface WireError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
}

/** A refusal made by the HTTP layer itself (media type, header shape), with its code. */
export class HttpRefusal extends Error {
  override name = 'HttpRefusal';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const wire = (code: ErrorCode, message: string): WireError => ({ status: ERROR_CODES[code].status, code, message });

/** What Fastify and the body parsers throw, by their code, with a message that names no URL. */
const FRAMEWORK: Record<string, WireError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: wire('unsupported_media_type', 'Content-Type must be application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: wire('payload_too_large', 'request body is too large'),
  FST_ERR_CTP_INVALID_JSON_BODY: wire('invalid_json', 'body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: wire('invalid_json', 'body is not valid JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: wire('invalid_request', 'Content-Length does not match the body'),
  FST_ERR_BAD_URL: wire('invalid_request', 'the URL is malformed: a percent-escape is not valid UTF-8'),
  FST_ERR_MAX_PARAM_LENGTH: wire('uri_too_long', 'a path segment is too long'),
  FST_ERR_ASYNC_CONSTRAINT: wire('invalid_request', 'the request could not be routed'),
};

/** The codes a plugin's own 4xx may be answered with: the general one of each status. */
const PLUGIN_REFUSALS: readonly ErrorCode[] = [
  'invalid_request',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'conflict',
  'length_required',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'headers_too_large',
];

export function toWireError(error: unknown): WireError {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof HttpRefusal) return wire(error.code, error.message);
  // The database or object storage is down or restarting: 503, retry (outside the contract's scope).
  if (error instanceof BackendUnavailable) return wire('unavailable', `${error.message}: retry shortly`);
  const e = error as FastifyError & { validation?: Parameters<typeof describeError>[0][]; validationContext?: string };
  // The contract validator's refusal (../bodies/validation.ts): its message names the field.
  if (e.code === 'FST_ERR_VALIDATION' && !e.validation) return wire('invalid_request', e.message);
  if (e.validation && e.validation.length > 0)
    return wire('invalid_request', describeError(e.validation[0]!, e.validationContext ?? 'request'));
  const known = e.code ? FRAMEWORK[e.code] : undefined;
  if (known) return known;
  if (e.statusCode === 429) return wire('rate_limited', e.message || 'too many requests');
  if (e instanceof SyntaxError) return wire('invalid_json', 'body is not valid JSON');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // A 4xx of a plugin: the general code of its status where the catalogue has one, else its status
    // as a malformed request. A message for a status we do not know may quote the URL: not passed on.
    const code = PLUGIN_REFUSALS.find((c) => ERROR_CODES[c].status === e.statusCode);
    return code ? wire(code, e.message) : { status: e.statusCode, code: 'invalid_request', message: 'bad request' };
  }
  return wire('internal_error', 'internal error');
}

export function errorBody(error: WireError): ErrorBody {
  return { error: error.message, code: error.code };
}

export interface ErrorHandlerOptions {
  /**
   * The only statuses this scope may answer (the v2 contract's list, spec 7): any other 4xx is
   * answered 400 and any other 5xx 500, each with its own code.
   */
  readonly statuses?: readonly number[];
  /** The body for a refusal; `{error, code}` unless the surface speaks another protocol (JSON-RPC). */
  readonly render?: (error: WireError, cause: unknown) => unknown;
  /** The log message for a fault of ours. */
  readonly failure?: string;
}

/**
 * Sends one refusal: status, Retry-After and the body. A body still unread is the lingering close's
 * (./lingering-close.ts): the answer says `Connection: close` and reaches the client first.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  cause: unknown,
  options: ErrorHandlerOptions = {},
): FastifyReply {
  let error = toWireError(cause);
  // A status the scope may not answer becomes the nearest one it may: a refusal 400, a fault of the
  // server's state (a full disk, a quota, a backend down) 500; either way the code says which.
  if (options.statuses && !options.statuses.includes(error.status))
    error = { ...error, status: error.status >= 500 ? 500 : 400 };
  logFailure(request, cause, error, options.failure ?? 'request failed');
  if (cause instanceof RateLimited) reply.header('retry-after', String(cause.retryAfterSeconds));
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(options.render ? options.render(error, cause) : errorBody(error));
}

/**
 * Logs a failure at the level an operator expects. A connection that closed before its answer (the
 * client aborted, the peer reset, the drain's end cut it) and every refusal by design (an AppError
 * or the HTTP layer's own: validation, a rate limit, a quota, a full disk, a draining node) are one
 * line at info, without a stack: they are the clients' doing or the service working as configured.
 * Only the server's own faults are errors: the line names what failed and keeps the stack.
 */
function logFailure(request: FastifyRequest, cause: unknown, error: WireError, failure: string): void {
  if (connectionGone(request.raw)) {
    request.log.info({ code: error.code, reason: connectionReason(cause) }, 'connection closed before the answer');
  } else if (
    error.code !== 'internal_error' &&
    (cause instanceof AppError || cause instanceof HttpRefusal || error.status < 500)
  )
    request.log.info({ status: error.status, code: error.code, reason: error.message }, 'request refused');
  else request.log.error({ err: cause }, `${failure}: ${describeFault(cause)}`);
}

/** What failed, for the error line: the backend that is down, or the fault's own name and message. */
function describeFault(cause: unknown): string {
  if (cause instanceof BackendUnavailable) return cause.message;
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}

/** Installs the one error handler on a scope (the root, or a surface with its own body shape). */
export function installErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, options));
}

/**
 * Where the HTML 404 page (./not-found-page.ts) links, and the paths whose 404 stays JSON whatever
 * the Accept header when no route matched (a matched route's declaration decides for itself).
 */
export interface NotFoundOptions {
  readonly home: string;
  readonly apiPrefixes: readonly string[];
}

/**
 * Whether a 404 may be the HTML page: a matched route (a static file route that found no file) by
 * its declared surface, pages and docs only; an unmatched URL by its path, as no declaration exists
 * for it: outside every API prefix.
 */
function pageMayAnswer(request: FastifyRequest, notFound: NotFoundOptions): boolean {
  const policy = policyOf(request.routeOptions.config);
  if (policy) return policy.surface === 'page' || policy.surface === 'docs';
  const path = request.url.split('?')[0]!;
  return !notFound.apiPrefixes.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
}

/** The root scope: the error handler and the handler for routes that do not exist. */
export function installErrorHandling(app: FastifyInstance, notFound?: NotFoundOptions): void {
  installErrorHandler(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    if (
      notFound &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      pageMayAnswer(request, notFound) &&
      wantsHtml(request)
    )
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', NOT_FOUND_CSP)
        .header('cache-control', 'no-store')
        .header('vary', 'accept')
        .send(notFoundPage(notFound.home));
    return reply
      .status(404)
      .type('application/json; charset=utf-8')
      .header('vary', 'accept')
      .send({ error: `no route for ${request.method} ${path}`, code: 'not_found' });
  });
}

/** The v2 contract scope: the same mapping, within the statuses spec 7 lists. */
export function installContractErrorHandling(app: FastifyInstance): void {
  installErrorHandler(app, { statuses: CONTRACT_ERROR_STATUSES });
}

/**
 * Server options that route the errors Fastify and Node answer before any route runs through the
 * same mapping: a bad percent-escape or an over-long path segment (`frameworkErrors`) and a request
 * Node's parser refuses (`clientErrorHandler`, which must write the raw response itself).
 */
export function errorServerOptions(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error, request, reply) => {
      // No route (and so no onRequest hook) runs for these: the policy is applied here.
      applySecurityHeaders(request, reply);
      const contract = isContractOperation(request.method, request.url);
      return sendError(request, reply, error, contract ? { statuses: CONTRACT_ERROR_STATUSES } : {});
    },
    clientErrorHandler: clientError,
  };
}

/**
 * Whether a request is one of the v2 contract's two operations, by its method and path (no route
 * matched yet when the framework or Node refuse it): its answer then keeps to the statuses spec 7
 * lists, so an over-long path segment (414), oversized headers (431) or a body too slow (408) are 400
 * with their own codes.
 */
const CONTRACT_OPERATIONS = V2_OPERATION_ROUTES.map(({ method, path }) => ({
  methods: method === 'GET' ? ['GET', 'HEAD'] : [method],
  pattern: new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]*')}/?$`),
}));
function isContractOperation(method: string, url: string): boolean {
  const path = url.split('?')[0]!;
  return CONTRACT_OPERATIONS.some((op) => op.methods.includes(method) && op.pattern.test(path));
}

/**
 * The method and URL of what Node refused, where they are known: the request in progress (a body
 * too slow: its head was parsed), or the request line at the start of the packet that overflowed
 * the header limit. A head that never completed its request line as far as the server saw (one
 * that dribbles past the head timeout, or whose request line came in an earlier packet) names no
 * request, and so no operation: it gets HTTP's own status (408, 431, 400), with its code.
 */
function refusedRequestLine(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
  const inProgress = (socket as Socket & { _httpMessage?: { req?: { method?: string; url?: string } } })._httpMessage
    ?.req;
  if (inProgress?.method && inProgress.url) return { method: inProgress.method, url: inProgress.url };
  const line = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString('latin1', 0, 8192) ?? '');
  return line ? { method: line[1]!, url: line[2]! } : null;
}

const CLIENT_ERRORS: Record<string, WireError> = {
  HPE_HEADER_OVERFLOW: wire('headers_too_large', 'the request headers are too large'),
  ERR_HTTP_REQUEST_TIMEOUT: wire('request_timeout', 'the request took too long to arrive'),
};
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function clientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
  let answer = known ?? wire('invalid_request', 'the request is not valid HTTP (a path must be ASCII)');
  const line = refusedRequestLine(error, socket);
  if (line && isContractOperation(line.method, line.url) && !CONTRACT_ERROR_STATUSES.includes(answer.status))
    answer = { ...answer, status: 400 };
  this.log.debug({ err: { code: error.code }, status: answer.status }, 'malformed request refused');
  if (socket.writable) {
    const body = JSON.stringify({ error: answer.message, code: answer.code });
    const policy = Object.entries(COMMON_HEADERS)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${policy}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
