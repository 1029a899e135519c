import { t } from '../i18n/index.js';

/** How long files stay available: the choices offered, up to the operator's maximum. */
export interface ExpiryChoice {
  readonly hours: number;
  readonly label: string;
}

const HOURS = [1, 24, 72, 168, 336, 720, 2160];

function label(hours: number): string {
  return hours % 24 === 0 ? t('expiry.days', { count: hours / 24 }) : t('expiry.hours', { count: hours });
}

/**
 * The choices up to `maxHours`, and the maximum itself when it is not one of them (an operator's
 * MAX_EXPIRES_HOURS of 48 offers 1 hour, 1 day and 2 days).
 */
export function expiryChoices(maxHours: number): ExpiryChoice[] {
  const fit = HOURS.filter((hours) => hours <= maxHours);
  if (!fit.includes(maxHours)) fit.push(maxHours);
  return fit.map((hours) => ({ hours, label: label(hours) }));
}

/**
 * Selects the choice nearest to what is left until `expiresAt` (24 hours when unknown), so that
 * "Set" alone changes little: the folder page's settings and My folders both preselect this way.
 */
export function selectNearest(select: HTMLSelectElement, expiresAt: number | null): void {
  const left = expiresAt !== null ? (expiresAt - Date.now()) / 3_600_000 : 24;
  let nearest = select.options[0];
  for (const o of select.options)
    if (Math.abs(Number(o.value) - left) < Math.abs(Number(nearest?.value) - left)) nearest = o;
  if (nearest) nearest.selected = true;
}
