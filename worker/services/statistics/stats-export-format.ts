import { round } from '../../../schema/metrics';
import { CUSTOM_EVENT_PREFIX, type ExportKind, exportKind } from '../../../schema/stats-reports-api';
import { CsvNumber } from '../../lib/csv';

// The export's cells and its file name (issue 27, docs/decisions/132-the-shared-export.md): one
// number format per column type (money 12.50 without $ or thousands separators in every table,
// percent 17.65, counts 14), and an empty cell for a ratio without a value, never 0.

/** A cell of `kind`; `noValue` leaves it empty. */
export function exportCell(kind: ExportKind, value: unknown, noValue = false): unknown {
  if (noValue) return '';
  if (kind === 'text') return value ?? '';
  const n = typeof value === 'number' ? value : Number(value);
  if (value === '' || value === null || value === undefined || !Number.isFinite(n)) return '';
  if (kind === 'int') return Math.round(n);
  return new CsvNumber(round(n, 2).toFixed(2));
}

/** The cells of a row by column key, with the row's ratios without a value left empty. */
export function exportRow(
  row: Record<string, unknown>,
  columns: readonly string[],
  noValue: Record<string, string> = {},
  pick: (row: Record<string, unknown>, key: string) => unknown = (r, k) => r[k],
): unknown[] {
  return columns.map((key) => {
    const value = key.startsWith(CUSTOM_EVENT_PREFIX)
      ? ((row.custom_events as Record<string, number> | undefined)?.[key.slice(CUSTOM_EVENT_PREFIX.length)] ??
        0)
      : pick(row, key);
    return exportCell(exportKind(key), value, key in noValue);
  });
}

const part = (text: string) =>
  text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);

/**
 * The file a marketer shares: the spec's Campaign.csv name (spec 3 §7) followed by the campaign,
 * the range and the time zone the days are in: `Campaign_Probe-LP_2026-11-10_to_2026-11-11_America-New_York.csv`.
 */
export function exportFileName(
  name: string,
  start: string,
  end: string,
  timeZone: string,
  extension: 'csv' | 'xlsx' = 'csv',
): string {
  const range =
    start && end ? `${start}_to_${end}` : start ? `from_${start}` : end ? `until_${end}` : 'all_time';
  return `${['Campaign', part(name), range, part(timeZone)].filter(Boolean).join('_')}.${extension}`;
}
