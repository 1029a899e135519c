import type { AccountView, ApiKeyCreated, ApiKeyView } from '../contract/account.js';
import { hashToken, newId, newToken } from '../domain/ids.js';
import { MAX_KEYS_PER_ACCOUNT } from '../domain/limits.js';
import { API_KEY_PREFIX, type Principal } from '../domain/principal.js';
import type { ApiKeyRecord } from '../store/account-store.js';
import { recordAudit } from './audit.js';
import { AppError, notFound } from './errors.js';
import type { Services } from './services.js';

export type { AccountView };

/** Who is signed in, as the page and `GET /api/account` show it. */
export function accountView(services: Services, principal: Principal): AccountView {
  return {
    signInAvailable: services.config.auth.oidc !== null,
    createPolicy: services.config.auth.createPolicy,
    account:
      principal.kind === 'account'
        ? {
            id: principal.accountId,
            email: principal.email,
            name: principal.name,
            admin: principal.admin,
            via: principal.via,
          }
        : null,
  };
}

/**
 * API keys belong to a signed-in person and are managed only from a sign-in session: a key cannot
 * make, list or revoke keys (a leaked key must not be able to mint its own successors).
 */
function sessionAccount(principal: Principal): string {
  if (principal.kind !== 'account') throw new AppError('sign_in_required', 'sign in to manage API keys');
  if (principal.via !== 'session')
    throw new AppError('forbidden', 'API keys are managed from a signed-in session on the site, not with a key');
  return principal.accountId;
}

const keyView = (k: ApiKeyRecord): ApiKeyView => ({
  id: k.id,
  name: k.name,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
});

export async function listApiKeys(services: Services, principal: Principal): Promise<ApiKeyView[]> {
  return (await services.store.accounts.listApiKeys(sessionAccount(principal))).map(keyView);
}

/**
 * Makes a key: `wfk_` and 256 random bits (base64url), answered this once; the store keeps its
 * SHA-256. The prefix makes a leaked key recognisable (secret scanners, logs).
 */
export async function createApiKey(
  services: Services,
  principal: Principal,
  name: string,
  clientAddress: string,
): Promise<ApiKeyCreated> {
  const accountId = sessionAccount(principal);
  const apiKey = `${API_KEY_PREFIX}${newToken()}`;
  const record: ApiKeyRecord = {
    id: newId(),
    accountId,
    name: name.trim(),
    createdAt: services.clock(),
    lastUsedAt: null,
    revokedAt: null,
  };
  // The cap is the store's: counted and inserted as one step, so racing creates cannot pass it together.
  if (!(await services.store.accounts.createApiKey({ ...record, hash: hashToken(apiKey) }, MAX_KEYS_PER_ACCOUNT)))
    throw new AppError('conflict', `an account may have at most ${MAX_KEYS_PER_ACCOUNT} keys: revoke one first`);
  await recordAudit(services, {
    action: 'api-key.create',
    principal,
    clientAddress,
    detail: { keyId: record.id, name: record.name },
  });
  return { key: keyView(record), apiKey };
}

export async function revokeApiKey(
  services: Services,
  principal: Principal,
  keyId: string,
  clientAddress: string,
): Promise<void> {
  const accountId = sessionAccount(principal);
  if (!(await services.store.accounts.revokeApiKey(accountId, keyId, services.clock())))
    throw notFound('no such API key');
  await recordAudit(services, { action: 'api-key.revoke', principal, clientAddress, detail: { keyId } });
}
