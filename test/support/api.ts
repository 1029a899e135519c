import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { CreateResponseDirect, CreateResponseEmpty, UploadUrls } from '../../src/contract/types.js';
import { encryptedLength, plaintextChunkLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl as chunkUrlRule } from '../../src/transfer/urls.js';

/** Plain-HTTP helpers for API tests: what any client of the v2 contract would do, nothing more. */
export interface JsonResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function postJson<T = unknown>(
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const init: RequestInit = { method: 'POST', headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

export async function getJson<T = unknown>(url: string): Promise<JsonResponse<T>> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

export async function createEmpty(baseUrl: string, body?: unknown): Promise<CreateResponseEmpty> {
  const res = await postJson<CreateResponseEmpty>(`${baseUrl}/v2/folders`, body);
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createDirect(
  baseUrl: string,
  filesizes: number[],
  extra: Record<string, unknown> = {},
): Promise<CreateResponseDirect> {
  const res = await postJson<CreateResponseDirect>(`${baseUrl}/v2/folders`, {
    encryption: { ske: 'test-ske' },
    files: filesizes.map((filesize, i) => ({ filename: `file-${i}`, filesize })),
    ...extra,
  });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The file.kiwi chunk URL rule (src/transfer/urls.ts, stated once); `padded: false` writes the chunk
 * number without its leading zeros, which the server accepts too.
 */
export function chunkUrl(urls: UploadUrls, n: number, padded = true): string {
  const url = chunkUrlRule(urls, n);
  return padded ? url : url.replace(/\/\d{5}\?/, `/${n}?`);
}

/** Plaintext length of chunk n of a file, per the returned plan. */
export function plainLength(filesize: number, chunkSize: number, n: number): number {
  return plaintextChunkLength({ filesize, chunkSize, chunks: Math.ceil(filesize / chunkSize) }, n);
}

/** Random bytes of exactly the encrypted length of chunk n (the server never decrypts). */
export function chunkBody(filesize: number, chunkSize: number, n: number): Buffer {
  return randomBytes(encryptedLength(plainLength(filesize, chunkSize, n)));
}

export async function putChunk(url: string, headers: Record<string, string>, body: Uint8Array): Promise<JsonResponse> {
  const res = await fetch(url, { method: 'PUT', headers, body: body as unknown as BodyInit });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

/**
 * A raw PUT with full control of the wire: a declared Content-Length that differs from what is sent,
 * or chunked transfer encoding (no Content-Length). Resolves with the status, or 'reset' when the
 * server closed the connection without answering.
 */
export function rawPut(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  opts: { endEarly?: boolean } = {},
): Promise<number | 'reset'> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve('reset'));
    req.write(body);
    if (opts.endEarly) setTimeout(() => req.destroy(), 200);
    else req.end();
  });
}

/**
 * A chunk PUT that declares its whole length, sends the first `head` bytes (half unless said) and the
 * rest only when `rest()` is called: an upload in flight, for shutdown and fault tests. Its status,
 * or 'reset' when the server closed the connection.
 */
export function slowPut(url: string, headers: Record<string, string>, body: Buffer, head = body.length >> 1) {
  let finish!: () => void;
  const status = new Promise<number | 'reset'>((resolve) => {
    const req = httpRequest(
      url,
      { method: 'PUT', headers: { ...headers, 'content-length': String(body.length) }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve('reset'));
      },
    );
    req.on('error', () => resolve('reset'));
    req.write(body.subarray(0, head));
    finish = () => req.end(body.subarray(head));
  });
  return { status, rest: () => finish() };
}
