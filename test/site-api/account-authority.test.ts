import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../src/app/errors.js';
import { composeServices, type Services } from '../../src/app/services.js';
import { SigningKeys } from '../../src/app/signing-keys.js';
import type { Caller } from '../../src/app/site/access.js';
import { folderActivity } from '../../src/app/site/activity.js';
import { folderInfo } from '../../src/app/site/folder-info.js';
import { clearNotifications, getNotifications } from '../../src/app/site/notifications.js';
import { createOwnedFolder, deleteFolder, updateFile, updateFolder } from '../../src/app/site/owner.js';
import { openBlobStore, openMetadataStore, resolveSigningSecret } from '../../src/backends.js';
import { loadConfig } from '../../src/config/config.js';
import { HOUR_MS } from '../../src/domain/limits.js';
import type { Principal } from '../../src/domain/principal.js';
import { tempDir } from '../support/server.js';
import { onEveryStore } from '../support/stores.js';
import { token } from './owner-support.js';

/**
 * Owner authority by account (src/app/site/access.ts ownerAuthority/openAsOwner), the one
 * layer that decides it, over real stores: the account that made a folder may use every owner
 * control that needs no key; another account (by session or API key) and an anonymous caller may
 * not; a control that needs the key (the note, the password) stays the owner credential's; the
 * owner token works as before.
 */
const account = (accountId: string, via: 'session' | 'api-key' = 'session'): Principal => ({
  kind: 'account',
  accountId,
  email: `${accountId}@example.org`,
  name: null,
  admin: false,
  via,
});

async function refused(work: Promise<unknown>, pattern: RegExp, what: string): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof AppError, `${what}: ${String(error)}`);
    assert.equal(error.status, 403, `${what}: ${error.message}`);
    assert.match(error.message, pattern, what);
    return true;
  });
}

onEveryStore((storeName, env, skip) => {
  describe(`owner controls by account on ${storeName}`, () => {
    let services: Services;
    let dir: string;
    before(async () => {
      const extra = await env();
      if (!extra) return;
      dir = await tempDir('webfolder-account-');
      const config = loadConfig({ DATA_DIR: dir, MAX_EXPIRES_HOURS: '48', ...extra });
      const clock = () => Date.now();
      const store = await openMetadataStore(config);
      const secret = await resolveSigningSecret(config);
      const blobs = await openBlobStore(config, clock, secret);
      services = composeServices({ config, store, blobs, clock, keys: new SigningKeys(secret) });
    });
    after(async () => {
      await services?.store.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** A folder made on the site by `principal`'s browser (owner token `owner`), with one file. */
    async function made(principal: Principal, owner = token()) {
      const caller: Caller = { ownerToken: owner, principal };
      const { folderId } = await createOwnedFolder(
        services,
        caller,
        { mode: 'send', ske: 'c2tl', title: 'Mine' },
        { principal },
      );
      return { folderId, owner };
    }

    test('the account that made a folder uses its keyless controls; others are refused', async (t) => {
      if (skip()) return t.skip(skip());
      const alice = account('alice');
      const { folderId, owner } = await made(alice);
      assert.equal((await services.store.getFolder(folderId))?.accountId, 'alice');
      const keyless = [
        ['settings', (c: Caller) => updateFolder(services, folderId, c, { maxDownloads: 4 })],
        ['notifications', (c: Caller) => getNotifications(services, folderId, c)],
        ['stop notifications', (c: Caller) => clearNotifications(services, folderId, c)],
        ['activity', (c: Caller) => folderActivity(services, folderId, c)],
      ] as const;
      const strangers: [string, Caller][] = [
        ['another account', { principal: account('bob') }],
        ["another account's API key", { principal: account('bob', 'api-key') }],
        ['anonymous', { principal: { kind: 'anonymous' } }],
        ['no principal at all', {}],
        ['a wrong owner token', { ownerToken: token() }],
      ];
      for (const [control, use] of keyless)
        for (const [who, caller] of strangers) await refused(use(caller), /only the owner can/, `${who}: ${control}`);

      // The account, by session and by its own API key, without any owner credential.
      for (const via of ['session', 'api-key'] as const) {
        const caller = { principal: account('alice', via) };
        for (const [control, use] of keyless)
          await use(caller).then(
            () => undefined,
            (e) => assert.fail(`${via} ${control}: ${e}`),
          );
      }
      const expiresAt = Date.now() + 10 * HOUR_MS;
      const changed = await updateFolder(services, folderId, { principal: alice }, { expiresAt, maxDownloads: 2 });
      assert.equal(changed.expiresAt, expiresAt);
      assert.equal(changed.maxDownloads, 2);
      // The account is not the key holder: the mode's rights stay the link's (isOwner false).
      assert.equal(changed.isOwner, false);
      // The note and the password are encrypted with the folder key: the account cannot set them.
      await refused(
        updateFolder(services, folderId, { principal: alice }, { note: 'bm90ZQ' }),
        /needs the folder's key/,
        'account: note',
      );
      assert.equal((await services.store.getFolder(folderId))?.settings.note, null);
      // The owner token path is unchanged: it sets the note, and sees the folder as its owner.
      const byOwner = await updateFolder(services, folderId, { ownerToken: owner }, { note: 'bm90ZQ' });
      assert.equal(byOwner.note, 'bm90ZQ');
      assert.equal(byOwner.isOwner, true);
      assert.equal(
        (await folderInfo(services, folderId, { ownerToken: owner, principal: account('bob') })).isOwner,
        true,
      );
      // Another account cannot delete it; its own account can.
      await refused(
        deleteFolder(services, folderId, { principal: account('bob', 'api-key') }),
        /only the owner can delete/,
        'bob deletes',
      );
      await deleteFolder(services, folderId, { principal: account('alice', 'api-key') });
      assert.equal(await services.store.getFolder(folderId), null);
    });

    test("a file's limit by account; a folder made signed out belongs to no account", async (t) => {
      if (skip()) return t.skip(skip());
      const { folderId } = await made(account('carol'));
      const anonymousFolder = await made({ kind: 'anonymous' });
      assert.equal((await services.store.getFolder(anonymousFolder.folderId))?.accountId ?? null, null);
      for (const principal of [account('carol'), account('bob'), { kind: 'anonymous' } as const])
        await refused(
          updateFolder(services, anonymousFolder.folderId, { principal }, { maxDownloads: 1 }),
          /only the owner can/,
          `${principal.kind} on a signed-out folder`,
        );
      // No file to limit yet is a 404 after authority: authority is decided first, for both.
      await refused(
        updateFile(services, folderId, 'AAAAAAAAAAAAAAAA', { principal: account('bob') }, { maxDownloads: 1 }),
        /only the owner can/,
        'bob limits a file',
      );
      await assert.rejects(
        updateFile(services, folderId, 'AAAAAAAAAAAAAAAA', { principal: account('carol') }, { maxDownloads: 1 }),
        (e: unknown) => e instanceof AppError && e.status === 404,
      );
    });
  });
});
