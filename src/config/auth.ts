import type { ClaimRule } from '../domain/claims.js';
import { ConfigError } from './parsers.js';

/**
 * Sign-in (docs/organisations.md#sign-in): OpenID Connect, off by default. With no OIDC_ISSUER there
 * is no sign-in, and with CREATE_POLICY=anyone (the default) anyone may make folders.
 */
export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  /** Null: a public client (PKCE alone). */
  readonly clientSecret: string | null;
  readonly scopes: string;
  /** Signing in needs this claim to hold; null: anyone the provider signs in. */
  readonly requiredClaim: ClaimRule | null;
  /** Holding this claim makes an admin; null: only ADMIN_EMAILS names admins. */
  readonly adminClaim: ClaimRule | null;
}

/** The OIDC_ variables as read, before they are checked together. */
type OidcFields = { readonly [K in keyof OidcConfig]: K extends 'scopes' ? string : string | null };

/** The provider, or null when sign-in is off; the OIDC_ variables are checked together. */
export function oidcConfig(f: OidcFields): OidcConfig | null {
  if ((f.issuer === null) !== (f.clientId === null))
    throw new ConfigError(f.issuer ? 'OIDC_CLIENT_ID' : 'OIDC_ISSUER', 'OIDC_ISSUER and OIDC_CLIENT_ID go together');
  if (f.issuer === null || f.clientId === null) {
    if (f.requiredClaim || f.adminClaim || f.clientSecret)
      throw new ConfigError('OIDC_ISSUER', 'is required with the other OIDC_ variables');
    return null;
  }
  if (new URL(f.issuer).protocol === 'http:' && !isLoopback(new URL(f.issuer).hostname))
    throw new ConfigError('OIDC_ISSUER', 'must use https: (http: only on a loopback address, for tests)');
  return {
    issuer: f.issuer,
    clientId: f.clientId,
    clientSecret: f.clientSecret,
    scopes: f.scopes,
    requiredClaim: claimRule('OIDC_REQUIRED_CLAIM', f.requiredClaim),
    adminClaim: claimRule('OIDC_ADMIN_CLAIM', f.adminClaim),
  };
}

function claimRule(name: string, raw: string | null): ClaimRule | null {
  if (raw === null) return null;
  const eq = raw.indexOf('=');
  if (eq <= 0 || eq === raw.length - 1)
    throw new ConfigError(name, `must be claim=value, such as groups=staff, got "${raw}"`);
  return { claim: raw.slice(0, eq).trim(), value: raw.slice(eq + 1).trim() };
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
