import { shownName } from '../core.js';
import { t } from '../i18n/index.js';
import type { FolderSession } from '../state/index.js';
import { formatDate } from './dates.js';
import { formatBytes, h } from './ui.js';

/**
 * Request mode, visitor: a receipt of what this browser sent (the folder's files are listed to
 * its owner only). Kept in this browser's storage, so it is shown again after a reload.
 */
export function receiptSection(session: FolderSession): HTMLElement | null {
  if (session.info.mode !== 'request' || session.info.isOwner) return null;
  const sent = session.uploads.receipts();
  if (sent.length === 0) return null;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'receipt-h' },
    h('h2', { id: 'receipt-h' }, t('receipt.heading')),
    h('p', { class: 'muted' }, t('receipt.help')),
    h(
      'ul',
      { class: 'files', id: 'receipt' },
      ...sent.map((r) =>
        h(
          'li',
          { 'data-file-id': r.fileId },
          h('bdi', { class: 'name' }, shownName(r.name)),
          h('span', { class: 'muted' }, formatBytes(r.size)),
          h('span', { class: 'muted' }, formatDate(r.at)),
        ),
      ),
    ),
  );
}
