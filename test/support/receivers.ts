import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { verifySignature } from '../../src/notify/signing.js';

/**
 * Real receivers for notification tests, on loopback: a webhook endpoint that checks every request's
 * Standard Webhooks signature with the key it was given, and an SMTP server that accepts every mail.
 */
export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly json: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The signature and timestamp checked out under the receiver's key. */
  readonly valid: boolean;
  /** What the receiver answered. */
  readonly answered: number;
}

export interface HookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** Accepted (2xx) requests only. */
  accepted(): ReceivedHook[];
  /** Answer 500 to the first `n` requests of every webhook-id (then 200). */
  failFirst(n: number): void;
  /** Never answer (the request hangs until the sender gives up). */
  hang(on: boolean): void;
  /** Checks signatures under this key from now on (for a secret the server makes). */
  setKey(key: Buffer): void;
  close(): Promise<void>;
}

export async function startHookReceiver(initialKey: Buffer, path = '/hook'): Promise<HookReceiver> {
  let key = initialKey;
  const received: ReceivedHook[] = [];
  const seen = new Map<string, number>();
  let failures = 0;
  let hanging = false;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (d: string) => (body += d));
    request.on('end', () => {
      if (hanging) return;
      const id = String(request.headers['webhook-id'] ?? '');
      const count = (seen.get(id) ?? 0) + 1;
      seen.set(id, count);
      const valid = verifySignature(
        key,
        request.headers as Record<string, string>,
        body,
        Math.floor(Date.now() / 1000),
      );
      const answered = !valid ? 401 : count <= failures ? 500 : 200;
      let json: ReceivedHook['json'];
      try {
        json = JSON.parse(body) as ReceivedHook['json'];
      } catch {
        json = { type: 'unparsable', timestamp: '', data: {} };
      }
      received.push({ headers: request.headers, body, json, valid, answered });
      response.writeHead(answered, { 'content-type': 'text/plain' });
      response.end(answered === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    accepted: () => received.filter((r) => r.answered === 200),
    failFirst: (n) => {
      failures = n;
    },
    hang: (on) => {
      hanging = on;
    },
    setKey: (k) => {
      key = k;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
}

export interface SmtpReceiver {
  readonly url: string;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server, from the nodemailer project), no TLS, no authentication. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The one poll of the suites (test/support/poll.ts), here too for the suites that import it from here. */
export { until } from './poll.js';
