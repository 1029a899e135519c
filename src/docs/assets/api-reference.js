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
