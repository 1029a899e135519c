import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { SiteNotifications } from '../../src/contract/site.js';
import { deriveOwnerCredentials } from '../../src/crypto/index.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { bytes, createFolder, writeTemp } from './browser.js';
import { eachEngine, useSite } from './driver.js';
import { chromium } from './driver-chromium.js';

/**
 * The owner's notification control on the folder page (web/src/views/notify.ts): the owner sets an
 * address and the events in Chromium, the server's setting (GET …/notifications) is what was set,
 * clearing it turns it off, and a visitor with the same link does not get the control. (A server
 * that sends no mail: scenes-first.ts, in every engine.)
 */
eachEngine('site: owner notifications', [chromium], (engine) => {
  let smtp: SmtpReceiver | undefined;
  const site = useSite(engine, async () => {
    smtp = await startSmtpReceiver();
    return { env: { SMTP_URL: smtp.url, MAIL_FROM: 'webfolder <noreply@example.org>' } };
  });
  after(() => smtp?.close());

  test('the owner sets an address and events, the server keeps them; a visitor has no control', async () => {
    const folder = await createFolder(site.url, 'share', 'Tell me');
    const owner = await site.browser.page();
    // The server's own answer, asked with the owner token of the secret the owner's browser keeps.
    const setting = async (): Promise<SiteNotifications> => {
      const secret = await owner.evaluate<string | null>(`localStorage.getItem('webfolder:owner:${folder.folderId}')`);
      assert.ok(secret, 'the owner browser keeps its owner secret');
      const { authToken } = await deriveOwnerCredentials(secret);
      const r = await fetch(`${site.url}/api/site/folders/${folder.folderId}/notifications`, {
        headers: { 'x-owner-token': authToken },
      });
      assert.equal(r.status, 200);
      return (await r.json()) as SiteNotifications;
    };
    const checked = (selector: string) => owner.evaluate<boolean>(`document.querySelector('${selector}').checked`);

    await owner.goto(folder.folderUrl);
    await owner.waitFor('#file-input', { state: 'attached' });
    assert.equal(await owner.count('#notify'), 0, 'no control before anyone owns the folder');
    await owner.pickFiles('#file-input', [await writeTemp(site.dir, 'n.bin', bytes(1000, 7))]);
    await owner.waitFor('#upload-status[data-state="complete"]', { timeoutMs: 60_000 });
    await owner.waitFor('#role[data-role="owner"]');
    await owner.waitFor('#notify-current[data-state="off"]');
    assert.equal(await owner.count('#notify-no-mail'), 0, 'a server with SMTP_URL offers e-mail');

    await owner.fill('#notify-email', 'owner@example.org');
    await owner.click('#notify-download');
    await owner.click('#notify-upload');
    assert.deepEqual([await checked('#notify-download'), await checked('#notify-upload')], [true, true]);
    await owner.click('#notify-save');
    await owner.waitFor('#notify-current[data-state="on"]');
    assert.match(await owner.renderedText('#notify-current'), /downloads and uploads at owner@example\.org/);
    const saved = await setting();
    assert.equal(saved.email, 'owner@example.org');
    assert.equal(saved.onDownload, true);
    assert.equal(saved.onUpload, true);
    // Until the address follows the link of its one confirmation mail, the page says so:
    // no mail goes to an address its owner has not proved.
    assert.equal(saved.emailStatus, 'pending');
    await owner.waitFor('#notify-email-status[data-state="pending"]');
    assert.match(await owner.renderedText('#notify-email-status'), /owner@example\.org has not confirmed yet/);

    // A reload shows the server's setting, not what the form last held.
    await owner.reload();
    await owner.waitFor('#notify-current[data-state="on"]');
    assert.equal(await owner.value('#notify-email'), 'owner@example.org');
    assert.equal(await checked('#notify-download'), true);

    // An event without an address is refused by the server, and the page says so.
    await owner.fill('#notify-email', '');
    await owner.click('#notify-save');
    await owner.waitFor('#notify-current[data-state="error"]');
    assert.equal((await setting()).email, 'owner@example.org', 'a refused change changes nothing');

    await owner.click('#notify-clear');
    await owner.waitFor('#notify-current[data-state="off"]');
    const cleared = await setting();
    assert.deepEqual([cleared.email, cleared.onDownload, cleared.onUpload], [null, false, false]);
    assert.deepEqual(owner.problems, []);
    await owner.close();

    const visitor = await site.browser.page();
    await visitor.goto(folder.folderUrl);
    await visitor.waitFor('#role[data-role="visitor"]');
    await visitor.waitFor('#files');
    assert.equal(await visitor.count('#notify'), 0, 'a visitor does not see the control');
    assert.deepEqual(visitor.problems, []);
    await visitor.close();
  });
});
