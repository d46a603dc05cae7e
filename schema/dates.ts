// Calendar days in the installation's time zone and the quick date ranges of the dashboard and
// statistics screens, shared by worker and web. A day is 'yyyy-MM-dd'.

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar day of instant `ms` in time zone `tz`, as 'yyyy-MM-dd'. Intl knows every IANA
 * zone and its DST rules. An unknown zone (a bad setting) counts in UTC rather than failing:
 * ingest must never lose events over it.
 */
export function dayInZone(ms: number, tz: string): string {
  let f = formatters.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone: tz,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', {
        timeZone: 'UTC',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    }
    formatters.set(tz, f);
  }
  const parts = f.formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Adds whole days to a 'yyyy-MM-dd' day (calendar arithmetic: no DST involved). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 'dd-MM-yyyy' (the statistics request's format) to 'yyyy-MM-dd', or null when not a real date. */
export function fromDmy(text: string): string | null {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const day = `${m[3]}-${m[2]}-${m[1]}`;
  return isDay(day) ? day : null;
}

export function toDmy(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}-${m}-${y}`;
}

/** Spec 3 §9: the statistics screen's date formats, dd-MM-yyyy first (the default). */
export const DATE_FORMATS = ['dd-MM-yyyy', 'yyyy/MM/dd', 'dd.MM.yyyy', 'shortDate'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** A 'yyyy-MM-dd' day written in `format`; shortDate is Angular's en-US short date, M/d/yy. */
export function formatDayAs(day: string, format: DateFormat): string {
  const [y, m, d] = day.split('-');
  switch (format) {
    case 'yyyy/MM/dd':
      return `${y}/${m}/${d}`;
    case 'dd.MM.yyyy':
      return `${d}.${m}.${y}`;
    case 'shortDate':
      return `${Number(m)}/${Number(d)}/${y.slice(2)}`;
    default:
      return toDmy(day);
  }
}

/** True for a real calendar day written 'yyyy-MM-dd'. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export const QUICK_RANGES = [
  'today',
  'yesterday',
  'past-7-days',
  'past-14-days',
  'past-30-days',
  'this-week',
  'this-month',
  'this-year',
] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export type DayRange = { start: string; end: string };

/**
 * The days a quick choice stands for, given today. 'this-week' does nothing (the spec):
 * it answers null and the caller keeps its dates. Past N days end today and include it.
 */
export function quickRange(choice: QuickRange, today: string): DayRange | null {
  switch (choice) {
    case 'today':
      return { start: today, end: today };
    case 'yesterday':
      return { start: addDays(today, -1), end: addDays(today, -1) };
    case 'past-7-days':
      return { start: addDays(today, -6), end: today };
    case 'past-14-days':
      return { start: addDays(today, -13), end: today };
    case 'past-30-days':
      return { start: addDays(today, -29), end: today };
    case 'this-week':
      return null;
    case 'this-month':
      return { start: `${today.slice(0, 8)}01`, end: today };
    case 'this-year':
      return { start: `${today.slice(0, 4)}-01-01`, end: today };
  }
}

/** "Last N days" ending today; -1 means all time (both dates blank). */
export function lastNDays(n: number, today: string): DayRange | { start: ''; end: '' } {
  if (n === -1) return { start: '', end: '' };
  return { start: addDays(today, -(Math.max(1, n) - 1)), end: today };
}

/** The spec's rule: an end before the start is set to the start. */
export function clampEnd(range: DayRange): DayRange {
  return range.end && range.start && range.end < range.start
    ? { start: range.start, end: range.start }
    : range;
}
