import type { FastifyRequest } from 'fastify';
import { AppError } from '../../app/errors.js';
import { type Caller, checkCaller } from '../../app/site/access.js';

/** Who calls a site endpoint: its credential headers, each at most once, checked for shape. */
function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw new AppError('invalid_request', `${name} must be given once`);
  return value === undefined || value === '' ? undefined : value;
}

export function callerOf(request: FastifyRequest): Caller {
  return checkCaller({
    ownerToken: header(request, 'x-owner-token'),
    visitorToken: header(request, 'x-visitor-token'),
    uploadAuth: header(request, 'x-upload-auth'),
    // Signed in (src/http/callers/principal.ts; a session's change only from our own pages, src/http/callers/route-guard.ts):
    // the account that made a folder has its keyless controls.
    principal: request.principal,
  });
}

/** A download ticket (app/site/downloads.ts): the `X-Download-Ticket` header, or `?ticket=` for links. */
export function downloadTicketOf(request: FastifyRequest): string | undefined {
  return header(request, 'x-download-ticket') ?? ((request.query as { ticket?: string }).ticket || undefined);
}
