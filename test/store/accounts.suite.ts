import assert from 'node:assert/strict';
import { hashToken, newId, newToken } from '../../src/domain/ids.js';
import type { FolderRecord, MetadataStore } from '../../src/store/metadata-store.js';

/**
 * Accounts, sessions and API keys (src/store/account-store.ts): run inside the shared store
 * suite (metadata-store.suite.ts) on SQLite and PostgreSQL, with a peer handle standing for another node.
 */
type It = (title: string, body: (store: MetadataStore, peer: MetadataStore) => Promise<void>) => void;
type Make = { folder(overrides?: Partial<FolderRecord>): FolderRecord };

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

const signIn = (store: MetadataStore, subject: string, extra: { email?: string; admin?: boolean; now?: number } = {}) =>
  store.accounts.signIn({
    newId: newId(),
    issuer: 'https://idp.example',
    subject,
    email: extra.email ?? `${subject}@example.com`,
    name: `Person ${subject}`,
    admin: extra.admin ?? false,
    now: extra.now ?? T0,
  });

export function accountStoreTests(it: It, make: Make): void {
  it('accounts: the first sign-in makes the account, later ones (any node) update it under the same id', async (store, peer) => {
    const first = await signIn(store, 'alice');
    assert.equal(first.subject, 'alice');
    assert.equal(first.admin, false);
    assert.equal(first.createdAt, T0);
    const again = await signIn(peer, 'alice', { email: 'alice@new.example', admin: true, now: T0 + HOUR });
    assert.equal(again.id, first.id);
    assert.equal(again.email, 'alice@new.example');
    assert.equal(again.admin, true);
    assert.equal(again.createdAt, T0);
    assert.equal(again.lastSeenAt, T0 + HOUR);
    assert.deepEqual(await store.accounts.getAccount(first.id), again);
    const other = await signIn(store, 'bob');
    assert.notEqual(other.id, first.id);
    assert.equal(await store.accounts.getAccount('nobody'), null);
  });

  it('sessions: found by their hash on any node until they expire; deleted once', async (store, peer) => {
    const account = await signIn(store, 'carol');
    const idHash = hashToken(newToken());
    await store.accounts.createSession({ idHash, accountId: account.id, createdAt: T0, expiresAt: T0 + HOUR });
    assert.equal((await peer.accounts.sessionAccount(idHash, T0 + 1))?.id, account.id);
    assert.equal(await peer.accounts.sessionAccount(idHash, T0 + HOUR), null, 'expired');
    assert.equal(await store.accounts.sessionAccount(hashToken('other'), T0), null);
    assert.equal(await peer.accounts.deleteSession(idHash), true);
    assert.equal(await store.accounts.deleteSession(idHash), false);
    assert.equal(await store.accounts.sessionAccount(idHash, T0 + 1), null, 'signed out');
  });

  it('sessions: a new session prunes the expired ones', async (store) => {
    const account = await signIn(store, 'dave');
    const old = hashToken(newToken());
    await store.accounts.createSession({ idHash: old, accountId: account.id, createdAt: T0, expiresAt: T0 + HOUR });
    const fresh = hashToken(newToken());
    await store.accounts.createSession({
      idHash: fresh,
      accountId: account.id,
      createdAt: T0 + 2 * HOUR,
      expiresAt: T0 + 3 * HOUR,
    });
    // The expired one is gone, so deleting it finds nothing.
    assert.equal(await store.accounts.deleteSession(old), false);
    assert.equal(await store.accounts.deleteSession(fresh), true);
  });

  it('API keys: listed without secrets, found by hash, touched at most once a minute, revoked by their account only', async (store, peer) => {
    const account = await signIn(store, 'erin');
    const intruder = await signIn(store, 'mallory');
    const secret = `wfk_${newToken()}`;
    const key = { id: newId(), accountId: account.id, name: 'laptop', hash: hashToken(secret), createdAt: T0 };
    await store.accounts.createApiKey(key);
    await store.accounts.createApiKey({ ...key, id: newId(), name: 'ci', hash: hashToken('x'), createdAt: T0 + 1 });
    const listed = await peer.accounts.listApiKeys(account.id);
    assert.deepEqual(
      listed.map((k) => k.name),
      ['ci', 'laptop'],
    );
    assert.ok(listed.every((k) => !('hash' in k)));
    assert.deepEqual(await store.accounts.listApiKeys(intruder.id), []);

    const found = await peer.accounts.apiKeyAccount(hashToken(secret));
    assert.equal(found?.account.id, account.id);
    assert.equal(found?.key.id, key.id);
    assert.equal(found?.key.lastUsedAt, null);

    await store.accounts.touchApiKey(key.id, T0 + 10, 60_000);
    await peer.accounts.touchApiKey(key.id, T0 + 20, 60_000);
    assert.equal((await store.accounts.apiKeyAccount(key.hash))?.key.lastUsedAt, T0 + 10, 'within a minute: no write');
    await peer.accounts.touchApiKey(key.id, T0 + 70_010, 60_000);
    assert.equal((await store.accounts.apiKeyAccount(key.hash))?.key.lastUsedAt, T0 + 70_010);

    assert.equal(await store.accounts.revokeApiKey(intruder.id, key.id, T0 + 2), false, 'not theirs');
    assert.equal(await peer.accounts.revokeApiKey(account.id, key.id, T0 + 2), true);
    assert.equal(await store.accounts.revokeApiKey(account.id, key.id, T0 + 3), false, 'once');
    assert.equal(await store.accounts.apiKeyAccount(key.hash), null, 'revoked');
    assert.deepEqual(
      (await store.accounts.listApiKeys(account.id)).map((k) => k.name),
      ['ci'],
    );
  });

  it('folders: the account that made a folder is kept; an anonymous one has none', async (store, peer) => {
    const account = await signIn(store, 'frank');
    const mine = make.folder({ accountId: account.id });
    const anonymous = make.folder();
    await store.createFolder(mine, []);
    await store.createFolder(anonymous, []);
    assert.equal((await peer.getFolder(mine.id))?.accountId, account.id);
    assert.equal((await peer.getFolder(anonymous.id))?.accountId, null);
  });
}
