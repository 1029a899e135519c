import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientKey } from '../../domain/client-key.js';
import { PerKeyLimit } from './per-key-limit.js';

/**
 * With one global connection cap, one address holding slow connections (a
 * header line every 2 s) took every slot and nobody else got in. Each client address may hold at
 * most `perClient` connections, and never more than three quarters of `max`, so a quarter of the
 * slots is always left for everyone else. IPv6 clients are counted per /64, the block one
 * subscriber usually gets: one host could otherwise use a fresh address per connection.
 *
 * Counted when Node accepts the connection, before a byte is parsed: the address is the peer's.
 * Behind a trusted proxy (TRUST_PROXY) every connection comes from the proxy, so the cap is off
 * there and the proxy's own per-client limits apply (nginx `limit_conn`, `client_header_timeout`).
 * How long one connection may take to send its request head is Node's headersTimeout.
 */
export interface ConnectionGuardOptions {
  readonly max: number;
  readonly perClient: number;
}

/** The cap one client address gets: its own, within three quarters of the process's. */
export function perClientCap(options: ConnectionGuardOptions): number {
  return Math.max(1, Math.min(options.perClient, Math.floor((options.max * 3) / 4)));
}

export function guardConnections(server: Server, options: ConnectionGuardOptions): void {
  const open = new PerKeyLimit(perClientCap(options));
  // Before Node's own listener, so that a refused connection is never parsed.
  server.prependListener('connection', (socket: Socket) => {
    const release = open.take(clientKey(socket.remoteAddress));
    if (release) socket.once('close', release);
    else socket.destroy();
  });
}
