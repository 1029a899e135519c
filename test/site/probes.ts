/**
 * Checks run inside the page, shared by the Chromium (Playwright), Firefox (puppeteer) and WebKit
 * (WebDriver) suites. Each is a JavaScript expression's source rather than a function, so that every
 * driver runs the same text unchanged (a function passed to a driver is serialized, and the test
 * runner's transpiler may wrap it in helpers the page does not have).
 */

/**
 * The texts of the options of the `<select>` at `selector` that do not fit inside it (German and
 * Korean mode names are longest, and a phone's select is narrow): each text is measured in the
 * select's font against its inner width, less 24 px for the arrow. `asWidth`: measure as if the page
 * were that wide (the select is fluid), for a browser whose window cannot be made that narrow
 * (WebKit's MiniBrowser). An expression whose value is the array of cut texts; a WebDriver script
 * needs `return ` before it.
 */
export function optionsCutOff(selector: string, asWidth: number | null = null): string {
  return `(() => {
    const s = document.querySelector(${JSON.stringify(selector)});
    const style = getComputedStyle(s);
    const extra = ${asWidth === null ? '0' : `Math.max(0, document.documentElement.clientWidth - ${asWidth})`};
    const room = s.clientWidth - extra - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    const probe = document.createElement('span');
    probe.style.font = style.font;
    probe.style.whiteSpace = 'nowrap';
    probe.style.position = 'absolute';
    document.body.append(probe);
    const over = [...s.options]
      .map((o) => {
        probe.textContent = o.text;
        return probe.getBoundingClientRect().width > room ? o.text : null;
      })
      .filter(Boolean);
    probe.remove();
    return over;
  })()`;
}
