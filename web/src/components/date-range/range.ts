// The date-range state of the dashboard and statistics screens (spec 1 §4, spec 3 §2): quick
// choices, "last N days" (-1 = all time, both dates blank), a manual date clears the quick
// choice, and an end before the start is set to the start. Days are 'yyyy-MM-dd'; '' is open.
import {
  clampEnd,
  type DateFormat,
  formatDayAs,
  lastNDays,
  type QuickRange,
  quickRange,
} from '../../../../schema/dates';

export type RangeChoice = QuickRange | 'last-n';

export type DateRangeValue = {
  start: string;
  end: string;
  /** The quick choice that produced the dates; null once a date is changed by hand. */
  quick: RangeChoice | null;
  /** The N of "last N days"; -1 means all time. */
  lastN: number;
};

export const QUICK_LABELS: Record<RangeChoice, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  'past-7-days': 'Past 7 days',
  'past-14-days': 'Past 14 days',
  'past-30-days': 'Past 30 days',
  'this-week': 'This week',
  'this-month': 'This month',
  'this-year': 'This year',
  'last-n': 'Last N days',
};

const DEFAULT_LAST_N = 90;

/** A range set by a quick choice, as the screens start. */
export function initialRange(choice: QuickRange, today: string): DateRangeValue {
  const days = quickRange(choice, today) ?? { start: today, end: today };
  return { ...days, quick: choice, lastN: DEFAULT_LAST_N };
}

/** Picks a quick choice. 'this-week' does nothing to the dates (the spec). */
export function chooseQuick(value: DateRangeValue, choice: RangeChoice, today: string): DateRangeValue {
  if (choice === 'last-n') return { ...value, ...lastNDays(value.lastN, today), quick: 'last-n' };
  const days = quickRange(choice, today);
  return days ? { ...value, ...days, quick: choice } : { ...value, quick: choice };
}

/** "Last N days" with a new N; -1 is all time (blank dates). Other values below 1 count as 1. */
export function chooseLastN(value: DateRangeValue, n: number, today: string): DateRangeValue {
  const lastN = n === -1 ? -1 : Math.max(1, Math.floor(n) || 1);
  return { ...value, ...lastNDays(lastN, today), quick: 'last-n', lastN };
}

/** A start date typed or picked by hand: clears the quick choice; a later start pulls the end along. */
export function setStart(value: DateRangeValue, start: string): DateRangeValue {
  return { ...value, ...clampEnd({ start, end: value.end }), quick: null };
}

/** An end date by hand: clears the quick choice; an end before the start becomes the start. */
export function setEnd(value: DateRangeValue, end: string): DateRangeValue {
  return { ...value, ...clampEnd({ start: value.start, end }), quick: null };
}

/** 'Jan 5, 2027 – Jan 9, 2027' (or the days in `format`), 'All time', or one day. */
export function describeRange(value: Pick<DateRangeValue, 'start' | 'end'>, format?: DateFormat): string {
  const fmt = (day: string) =>
    format
      ? formatDayAs(day, format)
      : new Date(`${day}T00:00:00`).toLocaleDateString('en-US', {
          month: 'short',
          day: 'numeric',
          year: 'numeric',
        });
  if (!value.start && !value.end) return 'All time';
  if (!value.start) return `Until ${fmt(value.end)}`;
  if (!value.end) return `Since ${fmt(value.start)}`;
  return value.start === value.end ? fmt(value.start) : `${fmt(value.start)} – ${fmt(value.end)}`;
}
