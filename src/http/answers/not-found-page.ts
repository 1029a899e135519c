import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { escapeHtml } from '../../domain/html.js';

/**
 * The 404 of a person: someone who typed or pasted a wrong address into a browser gets a small page
 * in the site's look with a way home, not a JSON body. Programs keep `{error, code}`: the page is
 * only for a request whose Accept header prefers text/html to JSON (browsers send
 * `text/html,…,*\/*;q=0.8`; curl and fetch send `*\/*` or `application/json`), and never under the
 * API's own paths, where a 404 is part of the contract.
 */
export const PAGE_STYLE = `:root{color-scheme:light dark;--fg:#1a1a1a;--muted:#4a4a4a;--bg:#fafaf7;--card:#fff;--line:#c9c9c0;--accent:#0b5394}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e3;--muted:#b4b4ac;--bg:#16181b;--card:#202327;--line:#3d4147;--accent:#8cc4ff}}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:var(--fg);background:var(--bg)}
header{padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--card)}
header a{font-weight:700;font-size:1.2rem;color:var(--fg);text-decoration:none}
main{max-width:52rem;margin:0 auto;padding:1rem}h1{font-size:1.5rem}p{color:var(--muted)}
a{color:var(--accent)}a:focus-visible{outline:3px solid #f0a500;outline-offset:2px}`;

/** The page's only allowance: its own inline style, by hash (no script, no other source). */
export const NOT_FOUND_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

export function notFoundPage(home: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Page not found · webfolder</title><style>${PAGE_STYLE}</style></head>
<body><header><a href="${escapeHtml(home)}">webfolder</a></header>
<main><h1>Page not found</h1><p>There is nothing at this address. Check the link you were given: a folder’s link looks like <code>…/f/&lt;id&gt;#&lt;key&gt;</code>.</p>
<p><a href="${escapeHtml(home)}">Go to the home page</a></p></main></body>
</html>
`;
}

/** The q-value the Accept header gives a media type (its exact type, then `type/*`, then `*\/*` when `wildcard`). */
function quality(accept: string, type: string, wildcard: boolean): number {
  const [major] = type.split('/');
  let best = -1;
  let rank = -1;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const r = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' && wildcard ? 1 : 0;
    if (r === 0 || r < rank) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    rank = r;
    best = Number.isFinite(value) ? value : 0;
  }
  return Math.max(0, best);
}

/** Whether the caller asked for a page: text/html named and preferred to JSON (to which `*\/*` counts). */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const html = quality(accept, 'text/html', false);
  return html > 0 && html >= quality(accept, 'application/json', true);
}
