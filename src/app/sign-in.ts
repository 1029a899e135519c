import * as oidc from 'openid-client';
import type { OidcConfig } from '../config/auth.js';
import { claimHolds } from '../domain/claims.js';
import { hashToken, newId, newToken } from '../domain/ids.js';
import type { Principal } from '../domain/principal.js';
import type { AccountRecord } from '../store/account-store.js';
import { recordAudit } from './audit.js';
import { accountPrincipal } from './principal.js';
import type { Services } from './services.js';

/**
 * Sign-in with the operator's OpenID Connect provider, through `openid-client` (certified):
 * the authorization code flow with PKCE (S256), state and nonce. What the flow must remember between
 * the two legs (verifier, state, nonce, where to return) is kept by the browser in a short-lived
 * HttpOnly cookie (src/http/routes/auth.ts), so any node can finish a sign-in another node began.
 * The provider's metadata is read at the first sign-in, not at start: a provider that is down does
 * not stop the instance, and a failed read is tried again at the next sign-in.
 */
export interface PendingLogin {
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
  readonly returnTo: string;
}

export type SignInResult =
  | {
      readonly kind: 'signed-in';
      readonly sessionId: string;
      readonly expiresAt: number;
      readonly account: AccountRecord;
    }
  /** The operator's rule refused this person: no session. */
  | { readonly kind: 'refused' };

export interface OidcClient {
  /** Where to send the browser, and what to remember until it comes back. */
  begin(returnTo: string): Promise<{ url: string; pending: PendingLogin }>;
  /** Finishes the flow at the callback URL (as the provider redirected to it). Throws when the provider or a check fails. */
  finish(callbackUrl: URL, pending: PendingLogin, clientAddress: string): Promise<SignInResult>;
}

export function oidcClient(services: Services, settings: OidcConfig, redirectUri: string): OidcClient {
  let discovered: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
        // http: is accepted for a loopback issuer only (src/config/auth.ts), for tests.
        settings.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };

  return {
    async begin(returnTo) {
      const config = await configuration();
      const pending: PendingLogin = {
        verifier: oidc.randomPKCECodeVerifier(),
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        returnTo,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },

    async finish(callbackUrl, pending, clientAddress) {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider answered without an ID token');
      // Providers put profile and group claims in the ID token or only in UserInfo: read both, the
      // ID token's win (it is signed), UserInfo's subject must match it.
      const userInfo = config.serverMetadata().userinfo_endpoint
        ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)
        : {};
      const claims: Record<string, unknown> = { ...userInfo, ...idClaims };
      if (settings.requiredClaim && !claimHolds(claims, settings.requiredClaim)) {
        await recordAudit(services, {
          action: 'account.sign-in',
          principal: { kind: 'anonymous' },
          clientAddress,
          detail: { refused: true, issuer: settings.issuer },
        });
        return { kind: 'refused' };
      }
      const now = services.clock();
      const account = await services.store.accounts.signIn({
        newId: newId(),
        issuer: settings.issuer,
        subject: idClaims.sub,
        // Only an address the provider says is verified is kept: an unverified one (or one without
        // `email_verified`) names no one, since ADMIN_EMAILS reads it.
        email: typeof claims.email === 'string' && emailVerified(claims.email_verified) ? claims.email : null,
        name: typeof claims.name === 'string' ? claims.name.slice(0, 200) : null,
        admin: settings.adminClaim !== null && claimHolds(claims, settings.adminClaim),
        now,
      });
      const sessionId = newToken();
      const expiresAt = now + services.config.auth.sessionHours * 3_600_000;
      await services.store.accounts.createSession({
        idHash: hashToken(sessionId),
        accountId: account.id,
        createdAt: now,
        expiresAt,
      });
      await recordAudit(services, {
        action: 'account.sign-in',
        principal: accountPrincipal(services, account, 'session'),
        clientAddress,
      });
      return { kind: 'signed-in', sessionId, expiresAt, account };
    },
  };
}

/**
 * Whether the provider says the e-mail is verified: `true`, or the string `"true"` some providers
 * send. Absent means not verified, as OpenID Connect leaves it (Core 5.1).
 */
function emailVerified(claim: unknown): boolean {
  return claim === true || claim === 'true';
}

/** Ends a session (sign-out): deleted from the store, so it is gone on every node at once. */
export async function signOut(services: Services, sessionId: string, principal: Principal, clientAddress: string) {
  const deleted = await services.store.accounts.deleteSession(hashToken(sessionId));
  if (deleted && principal.kind === 'account')
    await recordAudit(services, { action: 'account.sign-out', principal, clientAddress });
}
