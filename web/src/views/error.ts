import type { SiteConfig } from '../config.js';
import { t } from '../i18n/index.js';
import { h, main, render, setTitle } from './ui.js';

/** A page that only explains what went wrong, with a way on. */
export function showError(config: SiteConfig, title: string, text: string): void {
  setTitle(title);
  render(
    h('h1', {}, title),
    h('div', { id: 'error', class: 'notice error', role: 'alert' }, text),
    h('p', {}, h('a', { href: config.base }, t('error.newFolder'))),
  );
  main().focus();
}
