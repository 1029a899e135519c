import { renderSVG } from 'uqr';
import { t } from '../i18n/index.js';
import type { FolderSession } from '../session.js';
import { announce, h } from '../ui.js';

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
 * "Save your owner key": the owner link, a credential, kept apart from the share link and
 * collapsed at the end of the page, so that it is never what a person copies by mistake or the
 * first thing on a phone screen.
 */
export function ownerKeySection(session: FolderSession): HTMLElement | null {
  const link = session.ownerLink(location.href);
  if (!link) return null;
  const input = h('input', {
    type: 'text',
    id: 'owner-link',
    readonly: true,
    value: link,
    'aria-describedby': 'owner-help',
  });
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

export function shareSection(session: FolderSession): HTMLElement {
  const link = session.shareLink(location.href);
  const qr = h('div', { class: 'qr', role: 'img', 'aria-label': t('share.qrLabel') });
  // uqr's SVG has no script or style: only rects and paths.
  qr.innerHTML = renderSVG(link, { border: 2 });
  const mode = session.info.mode;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'share-h' },
    h('h2', { id: 'share-h' }, t('share.heading')),
    h(
      'p',
      {},
      t(mode === 'request' ? 'share.anyoneRequest' : mode === 'share' ? 'share.anyoneShare' : 'share.anyoneSend'),
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'share-link', class: 'visually-hidden' }, t('share.linkLabel')),
      h('input', { type: 'text', id: 'share-link', readonly: true, value: link }),
      copyButton('copy-link', () => link, t('share.copy')),
    ),
    h('details', { class: 'qr-toggle' }, h('summary', {}, t('share.qr')), qr),
  );
}
