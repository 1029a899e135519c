/**
 * The audit log's rules as data: which actions are recorded, and the bounds every entry
 * is cut to before it is stored, so that no caller can make one entry (or the export) large.
 */
export const AUDIT_ACTIONS = [
  'folder.create',
  'folder.delete',
  'folder.settings',
  'file.delete',
  'folder.take-down',
  'account.sign-in',
  'account.sign-out',
  'api-key.create',
  'api-key.revoke',
  'quota.set',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A detail value: what an entry may carry beside who, what and which folder. */
export type AuditDetailValue = string | number | boolean | null;

/** Most detail properties kept per entry; the rest are dropped (the entry says so). */
export const AUDIT_MAX_DETAIL_KEYS = 16;
/** Most characters of a detail property's name. */
export const AUDIT_MAX_KEY_LENGTH = 64;
/** Most characters of any text kept in an entry (a detail value, an e-mail address, a name). */
export const AUDIT_MAX_TEXT_LENGTH = 256;
/** Most entries one page of the admin listing answers, and its default. */
export const AUDIT_PAGE_MAX = 500;
export const AUDIT_PAGE_DEFAULT = 100;

/** `text` cut to AUDIT_MAX_TEXT_LENGTH characters (by code point, so no half surrogate is kept). */
export function boundedText(text: string, max = AUDIT_MAX_TEXT_LENGTH): string {
  if (text.length <= max) return text;
  return `${Array.from(text)
    .slice(0, max - 1)
    .join('')
    .slice(0, max - 1)}…`;
}

/** The detail as stored: at most AUDIT_MAX_DETAIL_KEYS properties, every name and text bounded. */
export function boundedDetail(
  detail: Readonly<Record<string, AuditDetailValue>> | undefined,
): Record<string, AuditDetailValue> {
  const out: Record<string, AuditDetailValue> = {};
  if (!detail) return out;
  const entries = Object.entries(detail);
  for (const [key, value] of entries.slice(0, AUDIT_MAX_DETAIL_KEYS)) {
    const v =
      typeof value === 'string'
        ? boundedText(value)
        : typeof value === 'number' && !Number.isFinite(value)
          ? null
          : value;
    out[boundedText(key, AUDIT_MAX_KEY_LENGTH)] = v;
  }
  if (entries.length > AUDIT_MAX_DETAIL_KEYS) out.truncated = true;
  return out;
}
