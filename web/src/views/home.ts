import { createFolder, type Mode } from '../../../src/transfer/v2.js';
import type { SiteConfig } from '../config.js';
import { t, tParts } from '../i18n/index.js';
import { describeError, h, notice, render } from '../ui.js';

/** The home page: create a folder (the v2 empty-folder flow), then go to it. */
export function homePage(config: SiteConfig): void {
  document.title = 'webfolder';
  const title = h('input', { type: 'text', id: 'new-title', maxlength: 200, autocomplete: 'off' });
  const mode = h(
    'select',
    { id: 'new-mode' },
    h('option', { value: 'send' }, t('home.modeSend')),
    h('option', { value: 'share' }, t('home.modeShare')),
  );
  // No "request" here: the first uploader becomes the owner, so a request folder made from this page
  // would belong to whoever uploads first (spec 4.1 rule 5). The API still creates them.
  const status = h('div', { role: 'status' });
  const button = h('button', { type: 'submit' }, t('home.create'));
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        button.disabled = true;
        status.replaceChildren(t('home.creating'));
        try {
          const created = await createFolder({
            server: config.baseUrl,
            mode: mode.value as Mode,
            ...(title.value.trim() ? { title: title.value.trim() } : {}),
            retry: { retries: 2 },
          });
          location.href = created.folderUrl;
        } catch (error) {
          status.replaceChildren(notice(t('home.createFailed', { reason: describeError(error) }), 'error'));
          button.disabled = false;
        }
      },
    },
    h('p', {}, h('label', { for: 'new-title' }, t('home.titleLabel')), title),
    h('p', {}, h('label', { for: 'new-mode' }, t('home.modeLabel')), mode),
    button,
    status,
  );
  render(
    h('h1', {}, t('home.heading')),
    h('p', {}, t('home.intro')),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'create-h' },
      h('h2', { id: 'create-h' }, t('home.newFolder')),
      form,
    ),
    h('p', { class: 'muted' }, ...tParts('home.docs', { link: h('a', { href: config.docsUrl }, t('home.docsLink')) })),
  );
}
