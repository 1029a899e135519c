/**
 * Accounts, their sign-in sessions and their API keys, shared by every node through the
 * metadata store so that a session or a key holds on any node. Secrets are never stored: a session
 * is kept under the SHA-256 of its cookie value, a key under the SHA-256 of the key (src/domain/ids.ts
 * hashToken); both are looked up by that hash.
 */
export interface AccountRecord {
  /** Our id for the account (src/domain/ids.ts newId), not the OIDC subject. */
  readonly id: string;
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  readonly name: string | null;
  /** Named an admin by the provider's claim at the last sign-in (ADMIN_EMAILS is checked apart). */
  readonly admin: boolean;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
}

/** What a completed sign-in tells the store: the account is made on its first sign-in. */
export interface SignInRecord {
  /** The id the account gets if it is new. */
  readonly newId: string;
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly admin: boolean;
  readonly now: number;
}

export interface NewSession {
  readonly idHash: string;
  readonly accountId: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface NewApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly hash: string;
  readonly createdAt: number;
}

export interface AccountStore {
  /** Makes the account on its first sign-in, else updates its e-mail, name, admin flag and last seen. */
  signIn(record: SignInRecord): Promise<AccountRecord>;
  getAccount(accountId: string): Promise<AccountRecord | null>;
  /** Stores a session; sessions expired at `createdAt` are deleted in the same write. */
  createSession(session: NewSession): Promise<void>;
  /** The account of a session alive at `now`, or null. */
  sessionAccount(idHash: string, now: number): Promise<AccountRecord | null>;
  /** True if this call deleted it. */
  deleteSession(idHash: string): Promise<boolean>;
  /**
   * Stores a key; with `maxLive`, only while the account has fewer live keys than that, counted and
   * inserted as one step (racing calls, on one node or many, never pass the cap together). Answers
   * whether the key was stored.
   */
  createApiKey(key: NewApiKey, maxLive?: number): Promise<boolean>;
  /** The account's keys that are not revoked, newest first. */
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Revokes one of the account's keys; false when it has no such live key. */
  revokeApiKey(accountId: string, keyId: string, now: number): Promise<boolean>;
  /** The live key with that hash and its account, or null. */
  apiKeyAccount(hash: string): Promise<{ key: ApiKeyRecord; account: AccountRecord } | null>;
  /** Records a use, unless one was recorded within `minIntervalMs` (a write at most that often). */
  touchApiKey(keyId: string, now: number, minIntervalMs: number): Promise<void>;
}
