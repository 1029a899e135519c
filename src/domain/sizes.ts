/**
 * A size in decimal units (1 MB = 1,000,000 bytes) written by Intl in `locale`: "5.00 MB" in
 * English, "5,00 Mo" in French; bytes spelled out ("999 bytes", "3 bajty"). The one convention of
 * the site and the CLI (docs/decisions.md: "Sizes in decimal units"), so one file has one size
 * everywhere: two digits below 10, one from 10 on.
 */
export function formatBytes(n: number, locale?: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  const digits = i === 0 ? 0 : v < 10 ? 2 : 1;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: units[i],
    unitDisplay: i === 0 ? 'long' : 'short',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(v);
}
