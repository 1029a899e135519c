import { hashToken } from '../domain/ids.js';
import { API_KEY_PATTERN, type Principal } from '../domain/principal.js';
import type { AccountRecord } from '../store/account-store.js';
import type { Services } from './services.js';

/** A key's last use is written at most this often (a busy script would otherwise write per request). */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

/**
 * Whether the operator names the account an admin: its provider's admin claim at its last sign-in
 * (stored), or its e-mail in ADMIN_EMAILS (read now, so removing an address takes effect at once).
 * The e-mail is stored only when the provider says it is verified (app/sign-in.ts).
 */
export function isAdmin(services: Services, account: AccountRecord): boolean {
  if (account.admin) return true;
  const email = account.email?.toLowerCase();
  return email !== undefined && services.config.auth.adminEmails.includes(email);
}

/** The principal of an account that proved itself by `via`. */
export function accountPrincipal(services: Services, account: AccountRecord, via: 'session' | 'api-key'): Principal {
  return {
    kind: 'account',
    accountId: account.id,
    email: account.email,
    name: account.name,
    admin: isAdmin(services, account),
    via,
  };
}

/** The account a session cookie's value proves, or null (unknown, expired or signed out). */
export async function principalOfSession(services: Services, sessionId: string): Promise<Principal | null> {
  if (sessionId.length > 100) return null;
  const account = await services.store.accounts.sessionAccount(hashToken(sessionId), services.clock());
  return account ? accountPrincipal(services, account, 'session') : null;
}

/**
 * The account an API key proves, or null (malformed, unknown or revoked). Its last use is recorded
 * when the stored one is older than KEY_TOUCH_INTERVAL_MS, without making the request wait.
 */
export async function principalOfApiKey(
  services: Services,
  key: string,
  onTouchError: (error: unknown) => void,
): Promise<Principal | null> {
  if (!API_KEY_PATTERN.test(key)) return null;
  const found = await services.store.accounts.apiKeyAccount(hashToken(key));
  if (!found) return null;
  const now = services.clock();
  if (found.key.lastUsedAt === null || now - found.key.lastUsedAt >= KEY_TOUCH_INTERVAL_MS)
    services.store.accounts.touchApiKey(found.key.id, now, KEY_TOUCH_INTERVAL_MS).catch(onTouchError);
  return accountPrincipal(services, found.account, 'api-key');
}
