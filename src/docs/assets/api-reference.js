/* Starts Redoc on the element that names the OpenAPI document; loaded after the Redoc bundle. */
(() => {
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
          // Beside the docs sidebar the content column is narrower than the window: the code panel
          // moves below the text earlier than Redoc's defaults (which measure the window).
          breakpoints: { small: '50rem', medium: '90rem', large: '120rem' },
          colors: { primary: { main: '#0b57b7' } },
          typography: {
            fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
            headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif' },
            code: { fontFamily: 'ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace' },
          },
        },
      },
      el,
    );
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
