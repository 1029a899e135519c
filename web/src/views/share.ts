import { renderSVG } from 'uqr';
import type { FolderSession } from '../session.js';
import { announce, h } from '../ui.js';

/** The share link (with its QR code) and, for the owner, the owner link. */
function copyButton(id: string, text: () => string, label: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary', id }, label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      announce('Copied to the clipboard');
      button.textContent = 'Copied';
    } catch {
      announce('Copy failed: select the text and copy it');
      button.textContent = 'Select and copy the text';
    }
    setTimeout(() => (button.textContent = label), 2500);
  });
  return button;
}

export function ownerLinkSection(session: FolderSession): HTMLElement | null {
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
    { class: 'card', 'aria-labelledby': 'owner-h' },
    h('h2', { id: 'owner-h' }, 'Your owner link'),
    h(
      'p',
      { id: 'owner-help' },
      'This browser remembers that you own this folder. Save this link somewhere private: it restores ownership in another browser, or here if browser data is cleared. Do not share it.',
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'owner-link', class: 'visually-hidden' }, 'Owner link'),
      input,
      copyButton('copy-owner-link', () => link, 'Copy owner link'),
    ),
  );
}

export function shareSection(session: FolderSession): HTMLElement {
  const link = session.shareLink(location.href);
  const qr = h('div', { class: 'qr', role: 'img', 'aria-label': 'QR code of the share link' });
  // uqr's SVG has no script or style: only rects and paths.
  qr.innerHTML = renderSVG(link, { border: 2 });
  const mode = session.info.mode;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'share-h' },
    h('h2', { id: 'share-h' }, 'Share'),
    h(
      'p',
      {},
      'Anyone with this link can ',
      mode === 'request' ? 'upload to this folder.' : mode === 'share' ? 'upload and download.' : 'download the files.',
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'share-link', class: 'visually-hidden' }, 'Share link'),
      h('input', { type: 'text', id: 'share-link', readonly: true, value: link }),
      copyButton('copy-link', () => link, 'Copy link'),
    ),
    h('details', {}, h('summary', {}, 'QR code'), qr),
  );
}
