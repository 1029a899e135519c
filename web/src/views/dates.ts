/** A date and time as the person reads them (their browser's language and time zone). */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
