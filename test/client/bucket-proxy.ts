import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A header-logging stand-in for the object storage host: a small node:http server on loopback that
 * records every request's method, path and headers and forwards it, unchanged (Host included, so
 * presigned signatures still match), to the real S3-compatible server behind it. Configured as the
 * service's S3_ENDPOINT, it sees everything a client sends to "the bucket".
 */
export interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface BucketProxy {
  readonly endpoint: string;
  readonly log: LoggedRequest[];
  close(): Promise<void>;
}

/** Credential headers of webfolder's own address, which must never reach the bucket. */
export const CREDENTIAL_HEADERS = ['x-upload-auth', 'x-owner-token', 'x-visitor-token'] as const;

export async function startBucketProxy(target: string): Promise<BucketProxy> {
  const upstream = new URL(target);
  const log: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    log.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The chunk GETs the bucket saw for a folder, and any credential header among all its requests. */
export function bucketReport(log: readonly LoggedRequest[], folderId: string) {
  const chunkGets = log.filter(
    (r) => r.method === 'GET' && r.url.includes(`/${folderId}/`) && /X-Amz-Signature=/.test(r.url),
  );
  const leaks = log.flatMap((r) =>
    CREDENTIAL_HEADERS.filter((h) => r.headers[h] !== undefined).map((h) => `${r.method} ${r.url.split('?')[0]}: ${h}`),
  );
  // Distinct chunk objects served (a GET retried under load counts once).
  const chunksServed = new Set(chunkGets.map((r) => r.url.split('?')[0])).size;
  return { chunkGets, chunksServed, leaks };
}
