/**
 * The docs site's own stylesheet and the API reference's init script, served as files by the
 * process (never inline, so the pages need no 'unsafe-inline' for either).
 */
export const DOCS_CSS = `:root {
  --fg: #1b1f24;
  --muted: #4b5563;
  --bg: #ffffff;
  --panel: #f6f7f9;
  --border: #d8dde3;
  --link: #0b57b7;
  --accent: #0b57b7;
  --code-bg: #f1f3f5;
  --focus: #c2410c;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6e8eb;
    --muted: #a9b1bb;
    --bg: #111418;
    --panel: #181c21;
    --border: #2c333b;
    --link: #7cb7ff;
    --accent: #7cb7ff;
    --code-bg: #1d232a;
    --focus: #fdba74;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif;
  font-size: 1.0625rem;
  line-height: 1.65;
  color: var(--fg);
  background: var(--bg);
}
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0.5rem; background: var(--bg); padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 0.5rem; }
header.top {
  display: flex; align-items: center; gap: 1rem; flex-wrap: wrap;
  padding: 0.6rem 1.25rem; border-bottom: 1px solid var(--border); background: var(--panel);
}
.brand { font-weight: 700; font-size: 1.15rem; color: var(--fg); text-decoration: none; }
.brand span { font-weight: 400; color: var(--muted); }
.top-link { margin-left: auto; font-size: 0.95rem; }
.layout { display: grid; grid-template-columns: 17rem minmax(0, 1fr); max-width: 84rem; margin: 0 auto; }
.sidebar { border-right: 1px solid var(--border); padding: 1.25rem 1rem 2rem; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar .pages > li > a { display: block; padding: 0.3rem 0.6rem; border-radius: 6px; color: var(--fg); text-decoration: none; }
.sidebar .pages > li > a:hover { background: var(--code-bg); }
.sidebar .pages > li.current > a { background: var(--code-bg); font-weight: 600; box-shadow: inset 3px 0 0 var(--accent); }
.sidebar .toc { margin: 0.2rem 0 0.5rem 0.9rem; border-left: 1px solid var(--border); font-size: 0.9rem; }
.sidebar .toc a { display: block; padding: 0.15rem 0.6rem; color: var(--muted); text-decoration: none; }
.sidebar .toc a:hover { color: var(--link); text-decoration: underline; }
main { padding: 1.5rem 2rem 3rem; min-width: 0; }
main:focus { outline: none; }
article { max-width: 48rem; }
h1, h2, h3, h4 { line-height: 1.25; margin: 2rem 0 0.75rem; scroll-margin-top: 1rem; }
h1 { font-size: 2rem; margin-top: 0.5rem; }
h2 { font-size: 1.5rem; padding-bottom: 0.3rem; border-bottom: 1px solid var(--border); }
h3 { font-size: 1.2rem; }
.anchor { margin-left: 0.4rem; color: var(--muted); text-decoration: none; opacity: 0; font-weight: 400; }
h2:hover .anchor, h3:hover .anchor, h4:hover .anchor, .anchor:focus { opacity: 1; }
p, ul, ol, pre, blockquote, .table-wrap { margin: 0 0 1rem; }
li + li { margin-top: 0.25rem; }
code, pre { font-family: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
:not(pre) > code { background: var(--code-bg); padding: 0.1em 0.35em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: var(--code-bg); border: 1px solid var(--border); border-radius: 6px; padding: 0.85rem 1rem; overflow-x: auto; line-height: 1.5; }
pre:focus { outline: 3px solid var(--focus); }
blockquote { margin-left: 0; padding: 0.25rem 1rem; border-left: 4px solid var(--border); color: var(--muted); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.95rem; min-width: 50%; }
th, td { border: 1px solid var(--border); padding: 0.4rem 0.65rem; text-align: left; vertical-align: top; }
th { background: var(--panel); }
img { max-width: 100%; height: auto; }
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }
.repo-link { font-style: italic; }
.pager { display: flex; justify-content: space-between; gap: 1rem; max-width: 48rem; margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--border); }
.pager a { text-decoration: none; }
.pager span { display: block; font-size: 0.85rem; color: var(--muted); }
.pager .next { text-align: right; margin-left: auto; }
/* API reference page: Redoc draws below a slim header and a one-line page list. */
.api-page main { padding: 0; }
.api-nav { border-bottom: 1px solid var(--border); padding: 0.4rem 1.25rem; font-size: 0.9rem; }
.api-nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.api-nav li + li { margin-top: 0; }
.api-source { margin: 0; padding: 0.5rem 1.25rem; font-size: 0.9rem; color: var(--muted); overflow-wrap: anywhere; }
.api-page #redoc { background: #ffffff; color: #1b1f24; }
@media (max-width: 50rem) {
  .layout { display: block; }
  .sidebar { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--border); padding: 0.6rem 1rem; }
  .sidebar .pages { display: flex; flex-wrap: wrap; gap: 0.25rem; }
  .sidebar .pages > li { margin: 0; }
  .sidebar .pages > li > a { padding: 0.2rem 0.55rem; border: 1px solid var(--border); font-size: 0.9rem; }
  .sidebar .pages > li.current > a { box-shadow: none; }
  .sidebar .toc { display: none; }
  main { padding: 1rem 1rem 2rem; }
  h1 { font-size: 1.6rem; }
  h2 { font-size: 1.3rem; }
}
@media print {
  .sidebar, header.top, .pager, .skip { display: none; }
  .layout { display: block; }
}
`;

/** Starts Redoc on the element that names the OpenAPI document; loaded after the Redoc bundle. */
export const API_INIT_JS = `(function () {
  'use strict';
  function start() {
    var el = document.getElementById('redoc');
    if (!el || !window.Redoc) return;
    window.Redoc.init(
      el.getAttribute('data-spec-url'),
      {
        nativeScrollbars: true,
        expandResponses: '200',
        jsonSampleExpandLevel: 4,
        pathInMiddlePanel: true,
        theme: {
          colors: { primary: { main: '#0b57b7' } },
          typography: {
            fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
            headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif' },
            code: { fontFamily: 'ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace' }
          }
        }
      },
      el
    );
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;

/** The site's icon: a folder. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#0b57b7" d="M3 7a2 2 0 0 1 2-2h7l3 3h12a2 2 0 0 1 2 2v15a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/><rect x="12" y="14" width="8" height="7" rx="1" fill="#fff"/><path d="M13.5 14v-2a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="#fff" stroke-width="1.6"/></svg>
`;
