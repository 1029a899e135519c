import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { Config } from '../config/config.js';

/**
 * DNS-rebinding protection for the MCP endpoint. A browser tricked into resolving an attacker's
 * name to this server would send that name as Host, and its page's address as Origin; only the
 * public host of BASE_URL (and, when that host is a loopback name, the other loopback names, since
 * local clients reach a local service by any of them) is accepted. The site's own host (WEB_URL)
 * may also appear as Origin. Hosts, not whole origins, are compared: this is about which server a
 * browser thinks it talks to, not about who may act. No credential rides on it: the session cookie
 * never counts on the agent surfaces (src/http/callers/route-policy.ts AGENT_POLICY), and the one cross-site
 * rule for the cookie is the route guard's (src/http/callers/route-guard.ts).
 */
const LOOPBACK = new Set(localhostAllowedHostnames().concat(localhostAllowedOrigins()));

function hostnameOf(url: string): string {
  const { hostname } = new URL(url);
  return hostname.toLowerCase();
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

export interface HostPolicy {
  readonly hosts: string[];
  readonly origins: string[];
}

export function hostPolicy(config: Config): HostPolicy {
  const base = hostnameOf(config.baseUrl);
  const web = hostnameOf(config.webUrl);
  const hosts = new Set([base]);
  const origins = new Set([base, web]);
  if (isLoopback(base)) {
    for (const h of localhostAllowedHostnames()) hosts.add(h);
    for (const h of localhostAllowedOrigins()) origins.add(h);
  }
  return { hosts: [...hosts], origins: [...origins] };
}

/** Returns a refusal message, or null when Host and Origin are acceptable. */
export function checkHostAndOrigin(
  policy: HostPolicy,
  host: string | undefined,
  origin: string | undefined,
): string | null {
  const h = validateHostHeader(host ?? null, policy.hosts);
  if (!h.ok) return `Host header not allowed: ${h.message}`;
  const o = validateOriginHeader(origin ?? null, policy.origins);
  if (!o.ok) return `Origin header not allowed: ${o.message}`;
  return null;
}
