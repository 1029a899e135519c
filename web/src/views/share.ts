import { renderSVG } from 'uqr';
import { t } from '../i18n/index.js';
import type { FolderSession } from '../state/index.js';
import { announce, h } from './ui.js';

/** The share link (with its QR code) and, for the owner, the owner key. */
function copyButton(id: string, text: () => string, label: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary', id }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      announce(t('share.copied'));
      button.textContent = t('share.copiedButton');
    } catch {
      announce(t('share.copyFailed'));
      button.textContent = t('share.copyFailedButton');
    }
    setTimeout(() => (button.textContent = label), 2500);
  });
  return button;
}

/**
 * "Save your owner key": the owner link, a credential, in its own collapsed card under the share
 * link (its safekeeping is part of the moment after a drop), so that it is never what a person
 * copies by mistake: opening it takes a click, and its Copy button says "owner".
 */
export function ownerKeySection(session: FolderSession): HTMLElement | null {
  const link = session.ownerLink(location.href);
  if (!link) return null;
  // A text area, sized to its content: the whole link on screen, where a one-line field showed its start.
  const input = h('textarea', {
    id: 'owner-link',
    readonly: true,
    rows: 3,
    spellcheck: 'false',
    'aria-describedby': 'owner-help',
  });
  input.value = link;
  return h(
    'section',
    { class: 'card owner-key', 'aria-labelledby': 'owner-h', id: 'owner-key' },
    h(
      'details',
      {},
      h('summary', {}, h('h2', { id: 'owner-h' }, t('owner.heading'))),
      h('p', { class: 'notice warning', id: 'owner-help' }, t('owner.help')),
      h(
        'div',
        { class: 'row' },
        h('label', { for: 'owner-link', class: 'visually-hidden' }, t('owner.linkLabel')),
        input,
        copyButton('copy-owner-link', () => link, t('owner.copy')),
      ),
    ),
  );
}

/**
 * The link in a new message of the person's own mail app (a `mailto:` link): webfolder sends no
 * mail and never sees the link, so the key in its fragment goes only where a copied link would.
 */
function emailLink(link: string, title: string, request: boolean, password: boolean): HTMLAnchorElement {
  const subject = t(request ? 'share.emailSubjectRequest' : 'share.emailSubject', { title });
  // A password folder's mail says the password is needed too (and comes another way).
  const body = t(request ? 'share.emailBodyRequest' : password ? 'share.emailBodyPassword' : 'share.emailBody', {
    link,
  });
  const href = `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
  return h('a', { class: 'button secondary', id: 'email-link', href }, t('share.email'));
}

/**
 * The system's share sheet (Web Share API: phones, and desktops that have one), offered only where
 * the browser has it. The link goes to the app the person picks, as with copying it.
 */
function shareSheetButton(link: string, title: string): HTMLButtonElement | null {
  const data: ShareData = { title, url: link };
  if (typeof navigator.share !== 'function' || (navigator.canShare && !navigator.canShare(data))) return null;
  const button = h('button', { type: 'button', class: 'secondary', id: 'share-sheet' }, t('share.sheet'));
  button.addEventListener('click', async () => {
    try {
      await navigator.share(data);
    } catch (error) {
      // Closing the sheet is the person's choice, not a failure.
      if ((error as Error).name !== 'AbortError') announce(t('share.sheetFailed'));
    }
  });
  return button;
}

export function shareSection(session: FolderSession): HTMLElement {
  const link = session.shareLink(location.href);
  const title = session.info.title;
  const qr = h('div', { class: 'qr', role: 'img', 'aria-label': t('share.qrLabel') });
  // uqr's SVG has no script or style: only rects and paths.
  qr.innerHTML = renderSVG(link, { border: 2 });
  const mode = session.info.mode;
  // The link alone does not open a password folder: say that the password is needed too.
  const password = session.info.password !== null;
  const who =
    mode === 'request'
      ? 'share.anyoneRequest'
      : mode === 'share'
        ? password
          ? 'share.anyoneSharePassword'
          : 'share.anyoneShare'
        : password
          ? 'share.anyoneSendPassword'
          : 'share.anyoneSend';
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'share-h' },
    h('h2', { id: 'share-h' }, t('share.heading')),
    h('p', { id: 'share-who' }, t(who)),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'share-link', class: 'visually-hidden' }, t('share.linkLabel')),
      // Focused on the page of a folder just made: read out with what the link lets people do.
      h('input', { type: 'text', id: 'share-link', readonly: true, value: link, 'aria-describedby': 'share-who' }),
      copyButton('copy-link', () => link, t('share.copy')),
    ),
    h(
      'div',
      { class: 'row share-ways' },
      emailLink(link, title, mode === 'request', password),
      shareSheetButton(link, title),
    ),
    h('details', { class: 'qr-toggle' }, h('summary', {}, t('share.qr')), qr),
  );
}
