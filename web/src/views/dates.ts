import { language } from '../i18n/index.js';

/** A date and time in the page's language, in the browser's time zone. */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
}
