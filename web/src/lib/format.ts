// Formatting of money, numbers, percent and dates: the one module every screen uses.
const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A dollar amount as the answers carry it (a number of dollars) written $1,234.50. Money is
 * held in integer micro-units on the server; the answers convert it to dollars, this writes them.
 */
export function formatDollars(value: number | null | undefined): string {
  return money.format(Number.isFinite(value) ? (value as number) : 0);
}

export function formatInteger(value: number | null | undefined): string {
  return integer.format(Number.isFinite(value) ? (value as number) : 0);
}

/** 12.3% with `digits` decimals (landing-page CTR uses 1, ad CTR 2). */
export function formatPercent(value: number | null | undefined, digits = 2): string {
  const v = Number.isFinite(value) ? (value as number) : 0;
  return `${v.toFixed(digits)}%`;
}

/** A file's size: 512 B, 12.3 KB, 4.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A calendar day 'yyyy-MM-dd' (or a month 'yyyy-MM') written en-US, read in UTC so the
 * browser's zone never shifts it to the day before.
 */
export function formatCalendarDay(day: string, options: Intl.DateTimeFormatOptions): string {
  const [y, m, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });
}

function toDate(value: number | string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Jan 5, 2027 */
export function formatDate(value: number | string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Jan 5, 2027, 14:03 */
export function formatDateTime(value: number | string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** YYYY-MM-DD in local time, the date format of the API's form fields. */
export function isoDay(value: Date): string {
  const y = value.getFullYear();
  const m = String(value.getMonth() + 1).padStart(2, '0');
  const d = String(value.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** Two initials for an avatar. */
export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s._@-]+/)
    .filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[1][0] : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}
