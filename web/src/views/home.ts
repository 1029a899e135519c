import { createFolder, type Mode } from '../../../src/transfer/v2.js';
import type { SiteConfig } from '../config.js';
import { describeError, h, notice, render } from '../ui.js';

/** The home page: create a folder (the v2 empty-folder flow), then go to it. */
export function homePage(config: SiteConfig): void {
  document.title = 'webfolder';
  const title = h('input', { type: 'text', id: 'new-title', maxlength: 200, autocomplete: 'off' });
  const mode = h(
    'select',
    { id: 'new-mode' },
    h('option', { value: 'send' }, 'Send — I upload, others download'),
    h('option', { value: 'share' }, 'Share — everyone uploads and downloads'),
  );
  // No "request" here: the first uploader becomes the owner, so a request folder made from this page
  // would belong to whoever uploads first (spec 4.1 rule 5). The API still creates them.
  const status = h('div', { role: 'status' });
  const button = h('button', { type: 'submit' }, 'Create a folder');
  const form = h(
    'form',
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        button.disabled = true;
        status.replaceChildren('Creating…');
        try {
          const created = await createFolder({
            server: config.baseUrl,
            mode: mode.value as Mode,
            ...(title.value.trim() ? { title: title.value.trim() } : {}),
            retry: { retries: 2 },
          });
          location.href = created.folderUrl;
        } catch (error) {
          status.replaceChildren(notice(`Could not create the folder: ${describeError(error)}`, 'error'));
          button.disabled = false;
        }
      },
    },
    h('p', {}, h('label', { for: 'new-title' }, 'Title (optional)'), title),
    h('p', {}, h('label', { for: 'new-mode' }, 'Who can do what'), mode),
    button,
    status,
  );
  render(
    h('h1', {}, 'Send files, end-to-end encrypted'),
    h(
      'p',
      {},
      'Files are encrypted in your browser before they leave it. The key is the part of the link after #: the server never sees it.',
    ),
    h('section', { class: 'card', 'aria-labelledby': 'create-h' }, h('h2', { id: 'create-h' }, 'New folder'), form),
    h('p', { class: 'muted' }, 'Programs and agents: see the ', h('a', { href: config.docsUrl }, 'documentation'), '.'),
  );
}
