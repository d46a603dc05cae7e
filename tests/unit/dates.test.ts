import { describe, expect, it } from 'vitest';
import {
  addDays,
  clampEnd,
  DATE_FORMATS,
  dayInZone,
  formatDayAs,
  fromDmy,
  isDay,
  lastNDays,
  quickRange,
  toDmy,
} from '../../schema/dates';

describe('days in a time zone', () => {
  it('puts an instant on the right calendar day across zones and DST', () => {
    const instant = Date.UTC(2026, 2, 8, 4, 30); // 2026-03-08 04:30 UTC
    expect(dayInZone(instant, 'UTC')).toBe('2026-03-08');
    expect(dayInZone(instant, 'America/New_York')).toBe('2026-03-07'); // 23:30 EST
    expect(dayInZone(instant, 'Asia/Tokyo')).toBe('2026-03-08');
    // New York switches to EDT at 07:00 UTC on 2026-03-08: 03:59 UTC on the 9th is 23:59 EDT on the 8th.
    expect(dayInZone(Date.UTC(2026, 2, 9, 3, 59), 'America/New_York')).toBe('2026-03-08');
    expect(dayInZone(Date.UTC(2026, 2, 9, 4, 0), 'America/New_York')).toBe('2026-03-09');
    // A bad zone setting counts in UTC rather than failing.
    expect(dayInZone(instant, 'Not/A_Zone')).toBe('2026-03-08');
  });

  it('adds days over month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('parses dd-MM-yyyy strictly', () => {
    expect(fromDmy('05-11-2026')).toBe('2026-11-05');
    expect(fromDmy('31-02-2026')).toBeNull();
    expect(fromDmy('2026-11-05')).toBeNull();
    expect(toDmy('2026-11-05')).toBe('05-11-2026');
    expect(isDay('2026-13-01')).toBe(false);
  });
});

describe('quick ranges', () => {
  const today = '2026-11-22';
  it('answers the days of each choice, and nothing for this-week', () => {
    expect(quickRange('today', today)).toEqual({ start: today, end: today });
    expect(quickRange('yesterday', today)).toEqual({ start: '2026-11-21', end: '2026-11-21' });
    expect(quickRange('past-7-days', today)).toEqual({ start: '2026-11-16', end: today });
    expect(quickRange('past-14-days', today)).toEqual({ start: '2026-11-09', end: today });
    expect(quickRange('past-30-days', today)).toEqual({ start: '2026-10-24', end: today });
    expect(quickRange('this-week', today)).toBeNull();
    expect(quickRange('this-month', today)).toEqual({ start: '2026-11-01', end: today });
    expect(quickRange('this-year', today)).toEqual({ start: '2026-01-01', end: today });
  });

  it('treats -1 as all time and clamps an end before the start', () => {
    expect(lastNDays(-1, today)).toEqual({ start: '', end: '' });
    expect(lastNDays(3, today)).toEqual({ start: '2026-11-20', end: today });
    expect(clampEnd({ start: '2026-11-10', end: '2026-11-01' })).toEqual({
      start: '2026-11-10',
      end: '2026-11-10',
    });
  });
});

describe('whole weeks of a range', () => {
  it('finds the Mondays of the whole weeks inside a range', async () => {
    const { wholeWeeks } = await import('../../worker/services/statistics');
    expect(wholeWeeks({ from: '2026-11-10', to: '2026-11-11' })).toBeNull();
    expect(wholeWeeks({ from: '2026-11-09', to: '2026-11-15' })).toEqual({
      first: '2026-11-09',
      last: '2026-11-09',
    });
    expect(wholeWeeks({ from: '2026-11-08', to: '2026-11-23' })).toEqual({
      first: '2026-11-09',
      last: '2026-11-16',
    });
    expect(wholeWeeks({ from: '2026-10-24', to: '2026-11-22' })).toEqual({
      first: '2026-10-26',
      last: '2026-11-16',
    });
  });
});

describe('the statistics date formats of spec 3 §9', () => {
  it('lists dd-MM-yyyy first, then yyyy/MM/dd, dd.MM.yyyy and shortDate', () => {
    expect(DATE_FORMATS).toEqual(['dd-MM-yyyy', 'yyyy/MM/dd', 'dd.MM.yyyy', 'shortDate']);
  });

  it('writes a day in each of them', () => {
    expect(DATE_FORMATS.map((f) => formatDayAs('2027-03-05', f))).toEqual([
      '05-03-2027',
      '2027/03/05',
      '05.03.2027',
      '3/5/27',
    ]);
    expect(formatDayAs('2026-11-27', 'shortDate')).toBe('11/27/26');
    expect(formatDayAs('2026-11-27', 'dd-MM-yyyy')).toBe(toDmy('2026-11-27'));
  });
});
