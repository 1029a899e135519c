import { siteConfig } from '../config.js';
import { formatSize, readFailure, WebfolderError } from '../core.js';
import { hasMessage, isRightToLeft, language, type MessageKey, t } from '../i18n/index.js';
import { type TransferFailure, transferFailure } from '../workers/sw-protocol.js';

/** Tiny DOM helpers: no framework, no innerHTML with data (names are attacker-controlled). */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | number | ((e: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v as EventListener);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** The window's title: the page's own, then the instance's name (SITE_NAME). */
export function setTitle(title?: string): void {
  const name = siteConfig().siteName;
  document.title = title ? `${title} · ${name}` : name;
}

export function main(): HTMLElement {
  return document.getElementById('main')!;
}

export function announce(text: string): void {
  const live = document.getElementById('live');
  if (live) live.textContent = text;
}

export function notice(text: string, kind: 'info' | 'error' | 'ok' = 'info'): HTMLElement {
  return h(
    'div',
    { class: `notice ${kind === 'info' ? '' : kind}`, role: kind === 'error' ? 'alert' : 'status' },
    text,
  );
}

/**
 * A size written the person's way ("5,00 Mo" in French, "5.00 MB" in English): the one rule the CLI
 * shares (src/domain/sizes.ts), here in the page's language.
 */
export function formatBytes(n: number): string {
  const size = formatSize(n, language());
  // In a right-to-left page a size whose unit is in Latin letters ("1.57 kB" in Hebrew) would be
  // reordered by the words around it ("kB 1.57"): isolated, it keeps its own direction.
  return isRightToLeft(language()) ? `\u2068${size}\u2069` : size;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return t('duration.seconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('duration.minutes', { m, s: s % 60 });
  return t('duration.hours', { h: Math.floor(m / 60), m: m % 60 });
}

/** Replaces the page's main content. */
export function render(...children: (Node | string | null | false)[]): void {
  // A redraw (live update, upload finished) keeps the focus on the same control when it is drawn
  // again: replacing the page under it would drop a keyboard or screen-reader user on the body.
  const focused = document.activeElement?.id;
  const root = main();
  const within = focused ? root.contains(document.activeElement) : false;
  root.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== false));
  if (focused && within) document.getElementById(focused)?.focus({ preventScroll: true });
}

/**
 * A refused answer of a call the page makes itself (the admin console's), as the client library
 * reports one: `describeError` then tells it by its code, in the page's language.
 */
export async function refusalOf(res: Response, operation: string): Promise<WebfolderError> {
  const failure = await readFailure(res);
  return new WebfolderError(res.status, failure.message, operation, null, failure.code);
}

/** What to tell a person about a failure: the server's own words, or what went wrong locally. */
export function describeError(error: unknown): string {
  return describeFailure(transferFailure(error));
}

/**
 * A transfer's failure in the person's words, wherever it happened (this page or its service
 * worker): the one place where the client library's errors become the catalog's messages. The
 * technical detail ("GET chunk 10/29 of a.bin: network error: Failed to fetch") goes to the console.
 * A refusal is told by its stable code (src/contract/errors.ts; the catalog's `serverError.<code>`),
 * in the page's language; the server's own English sentence only for a code the page does not know.
 */
export function describeFailure(failure: TransferFailure): string {
  if (failure.code === 'network') {
    console.warn(failure.detail);
    return t('error.network');
  }
  const known = failure.serverCode === null ? null : serverErrorKey(failure.serverCode);
  if (known !== null) {
    console.warn(failure.detail);
    return t(known);
  }
  if (failure.serverMessage !== null) return failure.serverMessage;
  const local = Object.hasOwn(CLIENT_FAILURES, failure.code) ? CLIENT_FAILURES[failure.code] : undefined;
  if (local) {
    console.warn(failure.detail);
    return t(local);
  }
  return failure.detail;
}

/** The client library's failures the page tells in its own words (src/transfer/errors.ts; `integrity`: src/crypto). */
const CLIENT_FAILURES: Readonly<Record<string, MessageKey>> = {
  // A file downloaded while arriving whose upload was cancelled or whose folder was deleted.
  upload_ended: 'error.uploadEnded',
  // The server answered success with something unusable (not JSON, not the contract's shape, a redirect).
  protocol: 'error.protocol',
  // A chunk or a name did not authenticate: altered, or another key.
  integrity: 'error.integrity',
};

/** The catalog's key for a server's error code (`serverError.not_found`), or null for a code it lacks. */
function serverErrorKey(code: string): MessageKey | null {
  const key = `serverError.${code}`;
  return hasMessage(key) ? key : null;
}
