import type { FastifyServerOptions } from 'fastify';

/**
 * Logger options. Query strings can carry secrets (`uploadAuth`, chunk signatures and credentials),
 * so every logged URL has their values replaced. The folder secret lives in the URL fragment, which
 * browsers never send, and no response body is ever logged.
 */
const SECRET_PARAMS = /([?&](?:uploadAuth|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|token|owner)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]').replace(/#.*$/, '#[redacted]');
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
