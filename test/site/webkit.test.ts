import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSke, generateSecret, importSecret } from '../../src/crypto/index.js';
import { SiteClient } from '../../src/transfer/site-client.js';
import { ownerWithZeroScalar } from '../crypto/helpers.js';
import { eachEngine, useSite } from './driver.js';
import { webkit } from './driver-webkit.js';
import { firstMinuteScenario } from './scenes-first.js';
import { ownerGridScenario } from './scenes-grid.js';
import { visitorScenario } from './scenes-visit.js';

/**
 * The site in WebKit (WebKitGTK's MiniBrowser over WebDriver; see ./webkit.ts), through the driver
 * (driver.ts). A visitor's main paths, written once in scenes-visit.ts (firefox.test.ts runs them in
 * Firefox), here also without service workers, as in-app web views are; a person's first minute,
 * written once in scenes-first.ts (first-minute.test.ts runs it in Chromium and Firefox); the
 * owner's grid, written once in scenes-grid.ts (owner-grid.test.ts runs it in Chromium); and, in
 * WebKit only, an owner key WebKit's WebCrypto refuses. Downloads through an outage and the resumed
 * upload: webkit-downloads.test.ts; drop and go: webkit-drop.test.ts. WebKitWebDriver runs one
 * session at a time: each person's page is closed before the next one's opens.
 */
eachEngine('site in WebKit', [webkit], (engine) => {
  const site = useSite(engine);

  visitorScenario(site, { inMemory: true });

  firstMinuteScenario(site);

  test('an owner key whose X25519 scalar begins with a zero byte opens its request folder in WebKit', async () => {
    // WebKitGTK's WebCrypto refuses to import such a private scalar (1 owner secret in 256): the page
    // then could not act as the owner at all. The owner side computes X25519 with @noble/curves.
    const { secret: ownerSecret, owner } = await ownerWithZeroScalar();
    const linkSecret = generateSecret();
    const created = await SiteClient.createFolder(`${site.url}/api/site`, owner.authToken, {
      mode: 'request',
      title: 'Zero scalar',
      ske: await createSke(await importSecret(linkSecret)),
      ownerPublicKey: owner.publicKey,
    });
    const page = await site.browser.page();
    try {
      await page.goto(`${created.folderUrl}#${linkSecret}&owner=${ownerSecret}`);
      await page.waitFor('#role[data-role="owner"]', { timeoutMs: 60_000 });
      assert.equal(await page.text('#folder-title'), 'Zero scalar');
    } finally {
      await page.close();
    }
  });

  ownerGridScenario(site);
});
