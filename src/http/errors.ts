import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../app/errors.js';
import { describeError } from '../contract/validation.js';
import { addRetryAfter } from './rate-limits.js';

/**
 * One mapping from every failure to an `{error}` body (spec 2.6, 7). Malformed input of any kind,
 * including what Fastify itself refuses (bad JSON, unsupported media type, oversized body), is a
 * 400 naming the problem; only a fault of ours is a 500, and its details go to the log, not to the
 * client.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const { status, message } = classify(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status, reason: message }, 'request refused');
    // A refused chunk PUT may still be sending its body: close rather than drain megabytes.
    if (!request.raw.complete) reply.header('connection', 'close');
    addRetryAfter(error, reply);
    return reply.status(status).type('application/json; charset=utf-8').send({ error: message });
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ error: `no route for ${request.method} ${request.url.split('?')[0]}` });
  });
}

export function classify(error: FastifyError | AppError | Error): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.status, message: error.message };
  const e = error as FastifyError & { validation?: Parameters<typeof describeError>[0][]; validationContext?: string };
  if (e.validation && e.validation.length > 0)
    return { status: 400, message: describeError(e.validation[0]!, e.validationContext ?? 'request') };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 400, message: 'Content-Type must be application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 400, message: 'request body is too large' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'body is not valid JSON' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'Content-Length does not match the body' };
  }
  if (e.statusCode === 429) return { status: 429, message: e.message || 'too many requests' };
  if (e instanceof SyntaxError || (e as { type?: string }).type === 'entity.parse.failed')
    return { status: 400, message: 'body is not valid JSON' };
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, message: e.message || 'bad request' };
  }
  return { status: 500, message: 'internal error' };
}
