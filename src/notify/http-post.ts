import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * One webhook POST over node:http(s), with a timeout for the whole exchange. For the owners'
 * per-folder webhooks (URLs set by anyone who owns a folder) the address is checked after DNS
 * resolution, at connect time, so a name that resolves to a private, loopback or link-local address
 * is refused: the server must not become a way into its own network.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0)
      return callback(
        Object.assign(new Error(`${hostname} resolves only to private addresses`), { code: 'EPRIVATE' }),
        '',
        0,
      );
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

export interface PostResult {
  readonly status: number;
}

export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; publicOnly: boolean },
): Promise<PostResult> {
  const target = new URL(url);
  if (
    options.publicOnly &&
    isIP(target.hostname.replace(/^\[|\]$/g, '')) &&
    isPrivateAddress(target.hostname.replace(/^\[|\]$/g, ''))
  )
    return Promise.reject(new DeliveryError(`${target.hostname} is a private address`));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'webfolder-webhooks',
          ...headers,
        },
        ...(options.publicOnly ? { lookup: publicOnlyLookup } : {}),
        // A receiver that never answers costs one timeout, not a connection held open.
        agent: false,
      },
      (response) => {
        // Only the status matters; read (and drop) at most a little of the body.
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.setTimeout(options.timeoutMs, () =>
      request.destroy(new DeliveryError(`no answer within ${options.timeoutMs} ms`)),
    );
    request.on('error', (error) => reject(error instanceof DeliveryError ? error : new DeliveryError(error.message)));
    request.end(body);
  });
}
