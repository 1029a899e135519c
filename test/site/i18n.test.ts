import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isPluralElement, isSelectElement, type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser';
import IntlMessageFormat from 'intl-messageformat';
import { ERROR_CODE_NAMES } from '../../src/contract/errors.js';
import { argumentsOf, EN } from '../../web/src/i18n/catalog.js';
import {
  LANGUAGES,
  type Language,
  loadCatalog,
  type MessageKey,
  pickLanguage,
  setLanguage,
  t,
  tParts,
} from '../../web/src/i18n/index.js';
import { LANGUAGE_TABLE } from '../../web/src/i18n/languages.js';
import { describeFailure, formatBytes } from '../../web/src/views/ui.js';

/**
 * The site's message catalogs (web/src/i18n/messages/<locale>.json, ICU MessageFormat): complete,
 * consistent with en.json, valid ICU with the plural forms each language needs, and what t() makes
 * of them.
 */
const DIR = new URL('../../web/src/i18n/messages/', import.meta.url);
const keys = Object.keys(EN).sort() as MessageKey[];
const languages = Object.keys(LANGUAGES) as Language[];

/** Words a language really writes as English does (loanwords, units); everything else must be translated. */
const SAME_AS_ENGLISH: Partial<Record<Language, readonly MessageKey[]>> = {
  tr: ['admin.stat.disk'],
  id: ['home.defaultTitle'],
  de: ['admin.sort.downloads', 'admin.col.downloads'],
  fr: ['home.docsLink', 'notify.heading', 'audit.action', 'accounts.quota', 'admin.col.actions'],
  it: [
    'site.privacy',
    'password.label',
    'accounts.account',
    'accounts.quota',
    'takeDown.reason.malware',
    'account.menu',
  ],
  nl: [
    'site.privacy',
    'notify.eventsDownload',
    'notify.eventsUpload',
    'files.downloads',
    'accounts.account',
    'takeDown.reason.malware',
    'admin.sort.downloads',
    'admin.col.downloads',
    'account.menu',
  ],
  'pt-BR': ['notify.eventsDownload', 'takeDown.reason.malware', 'admin.sort.downloads', 'admin.col.downloads'],
  'pt-PT': ['accounts.quota'],
  da: [
    'upload.heading',
    'files.downloadNamed',
    'files.download',
    'viewer.download',
    'viewer.downloadSized',
    'files.downloads',
  ],
};

/** Every plural element of a message, at any depth. */
function plurals(elements: readonly MessageFormatElement[]): Array<{ name: string; forms: string[] }> {
  const out: Array<{ name: string; forms: string[] }> = [];
  for (const el of elements) {
    if (isPluralElement(el)) out.push({ name: el.value, forms: Object.keys(el.options) });
    if (isPluralElement(el) || isSelectElement(el))
      for (const option of Object.values(el.options)) out.push(...plurals(option.value));
  }
  return out;
}

/** Sample values for a message's arguments: numbers for plural ones, words for the rest. */
function samples(args: string[], count: number): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const a of args) {
    const [name, kind] = a.split(':') as [string, string | undefined];
    values[name] = kind === 'plural' || kind === 'number' ? count : `<${name}>`;
  }
  return values;
}

