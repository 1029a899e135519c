import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { By, type WebDriver } from 'selenium-webdriver';
import { upload } from '../../src/client/node/index.js';
import { createSke, deriveOwnerCredentials, generateSecret, importSecret } from '../../src/crypto/index.js';
import { SiteClient } from '../../src/transfer/site-client.js';
import { ownerWithZeroScalar } from '../crypto/helpers.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.js';
import { type RunningServer, startServer, tempDir } from '../support/server.js';
import { bytes, createFolder, SKIP as NO_CHROMIUM, writeTemp } from './browser.js';
import { pdf, png, webmFromChromium } from './media.js';
import { optionsCutOff } from './probes.js';
import { clickDownload, MIB, MISSING, SKIP, sha256, startWebKit, type WebKit, waitFor } from './webkit.js';

/**
 * The site in WebKit (the set-up is in ./webkit.ts): a folder filled by the client library is opened
 * in WebKit, which decrypts the names and downloads a file and the zip of all through the page's
 * buttons into its download directory; the bytes on disk are compared with the originals, and the
 * download path the page took (service worker or in-memory Blob) is read from
 * `#download-status[data-download-path]`. Then the viewer, the home form, the owner's grid and
 * the page's details. Downloads through an outage: webkit-downloads.test.ts; drop and go:
 * webkit-drop.test.ts.
 */
