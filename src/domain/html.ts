/**
 * HTML escaping for every page the server writes (the docs site, the mail confirmation pages, the
 * not-found page, the site's shell) and for the raw HTML of a Markdown preview in the page: one
 * rule, so no page escapes less than another.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