describe('site message catalogs (ICU MessageFormat)', () => {
  it('there is one catalog file per language the switch lists, and no other', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
    assert.deepEqual(files, [...languages].sort());
  });

  for (const lang of languages) {
    it(`${lang}: every message of en, the same arguments, valid ICU, the plural forms ${lang} needs`, async () => {
      const raw = JSON.parse(readFileSync(new URL(`${lang}.json`, DIR), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(Object.keys(raw).sort(), keys, `${lang}: exactly the keys of en.json`);
      const catalog = await loadCatalog(lang);
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
      for (const key of keys) {
        const message = catalog[key];
        assert.equal(typeof message, 'string', `${lang} ${key}: a string`);
        assert.ok(message.trim().length > 0, `${lang} ${key}: empty`);
        let ast: MessageFormatElement[];
        try {
          ast = parse(message, { requiresOtherClause: true });
        } catch (error) {
          assert.fail(`${lang} ${key}: not ICU MessageFormat: ${(error as Error).message}`);
        }
        const args = argumentsOf(ast);
        assert.deepEqual(args, argumentsOf(parse(EN[key])), `${lang} ${key}: arguments`);
        // A counted argument is counted everywhere in the message: inside its forms it is `#`
        // (formatted as a number in the language), never `{count}` (printed raw).
        for (const a of args.filter((x) => x.endsWith(':plural')))
          assert.ok(!args.includes(a.split(':')[0]!), `${lang} ${key}: {${a.split(':')[0]}} inside a plural; use #`);
        for (const p of plurals(ast)) {
          const named = p.forms.filter((f) => !f.startsWith('='));
          assert.deepEqual([...named].sort(), [...categories].sort(), `${lang} ${key}: plural forms of {${p.name}}`);
        }
        // And it formats, in its own locale, for every plural category's typical numbers.
        for (const n of [0, 1, 2, 3, 5, 22, 1.5, 1_000_000]) {
          const text = new IntlMessageFormat(message, lang).format(samples(args, n));
          assert.equal(typeof text, 'string', `${lang} ${key}`);
          assert.doesNotMatch(String(text), /\{|\}/, `${lang} ${key}: braces left in "${text}"`);
        }
      }
    });
  }

  it('translates: no message is left in English but the units and the listed loanwords', async () => {
    for (const lang of languages.filter((l) => l !== 'en')) {
      const catalog = await loadCatalog(lang);
      const same = keys.filter((k) => catalog[k] === EN[k] && !k.startsWith('duration.'));
      assert.deepEqual(same, [...(SAME_AS_ENGLISH[lang] ?? [])].sort(), `${lang}: the same as English`);
    }
  });

  it('chooses plural forms by the language, numbers in its own way, and fills parameters', async () => {
    try {
      await setLanguage('en');
      assert.equal(t('upload.complete', { count: 1 }), 'Upload complete: 1 file.');
      assert.equal(t('upload.complete', { count: 3 }), 'Upload complete: 3 files.');
      assert.equal(t('upload.complete', { count: 1200 }), 'Upload complete: 1,200 files.');
      assert.equal(t('files.downloadNamed', { name: 'a.txt' }), 'Download a.txt');
      assert.equal(t('viewer.position', { index: 1, count: 1200 }), '1 of 1,200');
      await setLanguage('de');
      assert.equal(t('upload.complete', { count: 1 }), 'Hochladen fertig: 1 Datei.');
      assert.equal(t('upload.complete', { count: 1200 }), 'Hochladen fertig: 1.200 Dateien.');
      await setLanguage('ko');
      assert.equal(t('upload.complete', { count: 2 }), '업로드 완료: 파일 2개.');
      await setLanguage('pl');
      assert.equal(t('files.count', { count: 1 }), '1 plik');
      assert.equal(t('files.count', { count: 3 }), '3 pliki');
      assert.equal(t('files.count', { count: 5 }), '5 plików');
      assert.equal(t('files.count', { count: 22 }), '22 pliki');
      assert.equal(t('files.count', { count: 1.5 }), '1,5 pliku');
      await setLanguage('fr');
      assert.equal(t('files.count', { count: 0 }), '0 fichier');
      assert.equal(t('files.count', { count: 2 }), '2 fichiers');
      assert.equal(t('files.count', { count: 1_000_000 }), `${(1_000_000).toLocaleString('fr')} de fichiers`);
      assert.match(formatBytes(5_250_000), /^5,25\s?Mo$/);
      assert.match(formatBytes(999), /^999\s?octets$/);
      await setLanguage('ja');
      assert.equal(t('files.count', { count: 3 }), '3 件のファイル');
      await setLanguage('pl');
      assert.equal(formatBytes(3), '3 bajty');
      await setLanguage('en');
      const parts = tParts('home.docs', { link: { a: 1 } });
      assert.deepEqual(parts, ['Programs and agents: see the ', { a: 1 }, '.']);
    } finally {
      await setLanguage('en');
    }
  });

  it("picks the first of the browser's languages the site speaks", () => {
    assert.equal(pickLanguage(['sv-SE', 'de-AT', 'en']), 'sv');
    assert.equal(pickLanguage(['kl-GL', 'de-AT', 'en']), 'de');
    assert.equal(pickLanguage(['ko-KR']), 'ko');
    assert.equal(pickLanguage(['EN-gb']), 'en');
    assert.equal(pickLanguage(['fr-CA']), 'fr');
    assert.equal(pickLanguage(['pt-PT']), 'pt-PT');
    assert.equal(pickLanguage(['pt-AO']), 'pt-PT', 'Portuguese outside Brazil follows European Portuguese');
    assert.equal(pickLanguage(['pt-MZ']), 'pt-PT');
    assert.equal(pickLanguage(['pt-BR']), 'pt-BR');
    assert.equal(pickLanguage(['zh-CN']), 'zh-Hans');
    assert.equal(pickLanguage(['zh-Hans-SG']), 'zh-Hans');
    assert.equal(pickLanguage(['zh-TW', 'ja']), 'zh-Hant');
    assert.equal(pickLanguage(['zh-Hant-HK']), 'zh-Hant');
    assert.equal(pickLanguage(['zh-HK']), 'zh-Hant');
    assert.equal(pickLanguage(['sv', 'fi']), 'sv');
    assert.equal(pickLanguage(['no-NO']), 'nb');
    assert.equal(pickLanguage(['kl', 'fo']), 'en');
    assert.equal(pickLanguage([]), 'en');
    assert.equal(pickLanguage(['ar-EG']), 'ar');
    assert.equal(pickLanguage(['iw-IL']), 'he', 'the old tag for Hebrew');
    assert.equal(pickLanguage(['in']), 'id', 'the old tag for Indonesian');
    assert.equal(pickLanguage(['fa-AF']), 'fa');
    assert.equal(pickLanguage(['uk-UA', 'ru']), 'uk');
  });

  it('falls back within a language and its script, never across scripts', () => {
    // A site without European Portuguese or Traditional Chinese (the fallbacks a language gets when its variant is absent).
    const without = languages.filter((l) => l !== 'pt-PT' && l !== 'zh-Hant');
    assert.equal(pickLanguage(['pt-PT', 'en'], without), 'pt-BR');
    assert.equal(pickLanguage(['pt-AO'], without), 'pt-BR');
    assert.equal(pickLanguage(['zh-TW', 'ja'], without), 'ja', 'Traditional Chinese is not offered Simplified');
    assert.equal(pickLanguage(['zh-HK'], without), 'en');
    assert.equal(pickLanguage(['zh-TW', 'zh-CN'], without), 'zh-Hans', 'unless the person reads it too');
    assert.equal(pickLanguage(['zh-MO'], ['en', 'zh-Hant', 'zh-Hans']), 'zh-Hant');
    assert.equal(pickLanguage(['pt'], ['en', 'pt-PT', 'pt-BR']), 'pt-BR', 'Portuguese alone is Brazil’s');
  });

  it("tells every error code of the server's catalogue in every language, the server's words only for an unknown code", async () => {
    const serverKeys = keys.filter((k) => k.startsWith('serverError.'));
    assert.deepEqual(
      serverKeys,
      ERROR_CODE_NAMES.map((code) => `serverError.${code}`).sort(),
      'one serverError.<code> message per code of src/contract/errors.ts, and no other',
    );
    const refusal = (serverCode: string | null) => ({
      code: 'server_refused',
      serverMessage: 'the English sentence of the server',
      serverCode,
      detail: 'GET /x: server answered 4xx',
    });
    const warn = console.warn;
    console.warn = () => {};
    try {
      for (const lang of languages) {
        await setLanguage(lang);
        const catalog = await loadCatalog(lang);
        for (const code of ERROR_CODE_NAMES)
          assert.equal(describeFailure(refusal(code)), catalog[`serverError.${code}`], `${lang} ${code}`);
        assert.equal(describeFailure(refusal('a_code_from_a_newer_server')), 'the English sentence of the server');
        // And the client library's own failures the page can meet.
        for (const [code, key] of [
          ['protocol', 'error.protocol'],
          ['integrity', 'error.integrity'],
          ['upload_ended', 'error.uploadEnded'],
          ['network', 'error.network'],
        ] as const)
          assert.equal(
            describeFailure({ code, serverMessage: null, serverCode: null, detail: 'English detail' }),
            catalog[key],
            `${lang} ${code}`,
          );
        assert.equal(describeFailure(refusal(null)), 'the English sentence of the server');
      }
    } finally {
      console.warn = warn;
      await setLanguage('en');
    }
  });

  it('docs/translations.md lists every language with its direction and whether a reader has reviewed it', () => {
    const doc = readFileSync(new URL('../../docs/translations.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([^`]+)` \| ([^|]+) \| (ltr|rtl) \| (yes|no) \|$/gm)].map((m) => [
      m[1],
      m[2]!.trim(),
      m[3],
      m[4],
    ]);
    const table = Object.entries(LANGUAGE_TABLE).map(([tag, entry]) => [
      tag,
      entry.name,
      'rtl' in entry ? 'rtl' : 'ltr',
      entry.reviewed ? 'yes' : 'no',
    ]);
    assert.deepEqual(rows, table);
  });
});
