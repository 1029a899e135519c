import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { encryptedLength } from '../../src/domain/chunk-plan.js';
import { chunkUrl } from '../../src/transfer/urls.js';

/** Calls of the site's owner endpoints over a real server, for the owner-controls tests. */
export const token = () => randomBytes(32).toString('base64url');

export interface Who {
  owner?: string;
  visitor?: string;
  uploadAuth?: string;
  ticket?: string;
}

export async function call(
  api: string,
  method: string,
  path: string,
  opts: Who & { body?: unknown; rawBody?: string; accept?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.owner) headers['x-owner-token'] = opts.owner;
  if (opts.uploadAuth) headers['x-upload-auth'] = opts.uploadAuth;
  if (opts.visitor) headers['x-visitor-token'] = opts.visitor;
  if (opts.ticket) headers['x-download-ticket'] = opts.ticket;
  if (opts.accept) headers.accept = opts.accept;
  if (opts.body !== undefined || opts.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${api}${path}`, {
    method,
    headers,
    body: opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    redirect: 'manual',
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON an endpoint answers, field by field
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* binary or empty */
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Asserts a refusal's status and code (`{error, code}`), naming the case. */
export function refused(
  res: { status: number; json: unknown; text: string },
  status: number,
  code: string,
  what: string,
) {
  assert.equal(res.status, status, `${what}: ${res.text}`);
  const body = res.json as { error?: unknown; code?: unknown } | null;
  assert.equal(body?.code, code, `${what}: ${res.text}`);
  assert.equal(typeof body?.error, 'string', what);
}

export const SALT = randomBytes(16).toString('base64url');
export const PASSWORD = { kdf: 'scrypt', N: 131072, r: 8, p: 1, salt: SALT } as const;

/** A folder made and claimed in one step by `owner`. */
export async function createOwned(api: string, owner: string, body: Record<string, unknown> = {}) {
  const res = await call(api, 'POST', '/folders', { owner, body: { mode: 'share', ske: 'c2tlLWNoZWNr', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.json as { folderId: string; folderUrl: string; uploadDeadline: number };
}

/** Registers one file of `size` bytes as `who` and uploads its encrypted chunk; answers its id and bytes. */
export async function uploadFile(api: string, folderId: string, who: Who, size = 1000) {
  const reg = await call(api, 'POST', `/folders/${folderId}/files`, {
    ...who,
    body: { files: [{ filename: 'ZW5jcnlwdGVk', filesize: size }] },
  });
  assert.equal(reg.status, 200, reg.text);
  const file = reg.json.files[0] as {
    fileId: string;
    uploadUrls: { head: string; path: string; tail: string; signatures: string[]; headers: Record<string, string> };
  };
  const bytes = randomBytes(encryptedLength(size));
  const put = await fetch(chunkUrl(file.uploadUrls, 1), {
    method: 'PUT',
    headers: file.uploadUrls.headers,
    body: new Uint8Array(bytes),
  });
  assert.equal(put.status, 200, await put.text());
  return { fileId: file.fileId, bytes };
}
