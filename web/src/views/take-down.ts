import type { SiteConfig } from '../config.js';
import type { TakeDownInfo } from '../core.js';
import { type MessageKey, t } from '../i18n/index.js';
import { formatDate } from './dates.js';
import { h, main, render, setTitle } from './ui.js';

/** Each take-down reason's words (src/domain/take-down.ts), in the visitor's language. */
export const TAKE_DOWN_REASON_KEYS: Record<TakeDownInfo['reason'], MessageKey> = {
  illegal: 'takeDown.reason.illegal',
  copyright: 'takeDown.reason.copyright',
  abuse: 'takeDown.reason.abuse',
  malware: 'takeDown.reason.malware',
  terms: 'takeDown.reason.terms',
  other: 'takeDown.reason.other',
};

/**
 * What a visitor of a taken-down folder sees: that the operator took it down, why (in their
 * language), the operator's note as written, and when. No file, no title: nothing of it is served.
 */
export function showTakenDown(config: SiteConfig, notice: TakeDownInfo): void {
  setTitle(t('takeDown.title'));
  render(
    h('h1', {}, t('takeDown.title')),
    h(
      'div',
      { id: 'take-down', class: 'notice error', role: 'alert' },
      h('p', {}, t('takeDown.text')),
      h(
        'dl',
        { class: 'take-down-facts' },
        h('dt', {}, t('takeDown.reasonLabel')),
        h('dd', { id: 'take-down-reason' }, t(TAKE_DOWN_REASON_KEYS[notice.reason])),
        notice.note ? h('dt', {}, t('takeDown.noteLabel')) : null,
        notice.note ? h('dd', { id: 'take-down-note', dir: 'auto' }, notice.note) : null,
        h('dt', {}, t('takeDown.when')),
        h('dd', {}, formatDate(notice.at)),
      ),
    ),
    h('p', {}, h('a', { href: config.base }, t('error.newFolder'))),
  );
  main().focus();
}
