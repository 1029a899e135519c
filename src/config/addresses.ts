import { ConfigError, checkUrl } from './parsers.js';

/**
 * BASE_URL, or this process's own address when it is unset: HOST and PORT, with a wildcard bind
 * named `localhost` (what a browser on the machine reaches). The container image requires BASE_URL
 * (BASE_URL_REQUIRED): there the process's own address is not the one people reach.
 */
export function baseUrlOf(
  fields: { readonly baseUrl: string | null; readonly host: string; readonly port: number },
  required: boolean,
): string {
  if (fields.baseUrl !== null) return fields.baseUrl;
  if (required)
    throw new ConfigError(
      'BASE_URL',
      'is required here (the container image): set it to the address people and clients reach this service at, such as -e BASE_URL=https://files.example.com (links, chunk upload URLs and every discovery document are built from it)',
    );
  const { host } = fields;
  const publicHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return checkUrl('BASE_URL', `http://${publicHost}:${fields.port}`);
}

/**
 * RFC 2142's mailbox for a web service (webmaster@) at BASE_URL's host, when that host is a domain
 * name that could receive mail. An IP address, localhost or a single-label name cannot
 * (`webmaster@127.0.0.1` was published on a loopback instance): then no address is
 * published until CONTACT_EMAIL names one.
 */
export function defaultContactEmail(baseUrl: string): string | null {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
  const local = host === 'localhost' || /\.(?:localhost|local|internal|localdomain|test|invalid|example)$/.test(host);
  if (isIp || local || !host.includes('.')) return null;
  return `webmaster@${host}`;
}
