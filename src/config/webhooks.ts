import { ConfigError } from './parsers.js';

export interface WebhookEndpoint {
  readonly url: string;
  /** The HMAC key: the bytes of a `whsec_<base64>` secret, or the UTF-8 bytes of any other. */
  readonly key: Buffer;
}

/** WEBHOOK_URL: one URL or several separated by commas; WEBHOOK_SECRET: one for all, or one per URL. */
export function webhookEndpoints(urls: readonly string[], secrets: readonly string[]): WebhookEndpoint[] {
  if (urls.length === 0) {
    if (secrets.length > 0) throw new ConfigError('WEBHOOK_SECRET', 'is set but WEBHOOK_URL is not');
    return [];
  }
  if (secrets.length === 0) throw new ConfigError('WEBHOOK_SECRET', 'is required with WEBHOOK_URL (bodies are signed)');
  if (secrets.length !== 1 && secrets.length !== urls.length)
    throw new ConfigError('WEBHOOK_SECRET', `give one secret, or one per URL (${urls.length}), not ${secrets.length}`);
  return urls.map((raw, i) => ({
    url: webhookUrl(raw),
    key: webhookKey(secrets[secrets.length === 1 ? 0 : i]!),
  }));
}

function webhookUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('WEBHOOK_URL', `must be absolute URLs, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError('WEBHOOK_URL', `must use http: or https:, got "${raw}"`);
  return parsed.href;
}

/** A Standard Webhooks secret `whsec_<base64>` gives its decoded bytes; any other string, its UTF-8 bytes. */
function webhookKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    const key = Buffer.from(secret.slice(6), 'base64');
    if (key.length < 16)
      throw new ConfigError('WEBHOOK_SECRET', 'a whsec_ secret must hold at least 16 bytes of base64');
    return key;
  }
  if (secret.length < 32) throw new ConfigError('WEBHOOK_SECRET', 'must be whsec_<base64> or at least 32 characters');
  return Buffer.from(secret, 'utf8');
}
