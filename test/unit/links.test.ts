import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  folderIdInLink,
  folderPagePath,
  folderPageUrl,
  fragmentOf,
  ownerLink,
  parseFragment,
  redactLink,
  SITE_PAGES,
  type SitePageName,
  shareLink,
  siteOfLink,
  sitePageOf,
  sitePagePath,
} from '../../src/domain/links.js';
import { parseShareLink } from '../../src/transfer/state.js';
import { parseFragment as pageParseFragment } from '../../web/src/state/index.js';

/**
 * The share link and the site's page paths (src/domain/links.ts): what the server, the CLI, the
 * admin commands and the page build is what each of them reads back.
 */
const base64url = fc.string({ unit: fc.constantFrom(...'ABCxyz019-_'.split('')), minLength: 1, maxLength: 43 });
const folderId = fc.string({ unit: fc.constantFrom(...'AZaz09-_'.split('')), minLength: 16, maxLength: 16 });
const site = fc.constantFrom('https://files.example.com', 'http://127.0.0.1:8080', 'https://example.org/share');

describe('share and owner links', () => {
  test('a share link and an owner link read back as what they were built from', () => {
    fc.assert(
      fc.property(site, folderId, base64url, base64url, (webUrl, id, secret, owner) => {
        const page = folderPageUrl(webUrl, id);
        const share = parseShareLink(shareLink(page, secret));
        assert.deepEqual(share, { folderUrl: page, origin: new URL(page).origin, folderId: id, secret });
        const owned = parseShareLink(ownerLink(page, secret, owner));
        assert.equal(owned.ownerSecret, owner);
        assert.equal(owned.secret, secret);
        assert.equal(siteOfLink(shareLink(page, secret)), webUrl);
        assert.equal(folderIdInLink(ownerLink(page, secret, owner)), id);
      }),
    );
  });

  test('building a link replaces the fragment it had', () => {
    assert.equal(
      shareLink('https://x.example/f/AAAAAAAAAAAAAAAA#old&owner=o', 'new'),
      'https://x.example/f/AAAAAAAAAAAAAAAA#new',
    );
    assert.equal(
      ownerLink('https://x.example/f/AAAAAAAAAAAAAAAA#old', 's', 'o'),
      'https://x.example/f/AAAAAAAAAAAAAAAA#s&owner=o',
    );
  });

  test('the fragment reads back as written, with or without its #', () => {
    fc.assert(
      fc.property(base64url, fc.option(base64url, { nil: null }), (secret, owner) => {
        const fragment = fragmentOf(secret, owner);
        assert.deepEqual(parseFragment(fragment), { secret, ownerSecret: owner });
        assert.deepEqual(parseFragment(fragment.slice(1)), { secret, ownerSecret: owner });
      }),
    );
    assert.deepEqual(parseFragment(''), { secret: null, ownerSecret: null });
    assert.deepEqual(parseFragment('#'), { secret: null, ownerSecret: null });
    assert.equal(fragmentOf(null, 'o'), '');
  });

  test('a broken %-escape is kept as written, the same in the page and the CLI', () => {
    const hash = '#ab%E0%A4%A&owner=%zz';
    assert.deepEqual(pageParseFragment(hash), { secret: 'ab%E0%A4%A', ownerSecret: '%zz' });
    const link = parseShareLink(`https://x.example/f/AAAAAAAAAAAAAAAA${hash}`);
    assert.equal(link.secret, 'ab%E0%A4%A');
    assert.equal(link.ownerSecret, '%zz');
    // Any text after # reads without throwing.
    fc.assert(
      fc.property(fc.string(), (text) => {
        pageParseFragment(`#${text}`);
      }),
    );
  });

  test('a link in messages hides its secret', () => {
    assert.equal(
      redactLink('https://x.example/f/AAAAAAAAAAAAAAAA#secret&owner=o'),
      'https://x.example/f/AAAAAAAAAAAAAAAA#…',
    );
  });
});

describe('page paths', () => {
  test('each named page reads back as itself', () => {
    for (const page of Object.keys(SITE_PAGES) as SitePageName[])
      assert.deepEqual(sitePageOf(sitePagePath(page).slice(1)), { kind: page });
    assert.equal(sitePagePath('myFolders'), '/me');
    assert.equal(sitePagePath('account'), '/account');
    assert.equal(sitePagePath('admin'), '/admin');
  });

  test('a folder page reads back as its folder id, with or without a trailing slash', () => {
    fc.assert(
      fc.property(folderId, (id) => {
        const path = folderPagePath(id).slice(1);
        assert.deepEqual(sitePageOf(path), { kind: 'folder', folderId: id });
        assert.deepEqual(sitePageOf(`${path}/`), { kind: 'folder', folderId: id });
      }),
    );
  });

  test('the home page, and what is no page', () => {
    assert.deepEqual(sitePageOf(''), { kind: 'home' });
    assert.deepEqual(sitePageOf('index.html'), { kind: 'home' });
    for (const rest of ['f/short', 'f/AAAAAAAAAAAAAAAAA', 'f/AAAAAAAAAAAAAAA!', 'me/', 'admins', 'f/', 'x'])
      assert.deepEqual(sitePageOf(rest), { kind: 'unknown' }, rest);
  });

  test('a folder id is found in a link or a page address, not in a longer or shorter segment', () => {
    const id = 'AbCdEfGhIjKlMn_-';
    for (const text of [
      `https://x/f/${id}`,
      `https://x/f/${id}/`,
      `https://x/f/${id}?a=1`,
      `https://x/f/${id}#k`,
      `/f/${id}`,
    ])
      assert.equal(folderIdInLink(text), id, text);
    for (const text of [`https://x/f/${id}x`, 'https://x/f/short#k', id])
      assert.equal(folderIdInLink(text), null, text);
  });
});
