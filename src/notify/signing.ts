import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (standardwebhooks.com, v1): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, the signature HMAC-SHA256 under the secret's bytes,
 * sent as `webhook-signature: v1,<base64>` with `webhook-id` and `webhook-timestamp` (Unix seconds).
 * Receivers check the signature in constant time and refuse old timestamps (replays).
 */
export interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

export function signatureOf(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
}

export function signedHeaders(key: Buffer, id: string, timestampSeconds: number, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signatureOf(key, id, timestampSeconds, body)}`,
  };
}

/**
 * A receiver's check: one of the space-separated `v1,` signatures matches, and the timestamp is
 * within `toleranceSeconds` of `nowSeconds`. Used by the tests' receivers and documented for users.
 */
export function verifySignature(
  key: Buffer,
  headers: Partial<Record<keyof SignedHeaders, string | undefined>>,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (!id || !ts || !sigs || !/^\d+$/.test(ts)) return false;
  if (Math.abs(nowSeconds - Number(ts)) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(key, id, Number(ts), body), 'base64');
  return sigs.split(' ').some((s) => {
    const [version, value] = s.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The HMAC key of a `whsec_<base64>` secret. */
export function keyOfSecret(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}