describe('site in WebKit (WebKitGTK MiniBrowser over WebDriver)', { skip: SKIP || Boolean(MISSING) }, () => {
  let server: RunningServer;
  let webkit: WebKit;
  let dir: string;
  let link: string;
  const big = bytes(12 * MIB + 12345, 31); // three chunks of 5 MiB
  const small = bytes(1000, 32);
  const TITLE = 'WebKit check';
  const ZIP = `${TITLE}.zip`;
  const expectedZip = [`big.bin ${big.length} ${sha256(big)}`, `small é.txt ${small.length} ${sha256(small)}`].sort();

  before(async () => {
    server = await startServer({ CHUNK_SIZE_MIB: '5' });
    dir = await tempDir('webfolder-webkit-');
    // The folder is filled by the project's client library, as a program would do it.
    const paths = [await writeTemp(dir, 'big.bin', big), await writeTemp(dir, 'small é.txt', small)];
    link = (await upload(paths, { server: server.baseUrl, title: TITLE })).link;
    webkit = await startWebKit(join(dir, 'webkit'));
    process.stderr.write(`test/site/webkit: ${await webkit.version()}\n`);
  });
  after(async () => {
    await webkit?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Opens the folder, checks the decrypted listing, downloads each file and the zip; returns the paths taken. */
  async function openAndDownloadAll(driver: WebDriver): Promise<string[]> {
    await webkit.clearDownloads();
    await driver.get(link);
    await waitFor(driver, '#files li[data-file-id] button.download:not([disabled])');
    assert.equal(await driver.findElement(By.css('#folder-title')).getText(), TITLE);
    assert.equal(await driver.findElement(By.css('#role')).getAttribute('data-role'), 'visitor');
    const rows = await driver.findElements(By.css('#files li[data-file-id]'));
    const names = await Promise.all(rows.map((r) => r.findElement(By.css('.name')).getText()));
    assert.deepEqual([...names].sort(), ['big.bin', 'small é.txt']);
    const paths: string[] = [];
    for (const [name, content] of [
      ['big.bin', big],
      ['small é.txt', small],
    ] as const) {
      paths.push(await clickDownload(driver, await rows[names.indexOf(name)]!.findElement(By.css('button.download'))));
      const got = await webkit.downloaded(name, content.length);
      assert.ok(got.equals(content), `${name}: the downloaded bytes equal the uploaded ones`);
    }
    paths.push(await clickDownload(driver, await driver.findElement(By.css('#download-all'))));
    assert.deepEqual(await webkit.downloadedZip(ZIP), expectedZip, 'the zip holds both files, byte for byte');
    return paths;
  }

  test('the folder link decrypts the names; both files and the zip download with the same bytes, streamed by the service worker', async () => {
    const driver = await webkit.session();
    try {
      const paths = await openAndDownloadAll(driver);
      process.stderr.write(`test/site/webkit: download paths with service workers: ${paths.join(', ')}\n`);
      assert.deepEqual(paths, ['service-worker', 'service-worker', 'service-worker']);
    } finally {
      await driver.quit();
    }
  });

  test('without service workers (WebKit feature ServiceWorkers off, as in-app web views) the page decrypts into a Blob', async () => {
    const driver = await webkit.session(['--features=-ServiceWorkers']);
    try {
      await driver.get(link);
      assert.equal(
        await driver.executeScript('return "serviceWorker" in navigator'),
        false,
        'service workers are off in this browser',
      );
      const paths = await openAndDownloadAll(driver);
      process.stderr.write(`test/site/webkit: download paths without service workers: ${paths.join(', ')}\n`);
      assert.deepEqual(paths, ['memory', 'memory', 'memory']);
      assert.match(await driver.findElement(By.css('#download-status')).getText(), /assembled in memory/);
    } finally {
      await driver.quit();
    }
  });

  test('the viewer shows an image at its real pixel size and text, decrypted in WebKit', async () => {
    const paths = [
      await writeTemp(dir, 'photo.png', png(300, 200)),
      await writeTemp(dir, 'note.txt', Buffer.from('hello from WebKit')),
    ];
    const viewerLink = (await upload(paths, { server: server.baseUrl })).link;
    const driver = await webkit.session();
    try {
      await driver.get(viewerLink);
      await waitFor(driver, '#files button.open');
      const open = async (name: string) => {
        for (const b of await driver.findElements(By.css('#files button.open')))
          if ((await b.getText()) === name) return b.click();
        throw new Error(`no ${name} in the list`);
      };
      await open('photo.png');
      await waitFor(driver, '#viewer-content[data-way="memory"] img#viewer-image');
      await driver.wait(
        async () => (await driver.executeScript('return document.getElementById("viewer-image").naturalWidth')) === 300,
        30_000,
      );
      assert.equal(await driver.executeScript('return document.getElementById("viewer-image").naturalHeight'), 200);
      await driver.findElement(By.css('#viewer-next')).click();
      await waitFor(driver, '#viewer-content[data-way="memory"] pre#viewer-text');
      assert.equal(await driver.findElement(By.css('#viewer-text')).getText(), 'hello from WebKit');
    } finally {
      await driver.quit();
    }
  });

  test('a video of three chunks streams through the service worker and seeks in WebKit', {
    skip: NO_CHROMIUM,
  }, async () => {
    // The WebM (VP8) is made by Chromium's WebCodecs; WebKitGTK plays it through GStreamer.
    const video = await webmFromChromium(server.baseUrl, 11 * MIB);
    const videoLink = (await upload([await writeTemp(dir, 'clip.webm', video)], { server: server.baseUrl })).link;
    const driver = await webkit.session();
    try {
      await driver.get(videoLink);
      await waitFor(driver, '#files button.open');
      await driver.findElement(By.css('#files button.open')).click();
      await waitFor(driver, '#viewer-content[data-way="stream"] video#viewer-media');
      const state = () =>
        driver.executeScript(
          'const v = document.getElementById("viewer-media"); return v && [v.currentTime, v.duration, v.readyState, v.seeking];',
        ) as Promise<[number, number, number, boolean] | null>;
      await driver.wait(async () => {
        const s = await state();
        return s !== null && s[2] >= 2 && Number.isFinite(s[1]);
      }, 30_000);
      const duration = (await state())![1];
      for (const target of [duration / 2, duration - 0.3]) {
        await driver.executeScript(`document.getElementById("viewer-media").currentTime = ${target}`);
        await driver.wait(async () => {
          const s = await state();
          return s !== null && !s[3] && s[2] >= 2 && s[0] >= target - 0.05;
        }, 30_000);
      }
    } finally {
      await driver.quit();
    }
  });

  test('the home page makes a password folder with a one-download limit; a visitor unlocks it once', async () => {
    // WebKitWebDriver runs one session at a time: the owner, then each visitor, in fresh profiles.
    let folderLink: string;
    const content = bytes(3000, 33);
    const owner = await webkit.session();
    try {
      await owner.get(`${server.baseUrl}/`);
      await waitFor(owner, '#new-mode');
      await owner.findElement(By.css('#new-mode option[value="share"]')).click();
      await owner.findElement(By.css('#new-title')).sendKeys('WebKit locked');
      await owner.findElement(By.css('#new-limit')).sendKeys('1');
      await owner.findElement(By.css('#new-password')).sendKeys('tulip anchor violet seven');
      await owner.findElement(By.css('#new-note')).sendKeys('For your eyes only');
      await owner.findElement(By.css('button[type=submit]')).click();
      // Created and claimed in one step: owned before any upload, and not asked for the password.
      await waitFor(owner, '#role[data-role="owner"]', 60_000);
      folderLink = await owner.getCurrentUrl();
      await owner.findElement(By.css('#file-input')).sendKeys(await writeTemp(dir, 'locked.txt', content));
      await waitFor(owner, '#upload-status[data-state="complete"]', 60_000);
    } finally {
      await owner.quit();
    }

    const visitor = await webkit.session();
    try {
      await webkit.clearDownloads();
      await visitor.get(folderLink);
      await waitFor(visitor, '#folder-password');
      await visitor.findElement(By.css('#folder-password')).sendKeys('tulip anchor violet');
      await visitor.findElement(By.css('#unlock')).click();
      await waitFor(visitor, '#password-status .error', 60_000);
      // The page selects the refused password, so typing replaces it.
      await visitor.findElement(By.css('#folder-password')).sendKeys('tulip anchor violet seven');
      await visitor.findElement(By.css('#unlock')).click();
      await waitFor(visitor, '#files li[data-file-id] button.download:not([disabled])', 60_000);
      assert.equal(await visitor.findElement(By.css('#role')).getAttribute('data-role'), 'visitor');
      assert.equal(await visitor.findElement(By.css('#note')).getText(), 'For your eyes only');
      await clickDownload(visitor, await visitor.findElement(By.css('#files li button.download')));
      assert.ok((await webkit.downloaded('locked.txt', content.length)).equals(content));
      await waitFor(visitor, '#files li .count[data-left="0"]');
    } finally {
      await visitor.quit();
    }

    // The limit is used up: the next visitor is shown it, and the button is disabled.
    const second = await webkit.session();
    try {
      await second.get(folderLink);
      await waitFor(second, '#folder-password');
      await second.findElement(By.css('#folder-password')).sendKeys('tulip anchor violet seven');
      await second.findElement(By.css('#unlock')).click();
      await waitFor(second, '#files li .count[data-left="0"]', 60_000);
      assert.equal(await second.findElement(By.css('#files li button.download')).isEnabled(), false);
    } finally {
      await second.quit();
    }
  });

  // The viewer's preview and its Download as one download: the shared scenario in
  // webkit-downloads.test.ts (scenes-ticket.ts), which also counts the starts at the gate.

  test("the home form's details: counters, the page's own limit message, focus after Create, sizes, a deleted folder said", async () => {
    const page = await webkit.session();
    const setValue = (css: string, value: string) =>
      page.executeScript(
        'const e = document.querySelector(arguments[0]); e.value = arguments[1]; e.dispatchEvent(new Event("input", { bubbles: true }));',
        css,
        value,
      );
    try {
      await page.get(`${server.baseUrl}/`);
      await waitFor(page, '#new-title');
      await setValue('#new-title', 'x'.repeat(195));
      assert.equal(await page.findElement(By.css('#new-title-count')).getText(), '195 of 200 characters');
      await setValue('#new-limit', '0');
      await page.findElement(By.css('button[type=submit]')).click();
      await waitFor(page, '#new-limit[aria-invalid="true"]');
      assert.equal(
        await page.findElement(By.css('#limit-error')).getText(),
        'Enter a whole number from 1 to 1,000,000, or leave the field empty for no limit.',
      );
      assert.equal(new URL(await page.getCurrentUrl()).pathname, '/');
      await setValue('#new-limit', '');
      await setValue('#new-title', 'WebKit details');
      await page.findElement(By.css('button[type=submit]')).click();
      await waitFor(page, '#role[data-role="owner"]', 60_000);
      await page.wait(
        async () => (await page.executeScript('return document.activeElement?.id')) === 'share-link',
        30_000,
      );
      await page.findElement(By.css('#file-input')).sendKeys(await writeTemp(dir, 'wk-five.bin', bytes(5_000_000, 82)));
      await waitFor(page, '#upload-status[data-state="complete"]', 60_000);
      await waitFor(page, '#files button.open');
      const height = (await page.executeScript(
        "return document.querySelector('#files button.open').getBoundingClientRect().height",
      )) as number;
      assert.ok(height >= 44, `the preview-name button is 44 px tall (${height})`);
      await page.wait(
        async () => (await page.findElement(By.css('#folder-summary')).getText()).includes('5.00 MB'),
        30_000,
      );
    } finally {
      await page.quit();
    }

    // A folder deleted while a visitor's page is open (WebKitWebDriver runs one session at a time, so
    // the owner is a program here): the page says so by its poll, with no Download left.
    const owner = await deriveOwnerCredentials(generateSecret());
    const linkSecret = generateSecret();
    const created = await SiteClient.createFolder(`${server.baseUrl}/api/site`, owner.authToken, {
      mode: 'send',
      title: 'WebKit going',
      ske: await createSke(await importSecret(linkSecret)),
    });
    const visitor = await webkit.session();
    try {
      await visitor.get(`${created.folderUrl}#${linkSecret}`);
      await waitFor(visitor, '#role[data-role="visitor"]', 60_000);
      await new SiteClient(`${server.baseUrl}/api/site`, created.folderId, {
        ownerToken: owner.authToken,
      }).deleteFolder();
      await visitor.wait(async () => {
        for (const h of await visitor.findElements(By.css('h1')))
          if ((await h.getText()) === 'Folder not found') return true;
        return false;
      }, 30_000);
      assert.match(
        await visitor.findElement(By.css('main')).getText(),
        /deleted or has expired while this page was open/,
      );
      assert.equal((await visitor.findElements(By.css('button.download'))).length, 0);
    } finally {
      await visitor.quit();
    }
  });

  test('an owner key whose X25519 scalar begins with a zero byte opens its request folder in WebKit', async () => {
    // WebKitGTK's WebCrypto refuses to import such a private scalar (1 owner secret in 256): the page
    // then could not act as the owner at all. The owner side now computes X25519 with @noble/curves.
    const { secret: ownerSecret, owner } = await ownerWithZeroScalar();
    const linkSecret = generateSecret();
    const created = await SiteClient.createFolder(`${server.baseUrl}/api/site`, owner.authToken, {
      mode: 'request',
      title: 'Zero scalar',
      ske: await createSke(await importSecret(linkSecret)),
      ownerPublicKey: owner.publicKey,
    });
    const driver = await webkit.session();
    try {
      await driver.get(`${created.folderUrl}#${linkSecret}&owner=${ownerSecret}`);
      await waitFor(driver, '#role[data-role="owner"]', 60_000);
      assert.equal(await driver.findElement(By.css('#folder-title')).getText(), 'Zero scalar');
    } finally {
      await driver.quit();
    }
  });

  /** As in owner-grid.test.ts: `sel` in tile `i` lies inside the tile and a click at its centre reaches it. */
  const REACHABLE = `
    const [index, sel] = arguments;
    const li = document.querySelectorAll('#files li[data-file-id]')[index];
    const el = li.querySelector(sel);
    if (!el) return 'tile ' + index + ': no ' + sel;
    el.scrollIntoView({ block: 'center' });
    const box = el.getBoundingClientRect();
    const tile = li.getBoundingClientRect();
    const inside = box.left >= tile.left - 0.5 && box.right <= tile.right + 0.5 &&
      box.top >= tile.top - 0.5 && box.bottom <= tile.bottom + 0.5;
    if (!inside) return 'tile ' + index + ': ' + sel + ' ' + JSON.stringify(box) + ' is outside its tile ' + JSON.stringify(tile);
    if (box.right > document.documentElement.clientWidth + 0.5) return 'tile ' + index + ': ' + sel + ' runs off the page';
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(el === hit || el.contains(hit)))
      return 'tile ' + index + ': a click on ' + sel + ' hits ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
    return null;`;

  test("the owner's grid of images: every Manage and its controls inside the tile and take the click, 1280x800 and a phone's width", async () => {
    const driver = await webkit.session();
    try {
      for (const [label, width, height] of [
        ['desktop', 1280, 800],
        ['phone', 390, 844],
      ] as const) {
        const folder = await createFolder(server.baseUrl, 'share');
        const paths: string[] = [];
        for (let i = 0; i < 5; i++)
          paths.push(await writeTemp(dir, `wk-${label}-photo-${i}.png`, png(400, 300, [40 * i, 90, 160])));
        await driver.manage().window().setRect({ width, height });
        await driver.get(folder.folderUrl);
        await waitFor(driver, '#file-input', 60_000);
        const inner = (await driver.executeScript('return document.documentElement.clientWidth')) as number;
        // The MiniBrowser's window goes no narrower than its toolbar (a page of about 447 px, where
        // its frames refuse the site: frame-ancestors 'none'): the phone check holds when the page is
        // under the site's 30rem (480 px) phone breakpoint, with the grid in its phone layout.
        if (label === 'desktop') assert.ok(Math.abs(inner - width) <= 20, `desktop: the page is ${inner} px wide`);
        else assert.ok(inner < 480, `phone: the page (${inner} px) is in the phone layout, under 30rem`);
        await driver.findElement(By.css('#file-input')).sendKeys(paths.join('\n'));
        await waitFor(driver, '#upload-status[data-state="complete"]', 120_000);
        await waitFor(driver, '#role[data-role="owner"]', 60_000);
        await waitFor(driver, '#files.grid li[data-file-id]:nth-child(5)', 60_000);

        const failures: string[] = [];
        for (let i = 0; i < 5; i++) {
          const problem = (await driver.executeScript(REACHABLE, i, 'details.file-manage > summary')) as string | null;
          if (problem) failures.push(problem);
        }
        assert.deepEqual(failures, [], `${label}: every Manage is inside its tile and takes the click`);

        const inside: string[] = [];
        for (let i = 0; i < 5; i++) {
          const tile = (await driver.findElements(By.css('#files li[data-file-id]')))[i]!;
          // A real WebDriver click at the summary's centre: it opens this tile's controls.
          await tile.findElement(By.css('details.file-manage > summary')).click();
          assert.equal(await tile.findElement(By.css('details.file-manage')).getAttribute('open'), 'true');
          for (const sel of ['input.file-limit', 'button.save-limit', 'button.delete-file']) {
            const problem = (await driver.executeScript(REACHABLE, i, sel)) as string | null;
            if (problem) inside.push(problem);
          }
          await tile.findElement(By.css('details.file-manage > summary')).click();
        }
        assert.deepEqual(inside, [], `${label}: the opened controls are inside the tile and take the click`);
      }
    } finally {
      await driver.quit();
    }
  });

  /** The owner's page of a share folder made by Create on the home page of `baseUrl`. */
  async function ownerPage(driver: WebDriver, baseUrl: string): Promise<void> {
    await driver.get(`${baseUrl}/`);
    await waitFor(driver, '#new-mode');
    await driver.findElement(By.css('#new-mode option[value="share"]')).click();
    await driver.findElement(By.css('button[type=submit]')).click();
    await waitFor(driver, '#role[data-role="owner"]', 60_000);
  }

  test('no e-mail field on a server without SMTP_URL, plain words instead; offered with it', async () => {
    let smtp: SmtpReceiver | undefined;
    let mailing: RunningServer | undefined;
    const driver = await webkit.session();
    try {
      await ownerPage(driver, server.baseUrl);
      await waitFor(driver, '#notify-current[data-state="off"]');
      assert.match(await driver.findElement(By.css('#notify-no-mail')).getText(), /This server sends no e-mail/);
      assert.equal((await driver.findElements(By.css('#notify-email'))).length, 0, 'no address field');
      assert.equal((await driver.findElements(By.css('#notify-save'))).length, 0);
      assert.equal((await driver.findElements(By.css('#notify-clear'))).length, 1, 'stopping a webhook still works');
      smtp = await startSmtpReceiver();
      mailing = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'webfolder <noreply@example.org>' });
      await ownerPage(driver, mailing.baseUrl);
      await waitFor(driver, '#notify-email');
      assert.equal((await driver.findElements(By.css('#notify-no-mail'))).length, 0, 'with SMTP_URL e-mail is offered');
    } finally {
      await driver.quit();
      await mailing?.close();
      await smtp?.close();
    }
  });

  test("the PDF viewer is named by the file, not a blob's UUID; mode texts fit a phone's select", async () => {
    const driver = await webkit.session();
    try {
      await ownerPage(driver, server.baseUrl);
      await driver
        .findElement(By.css('#file-input'))
        .sendKeys(await writeTemp(dir, 'wk-paper.pdf', pdf('Hello WebKit')));
      await waitFor(driver, '#upload-status[data-state="complete"]', 60_000);
      await waitFor(driver, '#files button.open');
      await driver.findElement(By.css('#files button.open')).click();
      await driver.wait(
        async () => (await driver.findElement(By.css('#viewer-title')).getText()) === 'wk-paper.pdf',
        30_000,
      );
      const src = (await (await waitFor(driver, '#viewer-pdf', 60_000)).getAttribute('src')) ?? '';
      assert.match(src, /\/media\/[0-9a-f-]{36}\/wk-paper\.pdf$/);
      const served = (await driver.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         fetch(arguments[0]).then((r) => done([r.headers.get('content-type'), r.headers.get('content-disposition')]), (e) => done([String(e), '']));`,
        src,
      )) as [string, string];
      assert.deepEqual(served, ['application/pdf', `inline; filename="wk-paper.pdf"; filename*=UTF-8''wk-paper.pdf`]);

      // The mode select on a phone: the MiniBrowser's window goes no narrower than about 447 px, so
      // the room each text has is measured less the page's width beyond 390 px (the select is fluid).
      await driver.manage().window().setRect({ width: 390, height: 844 });
      await driver.get(`${server.baseUrl}/`);
      await waitFor(driver, '#new-mode');
      for (const lang of ['de', 'ko', 'ja', 'pl']) {
        await driver.findElement(By.css(`#language option[value="${lang}"]`)).click();
        await waitFor(driver, `html[lang="${lang}"]`);
        const cut = (await driver.executeScript(`return ${optionsCutOff('#new-mode', 390)}`)) as string[];
        assert.deepEqual(cut, [], `${lang}: every mode's text fits the select`);
        assert.equal((await driver.findElements(By.css('#new-mode option'))).length, 3);
        assert.ok(await driver.findElement(By.css('#mode-help')).getText(), `${lang}: the chosen mode is explained`);
      }
    } finally {
      await driver.quit();
    }
  });

  test('a wrong key says so', async () => {
    const driver = await webkit.session();
    try {
      await driver.get(`${link.split('#')[0]}#AAAAAAAAAAAAAAAAAAAAAA`);
      await waitFor(driver, '#error');
      assert.equal(await driver.findElement(By.css('h1')).getText(), 'Wrong key for this folder');
      assert.match(await driver.findElement(By.css('#error')).getText(), /does not open this folder/);
    } finally {
      await driver.quit();
    }
  });
});
