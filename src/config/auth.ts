import type { ClaimRule } from '../domain/claims.js';
import { ConfigError, type Values } from './variables.js';

/**
 * Sign-in and who may make folders (docs/organisations.md#sign-in). Everything is off by
 * default: with no OIDC_ISSUER there is no sign-in, and with CREATE_POLICY=anyone (the default) the
 * instance behaves as it always did.
 */
export interface AuthConfig {
  /** OpenID Connect; null: no sign-in on this instance. */
  readonly oidc: OidcConfig | null;
  /** Addresses named admins (lower case). */
  readonly adminEmails: readonly string[];
  /** How long a sign-in session lasts. */
  readonly sessionHours: number;
  /**
   * Who may make folders: `anyone` (today's behaviour) or `signed-in` (a session on the site, an API
   * key elsewhere). A claim or group is the sign-in rule's job (OIDC_REQUIRED_CLAIM).
   */
  readonly createPolicy: 'anyone' | 'signed-in';
  /**
   * Under `signed-in`: `key`, the API and agent surfaces need an API key too; `open`, they stay open
   * to anyone (only the site asks for a sign-in).
   */
  readonly createPolicyApi: 'key' | 'open';
}

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

function claimRule(name: string, raw: string | null): ClaimRule | null {
  if (raw === null) return null;
  const eq = raw.indexOf('=');
  if (eq <= 0 || eq === raw.length - 1)
    throw new ConfigError(name, `must be claim=value, such as groups=staff, got "${raw}"`);
  return { claim: raw.slice(0, eq).trim(), value: raw.slice(eq + 1).trim() };
}

export function authConfig(v: Values): AuthConfig {
  const oidcParts = [v.OIDC_ISSUER, v.OIDC_CLIENT_ID];
  if (oidcParts.some((p) => p !== null) && oidcParts.some((p) => p === null))
    throw new ConfigError(
      v.OIDC_ISSUER ? 'OIDC_CLIENT_ID' : 'OIDC_ISSUER',
      'OIDC_ISSUER and OIDC_CLIENT_ID go together',
    );
  if (v.OIDC_ISSUER && new URL(v.OIDC_ISSUER).protocol === 'http:' && !isLoopback(new URL(v.OIDC_ISSUER).hostname))
    throw new ConfigError('OIDC_ISSUER', 'must use https: (http: only on a loopback address, for tests)');
  const oidc: OidcConfig | null =
    v.OIDC_ISSUER && v.OIDC_CLIENT_ID
      ? {
          issuer: v.OIDC_ISSUER,
          clientId: v.OIDC_CLIENT_ID,
          clientSecret: v.OIDC_CLIENT_SECRET,
          scopes: v.OIDC_SCOPES,
          requiredClaim: claimRule('OIDC_REQUIRED_CLAIM', v.OIDC_REQUIRED_CLAIM),
          adminClaim: claimRule('OIDC_ADMIN_CLAIM', v.OIDC_ADMIN_CLAIM),
        }
      : null;
  if (!oidc && (v.OIDC_REQUIRED_CLAIM || v.OIDC_ADMIN_CLAIM || v.OIDC_CLIENT_SECRET))
    throw new ConfigError('OIDC_ISSUER', 'is required with the other OIDC_ variables');
  if (v.CREATE_POLICY === 'signed-in' && !oidc)
    throw new ConfigError('CREATE_POLICY', 'signed-in needs sign-in: set OIDC_ISSUER and OIDC_CLIENT_ID');
  return {
    oidc,
    adminEmails: v.ADMIN_EMAILS.map((e) => e.toLowerCase()),
    sessionHours: v.SESSION_HOURS,
    createPolicy: v.CREATE_POLICY,
    createPolicyApi: v.CREATE_POLICY_API,
  };
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
