import {
  ACCOUNT_KEYS_PATH,
  ACCOUNT_PATH,
  type AccountView,
  type ApiKeyCreated,
  type ApiKeyView,
  AUTH_PATHS,
} from '../contract/account.js';
import { homeEmpty, homeJson } from './outbound.js';
import type { HttpOptions } from './retry.js';
import { apiUrl } from './urls.js';

/**
 * The signed-in person's calls: who is signed in, sign-out, and their API keys. On the page
 * the session cookie goes with them (same origin); `site` is the site's address or path.
 */
export function getAccount(site: string, http: HttpOptions = {}): Promise<AccountView> {
  return homeJson('read the account', apiUrl(site, ACCOUNT_PATH), 'accountView', {}, http);
}

export function signOut(site: string, http: HttpOptions = {}): Promise<void> {
  return homeEmpty('sign out', apiUrl(site, AUTH_PATHS.logout), { method: 'POST' }, http);
}

export async function listApiKeys(site: string, http: HttpOptions = {}): Promise<readonly ApiKeyView[]> {
  return (await homeJson('list API keys', apiUrl(site, ACCOUNT_KEYS_PATH), 'apiKeyList', {}, http)).keys;
}

export function createApiKey(site: string, name: string, http: HttpOptions = {}): Promise<ApiKeyCreated> {
  return homeJson(
    'make an API key',
    apiUrl(site, ACCOUNT_KEYS_PATH),
    'apiKeyCreated',
    { method: 'POST', json: { name } },
    http,
  );
}

export function revokeApiKey(site: string, keyId: string, http: HttpOptions = {}): Promise<void> {
  return homeEmpty(
    'revoke an API key',
    `${apiUrl(site, ACCOUNT_KEYS_PATH)}/${encodeURIComponent(keyId)}`,
    { method: 'DELETE' },
    http,
  );
}

/** Where the page sends someone to sign in, coming back to `returnTo` (a path on the site). */
export function signInUrl(site: string, returnTo: string): string {
  return `${apiUrl(site, AUTH_PATHS.login)}?return=${encodeURIComponent(returnTo)}`;
}
