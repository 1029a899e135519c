import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SiteNotifications } from '../../src/contract/site.js';
import { deriveOwnerCredentials } from '../../src/crypto/index.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { bytes, newContext, SKIP, useBrowserFixture, watch, writeTemp } from './browser.js';

/**
 * The owner's notification control on the folder page (web/src/views/notify.ts): the owner sets an
 * address and the events in Chromium, the server's setting (GET …/notifications) is what was set,
 * clearing it turns it off, and a visitor with the same link does not get the control.
 */
describe('site: owner notifications (Chromium)', { skip: SKIP }, () => {
  const env: Record<string, string> = { MAIL_FROM: 'webfolder <noreply@example.org>' };
  let smtp: SmtpReceiver;
  // Registered before the fixture's hook, which reads env as the server starts.
  before(async () => {
    smtp = await startSmtpReceiver();
    env.SMTP_URL = smtp.url;
  });
  const fx = useBrowserFixture(env);
  after(() => smtp?.close());

  test('the owner sets an address and events, the server keeps them; a visitor has no control', async () => {
    const ownerCtx = await newContext(fx.browser);
    const owner = await ownerCtx.newPage();
    const res = await fetch(`${fx.server.baseUrl}/v2/folders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'share', title: 'Tell me' }),
    });
    const folder = (await res.json()) as { folderId: string; folderUrl: string };
    // The server's own answer, asked with the owner token of the secret the owner's browser keeps.
    const setting = async (): Promise<SiteNotifications> => {
      const secret = await owner.evaluate((id) => localStorage.getItem(`webfolder:owner:${id}`), folder.folderId);
      assert.ok(secret, 'the owner browser keeps its owner secret');
      const { authToken } = await deriveOwnerCredentials(secret);
      const r = await fetch(`${fx.server.baseUrl}/api/site/folders/${folder.folderId}/notifications`, {
        headers: { 'x-owner-token': authToken },
      });
      assert.equal(r.status, 200);
      return (await r.json()) as SiteNotifications;
    };

    const problems = watch(owner);
    await owner.goto(folder.folderUrl);
    assert.equal(await owner.locator('#notify').count(), 0, 'no control before anyone owns the folder');
    await owner.setInputFiles('#file-input', [await writeTemp(fx.dir, 'n.bin', bytes(1000, 7))]);
    await owner.locator('#upload-status[data-state="complete"]').waitFor({ timeout: 60_000 });
    await owner.locator('#role[data-role="owner"]').waitFor();
    await owner.locator('#notify-current[data-state="off"]').waitFor();
    assert.equal(await owner.locator('#notify-no-mail').count(), 0, 'a server with SMTP_URL offers e-mail');

    await owner.fill('#notify-email', 'owner@example.org');
    await owner.check('#notify-download');
    await owner.check('#notify-upload');
    await owner.click('#notify-save');
    await owner.locator('#notify-current[data-state="on"]').waitFor();
    assert.match(await owner.locator('#notify-current').innerText(), /downloads and uploads at owner@example\.org/);
    const saved = await setting();
    assert.equal(saved.email, 'owner@example.org');
    assert.equal(saved.onDownload, true);
    assert.equal(saved.onUpload, true);
    // Until the address follows the link of its one confirmation mail, the page says so:
    // no mail goes to an address its owner has not proved.
    assert.equal(saved.emailStatus, 'pending');
    await owner.locator('#notify-email-status[data-state="pending"]').waitFor();
    assert.match(await owner.locator('#notify-email-status').innerText(), /owner@example\.org has not confirmed yet/);

    // A reload shows the server's setting, not what the form last held.
    await owner.reload();
    await owner.locator('#notify-current[data-state="on"]').waitFor();
    assert.equal(await owner.inputValue('#notify-email'), 'owner@example.org');
    assert.equal(await owner.isChecked('#notify-download'), true);

    // An event without an address is refused by the server, and the page says so.
    await owner.fill('#notify-email', '');
    await owner.click('#notify-save');
    await owner.locator('#notify-current[data-state="error"]').waitFor();
    assert.equal((await setting()).email, 'owner@example.org', 'a refused change changes nothing');

    await owner.click('#notify-clear');
    await owner.locator('#notify-current[data-state="off"]').waitFor();
    const cleared = await setting();
    assert.deepEqual([cleared.email, cleared.onDownload, cleared.onUpload], [null, false, false]);

    const visitorCtx = await newContext(fx.browser);
    const visitor = await visitorCtx.newPage();
    await visitor.goto(folder.folderUrl);
    await visitor.locator('#role[data-role="visitor"]').waitFor();
    await visitor.locator('#files').waitFor();
    assert.equal(await visitor.locator('#notify').count(), 0, 'a visitor does not see the control');
    assert.deepEqual(problems, []);
    await Promise.all([ownerCtx.close(), visitorCtx.close()]);
  });
});

/** A server without SMTP_URL refuses an address, so the page offers none and says why first. */
describe('site: owner notifications on a server that sends no mail (Chromium)', { skip: SKIP }, () => {
  const fx = useBrowserFixture();

  test('no e-mail field, plain words instead, and the setting still shown', async () => {
    const ctx = await newContext(fx.browser);
    const owner = await ctx.newPage();
    const problems = watch(owner);
    await owner.goto(`${fx.server.baseUrl}/`);
    await owner.locator('#new-mode').selectOption('share');
    await Promise.all([owner.waitForURL(/\/f\/[A-Za-z0-9_-]{16}#/), owner.locator('button[type=submit]').click()]);
    await owner.locator('#role[data-role="owner"]').waitFor();
    // Off, without mail: neither "Notifications are off" nor a "Stop" that would do nothing is shown.
    await owner.locator('#notify-current[data-state="off"]').waitFor({ state: 'hidden' });
    assert.match(await owner.locator('#notify-no-mail').innerText(), /This server sends no e-mail/);
    assert.equal(await owner.locator('#notify-email').count(), 0, 'no address field a Save would refuse');
    assert.equal(await owner.locator('#notify-save').count(), 0);
    assert.equal(await owner.locator('#notify-clear').count(), 1, 'stopping a webhook still works');
    assert.equal(await owner.locator('#notify-clear').isVisible(), false, 'shown only while a webhook is on');
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});
