import { siteConfig } from '../config.js';
import { NetworkError, WebfolderError } from '../core.js';
import { language, t } from '../i18n/index.js';

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
 * A size in decimal units (1 MB = 1,000,000 bytes) written the person's way by Intl: "5,25 Mo" in
 * French, "5.25 MB" in English; bytes spelled out ("999 octets", "3 bajty").
 */
export function formatBytes(n: number): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  const digits = i === 0 ? 0 : v < 10 ? 2 : 1;
  return new Intl.NumberFormat(language(), {
    style: 'unit',
    unit: units[i],
    unitDisplay: i === 0 ? 'long' : 'short',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(v);
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

/** What to tell a person about a failure: the server's own words, or what went wrong locally. */
export function describeError(error: unknown): string {
  if (error instanceof NetworkError) return t('error.network');
  if (error instanceof WebfolderError) return error.serverMessage;
  return error instanceof Error ? error.message : String(error);
}
