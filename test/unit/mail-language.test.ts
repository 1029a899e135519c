import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPluralElement, isSelectElement, type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser';
import { SITE_LANGUAGES } from '../../src/domain/site-languages.js';
import { composeConfirmation, composeDigest } from '../../src/notify/mail.js';
import { mailLanguage } from '../../src/notify/mail-language.js';
import { MAIL_MESSAGES } from '../../src/notify/mail-messages.js';
import { argumentsOf } from '../../web/src/i18n/catalog.js';
import { LANGUAGE_TABLE } from '../../web/src/i18n/languages.js';

/**
 * The mails' words (src/notify/mail-messages.ts) keep up with the page: every language the site
 * speaks has them, each with English's arguments and the plural forms its language needs, and a
 * confirmation mail is written in the language of the page that asked for it.
 */
const EN = MAIL_MESSAGES.en;

function pluralForms(elements: readonly MessageFormatElement[]): string[][] {
  const out: string[][] = [];
  for (const el of elements) {
    if (isPluralElement(el)) out.push(Object.keys(el.options).filter((f) => !f.startsWith('=')));
    if (isPluralElement(el) || isSelectElement(el))
      for (const o of Object.values(el.options)) out.push(...pluralForms(o.value));
  }
  return out;
}

test('every language of the site has the mails, with the arguments and plural forms it needs', () => {
  assert.deepEqual([...SITE_LANGUAGES].sort(), Object.keys(LANGUAGE_TABLE).sort(), "the server's list is the page's");
  assert.deepEqual(Object.keys(MAIL_MESSAGES).sort(), Object.keys(LANGUAGE_TABLE).sort());
  for (const [lang, messages] of Object.entries(MAIL_MESSAGES)) {
    assert.deepEqual(Object.keys(messages).sort(), Object.keys(EN).sort(), lang);
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
    for (const [key, message] of Object.entries(messages)) {
      const ast = parse(message, { requiresOtherClause: true });
      assert.deepEqual(argumentsOf(ast), argumentsOf(parse(EN[key as keyof typeof EN])), `${lang} ${key}: arguments`);
      for (const forms of pluralForms(ast))
        assert.deepEqual(forms.sort(), [...categories].sort(), `${lang} ${key}: plural forms`);
    }
  }
});

test('a confirmation mail is in the language of the page that asked, English when unknown', () => {
  const de = composeConfirmation('Acme Files', 'https://x/confirm', 'https://x/refuse', 24, 'de');
  assert.equal(de.subject, 'Acme Files: Benachrichtigungen an diese Adresse bestätigen');
  assert.match(de.text, /^Bestätigen: https:\/\/x\/confirm$/m);
  assert.match(de.text, /gültig für 24 Stunden/);
  assert.match(de.text, /https:\/\/x\/refuse/);
  const en = composeConfirmation('Acme Files', 'https://x/confirm', 'https://x/refuse', 24, null);
  assert.equal(en.subject, 'Acme Files: confirm notifications to this address');
  assert.match(en.text, /\(valid for 24 hours\)/);
  assert.equal(composeConfirmation('A', 'c', 'r', 1, 'xx-YY').subject, 'A: confirm notifications to this address');
  assert.match(composeConfirmation('A', 'c', 'r', 1, 'en').text, /\(valid for 1 hour\)/);
  assert.equal(mailLanguage('PT-br'), 'pt-BR');
  assert.equal(mailLanguage('ar-EG'), 'ar');
  assert.equal(mailLanguage(undefined), 'en');
});

test('an owner digest is in the language stored with the settings, English when unknown', () => {
  const downloaded = { type: 'file.downloaded' as const, timestamp: '2026-01-02T03:04:05.000Z', data: { size: 1536 } };
  const de = composeDigest(downloaded, { downloads: 2, uploads: 0 }, 0, 'https://x/f/a', 'Acme', 'https://x/r', 'de');
  assert.equal(de.subject, 'Acme: Dateien wurden aus Ihrem Ordner heruntergeladen');
  assert.match(de.text, /^Seit 1970-01-01T00:00:00.000Z: 2 Downloads und 0 Uploads abgeschlossen in Ihrem Ordner\.$/m);
  assert.match(de.text, /Eine Datei \(1,5 KiB\) wurde am 2026-01-02T03:04:05.000Z heruntergeladen/);
  assert.match(de.text, /^Ordner: https:\/\/x\/f\/a$/m);
  assert.match(de.text, /https:\/\/x\/r$/m);
  const en = composeDigest(downloaded, { downloads: 1, uploads: 1 }, 0, 'https://x/f/a', 'Acme', 'https://x/r', 'xx');
  assert.equal(en.subject, 'Acme: Activity in your folder');
  assert.match(en.text, /: 1 download and 1 upload completed in your folder\./);
  assert.match(en.text, /a file \(1.5 KiB\) was downloaded/);
  const ar = composeDigest(downloaded, { downloads: 2, uploads: 0 }, 0, 'l', 'Acme', 'r', 'ar');
  assert.match(ar.text, /تنزيلان/);
});
