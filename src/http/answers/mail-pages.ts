import { createHash } from 'node:crypto';
import { escapeHtml } from '../../domain/html.js';
import { PAGE_STYLE } from './not-found-page.js';

/**
 * The pages of the mail consent links (src/http/routes/mail-consent.ts): plain HTML with one form,
 * no script, in the site's languages (English, German, Korean) by the browser's Accept-Language.
 * They are the server's own pages, not views of the site's script: a link from a mail must work in
 * any browser at once, and the button must be a plain form POST, so that a mail scanner that
 * fetches every link (GET) confirms or refuses nothing.
 */
const STYLE = `${PAGE_STYLE}
button{font:inherit;padding:.5rem 1rem;border-radius:.4rem;border:1px solid var(--accent);background:var(--accent);color:var(--card);cursor:pointer}
button:focus-visible{outline:3px solid #f0a500;outline-offset:2px}`;

export const CONSENT_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;

type Lang = 'en' | 'de' | 'ko';

const WORDS = {
  en: {
    confirmTitle: 'Confirm notifications',
    confirmText: 'Notifications about a shared folder on {site} are to be sent to {address}. Confirm to receive them.',
    confirmButton: 'Confirm',
    confirmedTitle: 'Confirmed',
    confirmedText: '{address} will receive the notifications it was signed up for. Every mail has a link to stop them.',
    refuseTitle: 'No more mail',
    refuseText: 'Stop all mail from {site} to {address}, for every folder, now and later?',
    refuseButton: 'Send me no more mail',
    refusedTitle: 'No more mail',
    refusedText: '{site} will send no more mail to {address}.',
    badTitle: 'This link does not work',
  },
  de: {
    confirmTitle: 'Benachrichtigungen bestätigen',
    confirmText:
      'Benachrichtigungen über einen geteilten Ordner auf {site} sollen an {address} gehen. Bestätigen Sie, um sie zu erhalten.',
    confirmButton: 'Bestätigen',
    confirmedTitle: 'Bestätigt',
    confirmedText:
      '{address} erhält die Benachrichtigungen, für die sie angemeldet wurde. Jede Mail enthält einen Link, um sie abzubestellen.',
    refuseTitle: 'Keine Mails mehr',
    refuseText: 'Alle Mails von {site} an {address} beenden, für jeden Ordner, jetzt und künftig?',
    refuseButton: 'Keine Mails mehr senden',
    refusedTitle: 'Keine Mails mehr',
    refusedText: '{site} sendet keine Mails mehr an {address}.',
    badTitle: 'Dieser Link funktioniert nicht',
  },
  ko: {
    confirmTitle: '알림 확인',
    confirmText: '{site}의 공유 폴더에 대한 알림을 {address}(으)로 보내려고 합니다. 받으려면 확인하세요.',
    confirmButton: '확인',
    confirmedTitle: '확인되었습니다',
    confirmedText: '{address}(으)로 신청된 알림이 전송됩니다. 모든 메일에 수신 거부 링크가 있습니다.',
    refuseTitle: '메일 수신 거부',
    refuseText: '{site}에서 {address}(으)로 보내는 모든 메일을 지금부터 모든 폴더에 대해 중단할까요?',
    refuseButton: '더 이상 메일 받지 않기',
    refusedTitle: '메일 수신 거부됨',
    refusedText: '{site}은(는) 더 이상 {address}(으)로 메일을 보내지 않습니다.',
    badTitle: '이 링크는 작동하지 않습니다',
  },
} as const satisfies Record<Lang, Record<string, string>>;

export type PageWord = keyof (typeof WORDS)['en'];

/** The first of en, de, ko in the Accept-Language header by its weights; English otherwise. */
export function pageLanguage(acceptLanguage: string | undefined): Lang {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { base: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { base } of tags) if (base === 'en' || base === 'de' || base === 'ko') return base;
  return 'en';
}

export interface ConsentPage {
  readonly lang: Lang;
  readonly site: string;
  readonly address: string;
  readonly title: PageWord;
  /** A word, or a message of the server's own (an invalid link's reason, in English). */
  readonly text: PageWord | { readonly raw: string };
  /** A button that POSTs to the page's own address. */
  readonly button?: PageWord;
}

export function consentPage(page: ConsentPage): string {
  const words = WORDS[page.lang];
  const fill = (s: string) =>
    escapeHtml(s)
      .replace('{site}', () => `<strong>${escapeHtml(page.site)}</strong>`)
      .replace('{address}', () => `<strong>${escapeHtml(page.address)}</strong>`);
  const text = typeof page.text === 'string' ? fill(words[page.text]) : escapeHtml(page.text.raw);
  const form = page.button
    ? `<form method="post"><button type="submit">${escapeHtml(words[page.button])}</button></form>`
    : '';
  return `<!doctype html>
<html lang="${page.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer"><title>${escapeHtml(words[page.title])} · ${escapeHtml(page.site)}</title><style>${STYLE}</style></head>
<body><header><a href="/">${escapeHtml(page.site)}</a></header>
<main><h1>${escapeHtml(words[page.title])}</h1><p>${text}</p>${form}</main></body>
</html>`;
}
