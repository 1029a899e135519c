import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parametersOf } from '../../web/src/i18n/catalog.js';
import { en } from '../../web/src/i18n/en.js';
import { CATALOGS, LANGUAGES, pickLanguage, setLanguage, t, tParts } from '../../web/src/i18n/index.js';

/** The site's message catalogs (web/src/i18n): complete, consistent, and what t() makes of them. */
describe('site message catalogs', () => {
  const keys = Object.keys(en).sort();

  for (const [lang, catalog] of Object.entries(CATALOGS)) {
    it(`${lang} has exactly the keys of en with the same parameters`, () => {
      assert.deepEqual(Object.keys(catalog).sort(), keys);
      for (const key of keys) {
        const reference = en[key as keyof typeof en];
        const message = catalog[key as keyof typeof en];
        assert.deepEqual(parametersOf(message), parametersOf(reference), `${lang} ${key}: parameters`);
        // A counted message stays counted (it gets `count`), and has the forms its language needs.
        assert.equal(typeof message, typeof reference, `${lang} ${key}: plural or not`);
        if (typeof message !== 'string') {
          const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
          for (const category of needed)
            if (category !== 'other') assert.ok(category in message, `${lang} ${key}: no "${category}" form`);
          assert.ok(message.other.length > 0);
        }
        for (const form of typeof message === 'string' ? [message] : Object.values(message))
          assert.ok(form.trim().length > 0, `${lang} ${key}: empty`);
      }
    });
  }

  it('translates: no German or Korean message is left in English', () => {
    for (const lang of ['de', 'ko'] as const) {
      const same = keys.filter((k) => {
        const m = CATALOGS[lang][k as keyof typeof en];
        return JSON.stringify(m) === JSON.stringify(en[k as keyof typeof en]);
      });
      // Units and numbers only ("{s} s", "{m} min {s} s") may be the same in German.
      assert.deepEqual(
        same.filter((k) => !k.startsWith('duration.')),
        [],
        `${lang}: untranslated ${same.join(', ')}`,
      );
    }
  });

  it('chooses plural forms with Intl.PluralRules and fills parameters', () => {
    try {
      setLanguage('en');
      assert.equal(t('upload.complete', { count: 1 }), 'Upload complete: 1 file.');
      assert.equal(t('upload.complete', { count: 3 }), 'Upload complete: 3 files.');
      assert.equal(t('files.downloadNamed', { name: 'a.txt' }), 'Download a.txt');
      setLanguage('de');
      assert.equal(t('upload.complete', { count: 1 }), 'Hochladen fertig: 1 Datei.');
      assert.equal(t('upload.complete', { count: 1200 }), 'Hochladen fertig: 1.200 Dateien.');
      setLanguage('ko');
      assert.equal(t('upload.complete', { count: 2 }), '업로드 완료: 파일 2개.');
      setLanguage('en');
      const parts = tParts('home.docs', { link: { a: 1 } });
      assert.deepEqual(parts, ['Programs and agents: see the ', { a: 1 }, '.']);
    } finally {
      setLanguage('en');
    }
  });

  it("picks the first of the browser's languages the site speaks", () => {
    assert.equal(pickLanguage(['fr-FR', 'de-AT', 'en']), 'de');
    assert.equal(pickLanguage(['ko-KR']), 'ko');
    assert.equal(pickLanguage(['EN-gb']), 'en');
    assert.equal(pickLanguage(['fr', 'ja']), 'en');
    assert.equal(pickLanguage([]), 'en');
    assert.deepEqual(Object.keys(LANGUAGES).sort(), Object.keys(CATALOGS).sort());
  });
});
