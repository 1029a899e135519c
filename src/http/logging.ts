import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';

/**
 * Logger options. Query strings can carry secrets (`uploadAuth`, v1's `apiAuth`, chunk signatures
 * and credentials), and the server decodes parameter names before it reads them, so a list of
 * secret names could be bypassed by spelling one differently (`upload%41uth`). Every query value is
 * therefore replaced by default; only the values of the parameters named below, which carry nothing
 * secret and help reading a log, are kept, compared after decoding. The folder secret lives in the
 * URL fragment, which browsers never send, and no response body is ever logged.
 */
const HARMLESS_PARAMS = new Set(['x-amz-algorithm', 'x-amz-date', 'x-amz-expires', 'x-amz-signedheaders', 'x-id']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return '';
  }
}

export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutFragment = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : '#[redacted]';
  const q = withoutFragment.indexOf('?');
  if (q === -1) return withoutFragment + fragment;
  const query = withoutFragment
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const eq = pair.indexOf('=');
      // A bare word could be a token given without a name.
      if (eq === -1) return '[redacted]';
      const name = pair.slice(0, eq);
      return HARMLESS_PARAMS.has(decodedName(name)) ? pair : `${name}=[redacted]`;
    })
    .join('&');
  return `${withoutFragment.slice(0, q)}?${query}${fragment}`;
}

export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-owner-token"]',
        'req.headers["x-visitor-token"]',
        'req.headers["x-upload-auth"]',
        'req.headers["x-download-ticket"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip ?? request.socket?.remoteAddress,
        };
      },
    },
  };
}

/** Fastify's own request lines (two per request, at `info`) off: `logRequests` writes one at `debug`. */
export function quietRequests(): LogController {
  return new LogController({ disableRequestLogging: true });
}

/**
 * One line per request, at `debug`, when its answer is sent: method, path (query values redacted as
 * above), status and milliseconds. Fastify's own two lines per request at `info` made every request
 * an info line on an operator's terminal; a reverse proxy keeps the access log, and LOG_LEVEL=debug
 * shows these. Failures are still logged at `error` where they happen.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    // pino's level values: debug is 20; skip building the line when it would not be written.
    if (request.log.level === 'debug' || request.log.level === 'trace')
      request.log.debug(
        { req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime) },
        'request',
      );
    done();
  });
}

/** The migrations a start applied, said in one line: "applied schema migrations 1–12 (sqlite)". */
export function migrationsLine(store: string, applied: readonly number[]): string {
  const list =
    applied.length > 1 && applied.every((v, i) => i === 0 || v === applied[i - 1]! + 1)
      ? `${applied[0]}–${applied.at(-1)}`
      : applied.join(', ');
  return `applied schema migration${applied.length === 1 ? '' : 's'} ${list} (${store})`;
}

/**
 * Whether the client's side of a request is gone (it aborted mid-body, the peer reset, or the drain's
 * end cut the connection): what then fails is the client's doing, logged at info in one line, not
 * an error of the server's.
 */
export function connectionGone(req: IncomingMessage): boolean {
  return req.aborted || req.socket?.destroyed === true;
}

/** The short reason of a connection's failure for its one log line: its code, else its message. */
export function connectionReason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
