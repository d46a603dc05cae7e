import { dayInZone } from '../../../schema/dates';

// Days are the installation's time zone (ARCHITECTURE "Money and time"); timestamps are UTC.

// Ingest asks for the day of thousands of events of the same minute; every zone's offset is a
// whole number of minutes, so the day of a minute is the day of each of its instants.
let lastMinute = { zone: '', minute: Number.NaN, day: '' };

/** The day (YYYY-MM-DD) in `timeZone` of the UTC instant `ms` (schema/dates.ts), cached per minute. */
export function dayIn(ms: number, timeZone: string): string {
  const minute = Math.floor(ms / 60_000);
  if (lastMinute.minute === minute && lastMinute.zone === timeZone) return lastMinute.day;
  const day = dayInZone(ms, timeZone);
  lastMinute = { zone: timeZone, minute, day };
  return day;
}
