import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { escapeHtml } from '../core.js';

/**
 * Markdown for the viewer: rendered by `marked` (GitHub-flavoured), then sanitised by DOMPurify,
 * whatever raw HTML the file carries. Scripts, event handlers and `javascript:` links are removed by
 * DOMPurify; we also drop inline styles (the CSP refuses them anyway), and every element that would
 * load something (images, media, frames, forms); raw HTML in the file is shown as text: a preview fetches nothing the file names, and the
 * CSP would refuse other origins. Links open in a new tab without a referrer.
 */
const marked = new Marked({ gfm: true });
// Raw HTML in the Markdown is shown as text, never parsed: the file's markup does not even reach
// the sanitiser's parser (Chromium reports a CSP violation for every inline handler it parses).
marked.use({ renderer: { html: ({ text }) => escapeHtml(text) } });

export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text, { async: false });
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: [
      'style',
      'img',
      'picture',
      'source',
      'video',
      'audio',
      'track',
      'iframe',
      'object',
      'embed',
      'form',
      'input',
      'button',
      'link',
      'meta',
      'base',
    ],
    FORBID_ATTR: ['style', 'srcset', 'src', 'action', 'formaction', 'background', 'poster'],
  });
  for (const a of fragment.querySelectorAll('a')) {
    const href = a.getAttribute('href') ?? '';
    if (!/^(https?:|mailto:|#)/i.test(href)) a.removeAttribute('href');
    a.setAttribute('rel', 'noopener noreferrer');
    if (!href.startsWith('#')) a.setAttribute('target', '_blank');
  }
  return fragment;
}
