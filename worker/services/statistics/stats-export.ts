import { COST_SOURCE_LABELS } from '../../../schema/costs-api';
import { fromDmy } from '../../../schema/dates';
import {
  groupedTokens,
  STATS_MESSAGES,
  type StatisticsRequest,
  targetDefaultSort,
} from '../../../schema/stats-api';
import {
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_METRICS,
  BREAKDOWN_TITLES,
  type BreakdownDimension,
  CUSTOM_EVENT_PREFIX,
  DEFAULT_LANDING_COLUMNS,
  DIMENSION_TITLES,
  EXPORT_TABLES,
  type ExportTable,
  FILTERED_TITLES,
  STATS_COLUMN_TITLES,
} from '../../../schema/stats-reports-api';
import { breakdownNoValue, landingNoValue } from '../../../schema/undefined-ratios';
import type { Env } from '../../env';
import { R2CsvWriter } from '../../lib/csv';
import { fieldError } from '../../lib/errors';
import { signedDownloadPath } from '../../lib/r2';
import { R2XlsxWriter, XLSX_MAX_ROWS } from '../../lib/xlsx';
import { targetTokenAggregatesWithArchive } from '../archive/archived-rows';
import { getSettings } from '../settings/settings';
import { breakdown } from './breakdowns';
import { dayBounds } from './common';
import { listCosts } from './costs';
import { FILTERED_COLUMNS, filteredTraffic } from './filtered';
import { landingTable } from './landings';
import { offerTable, pathTable, placementAggregates } from './placements';
import { exportCell, exportFileName, exportRow } from './stats-export-format';
import {
  extraTokenSlots,
  keepRow,
  landingGrouping,
  type StatsCampaignRow,
  tokenSlotsFor,
  toStatsCampaign,
} from './stats-jobs';
import { targetAggregates, targetRow } from './targets';
import { compareBy } from './totals';

const DEFAULT_TARGET_COLUMNS = [
  'target',
  'visits',
  'conversions',
  'ad_spent',
  'revenue',
  'net',
  'roi',
  'cpa',
  'cr',
];

/** Column keys from the spec's targetData/landingData (keys, or objects with a key). */
export function columnKeys(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((x) => String(typeof x === 'object' && x ? ((x as { key?: string }).key ?? '') : x))
    .filter((k) => /^[\w.:-]{1,64}$/.test(k))
    .slice(0, 100);
}

/**
 * `tables` (a list or a comma list of EXPORT_TABLES keys; unknown ones are an error) and
 * `breakdownBy` of the export's body.
 */
export function exportChoice(
  body: Record<string, unknown>,
): Pick<ExportOptions, 'tables' | 'breakdownBy' | 'format'> {
  const raw = body.tables;
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' && raw ? raw.split(',') : []).map((t) =>
    String(t).trim(),
  );
  const unknown = list.find((t) => !(t in EXPORT_TABLES));
  if (unknown !== undefined) throw fieldError('tables', STATS_MESSAGES.exportTableUnknown);
  const by = String(body.breakdownBy ?? '');
  if (by && !(BREAKDOWN_DIMENSIONS as readonly string[]).includes(by))
    throw fieldError('breakdownBy', STATS_MESSAGES.exportBreakdownUnknown);
  const format = String(body.format ?? '') || 'csv';
  if (format !== 'csv' && format !== 'xlsx') throw fieldError('format', STATS_MESSAGES.exportFormatUnknown);
  return { tables: list as ExportTable[], breakdownBy: (by || 'country') as BreakdownDimension, format };
}

export type ExportOptions = {
  targetColumns: string[];
  landingColumns: string[];
  /** The tables to write (none: every table of the screen). */
  tables: ExportTable[];
  /** What the breakdown table groups by (the screen's default, country). */
  breakdownBy: BreakdownDimension;
  /** A CSV file (streamed to R2), or an Excel workbook with a sheet a table (docs/decisions/144). */
  format?: 'csv' | 'xlsx';
};

/** Landing money arrives written ('$1,234.56'); the export takes the numbers beside it. */
const landingValue = (r: Record<string, unknown>, key: string) =>
  key === 'net'
    ? Number(r.revenue_value) - Number(r.ad_spent_value)
    : key === 'cpa' || key === 'ad_spent' || key === 'revenue'
      ? r[`${key}_value`]
      : r[key];

/**
 * The export a marketer shares (issue 27): every table of the statistics screen, or the ones
 * chosen, each under its title, with the headers the screen shows, one number format per column
 * type and empty cells for ratios without a value; written to R2 in 5 MiB parts under a file name
 * that says the campaign, the range and the time zone.
 */
export async function exportStatistics(
  env: Env,
  row: StatsCampaignRow,
  req: StatisticsRequest,
  options: ExportOptions,
) {
  const campaign = toStatsCampaign(row);
  const want = (t: ExportTable) => options.tables.length === 0 || options.tables.includes(t);
  const targetColumns = options.targetColumns.length ? options.targetColumns : DEFAULT_TARGET_COLUMNS;
  const landingColumns = options.landingColumns.length ? options.landingColumns : DEFAULT_LANDING_COLUMNS;
  const start = fromDmy(req.startDate) ?? '';
  const end = fromDmy(req.endDate) ?? '';
  const bounds = dayBounds(start, end);
  const slots = await extraTokenSlots(env, row.id);
  const tokens = tokenSlotsFor(slots, groupedTokens(req, 'target'));
  const keep = keepRow(req, tokens);
  const targets = want('targets')
    ? (tokens.length
        ? (await targetTokenAggregatesWithArchive(env, campaign, bounds, tokens)).filter((a) =>
            keep(a.tokens),
          )
        : await targetAggregates(env, campaign, bounds)
      )
        .map((a) => targetRow(a, row.id, campaign.goal))
        .sort(compareBy(req.sortKey || targetDefaultSort(row.trafficSource).key, req.sortOrder))
    : [];
  const placements =
    want('landings') || want('offers') || want('paths')
      ? await placementAggregates(env, campaign, bounds)
      : [];
  const landings =
    row.campaignType === 'direct_link' || !want('landings')
      ? []
      : (
          await landingTable(
            env,
            campaign,
            placements,
            req.landingDeletedStatus,
            await landingGrouping(env, campaign, bounds, req),
          )
        ).rows;
  const offers = want('offers')
    ? (await offerTable(env, campaign, placements, req.offerDeletedStatus)).offerRecords
    : [];
  const paths =
    want('paths') && row.campaignType === 'multiple_path_type'
      ? (await pathTable(env, campaign, placements, req.pathDeletedStatus)).pathRecords
      : [];
  const broken = want('breakdown')
    ? await breakdown(env, campaign, bounds, options.breakdownBy, '', false)
    : null;
  const costs = want('costs') ? await listCosts(env, row.id, bounds.from, bounds.to) : [];
  const filtered = want('filtered') ? await filteredTraffic(env, row.id, bounds) : null;
  const hasData =
    targets.length > 0 ||
    landings.some((l) => l.visits > 0) ||
    offers.some((o) => o.visits > 0) ||
    paths.some((p) => p.visits > 0) ||
    (broken?.rows.length ?? 0) > 0 ||
    costs.length > 0 ||
    (filtered?.days.length ?? 0) > 0;
  if (!hasData) return { downloadLink: null, message: STATS_MESSAGES.noDataToExport };

  const { time_zone } = await getSettings(env);
  const xlsx = options.format === 'xlsx';
  const fileName = exportFileName(row.name, start, end, time_zone, xlsx ? 'xlsx' : 'csv');
  const key = `exports/${crypto.randomUUID()}/${fileName}`;
  const csv = xlsx ? null : new R2CsvWriter(env.BUCKET, key);
  const book = xlsx ? new R2XlsxWriter(env.BUCKET, key) : null;
  // Headers are the titles the screen shows (issue 17), not the keys.
  const titles = (cols: string[]) =>
    cols.map((col) =>
      col.startsWith(CUSTOM_EVENT_PREFIX)
        ? col.slice(CUSTOM_EVENT_PREFIX.length)
        : (STATS_COLUMN_TITLES[col] ?? (slots.find((t) => t.parameter === col)?.token_name || col)),
    );
  let sections = 0;
  const section = async (table: ExportTable, header: string[], rows: unknown[][]) => {
    if (rows.length === 0) return;
    if (book) return book.addSheet(EXPORT_TABLES[table], header, rows);
    if (!csv) return;
    if (sections++ > 0) await csv.write([]);
    await csv.write([EXPORT_TABLES[table]]);
    await csv.write(header);
    for (const r of rows) await csv.write(r);
  };
  await section(
    'targets',
    titles(targetColumns),
    targets.map((t) => exportRow(t, targetColumns, t.no_value)),
  );
  await section(
    'landings',
    titles(landingColumns),
    landings.map((l) => exportRow(l, landingColumns, landingNoValue(l), landingValue)),
  );
  const placementNone = (visits: number): Record<string, string> => (visits ? {} : { cr: 'no visits' });
  await section(
    'offers',
    ['Offer page', 'Visits', 'Purchase Event', 'CR', 'Revenue'],
    offers.map((o) =>
      exportRow(o, ['offer_name', 'visits', 'conversion', 'cr', 'revenue'], placementNone(o.visits)),
    ),
  );
  await section(
    'paths',
    ['Path', 'Visits', 'Purchase Event', 'CR'],
    paths.map((p) => exportRow(p, ['path_name', 'visits', 'conversion', 'cr'], placementNone(p.visits))),
  );
  if (broken) {
    const cols = ['value', ...BREAKDOWN_METRICS];
    const header = [DIMENSION_TITLES[broken.by], ...BREAKDOWN_METRICS.map((m) => BREAKDOWN_TITLES[m])];
    const rows = broken.rows.map((r) => exportRow(r, cols, breakdownNoValue(r)));
    if (rows.length)
      rows.push(exportRow({ ...broken.total, value: 'Total' }, cols, breakdownNoValue(broken.total)));
    await section('breakdown', header, rows);
  }
  await section(
    'costs',
    ['Date', 'Target', 'Source', 'Impressions', 'Clicks', 'Spend'],
    costs.map((c) =>
      exportRow({ ...c, source: COST_SOURCE_LABELS[c.source] ?? c.source }, [
        'date',
        'target',
        'source',
        'impressions',
        'ad_clicks',
        'spend',
      ]),
    ),
  );
  if (filtered?.days.length) {
    // Filtered traffic per day, apart from the tables (docs/decisions/111).
    const cols = ['day', ...FILTERED_COLUMNS] as const;
    const cell = (c: (typeof cols)[number], v: unknown) =>
      exportCell(c === 'day' ? 'text' : c === 'revenue' ? 'money' : 'int', v);
    await section(
      'filtered',
      cols.map((c) => FILTERED_TITLES[c]),
      [
        ...filtered.days.map((d) => cols.map((c) => cell(c, d[c]))),
        ['Total', ...FILTERED_COLUMNS.map((c) => cell(c, filtered.total[c]))],
      ],
    );
  }
  if (book && book.rows > XLSX_MAX_ROWS) throw fieldError('format', STATS_MESSAGES.exportTooLargeForXlsx);
  await (book ?? csv)?.close();
  return {
    downloadLink: await signedDownloadPath(env, key, fileName),
    fileName,
    targetRows: targets.length,
    landingRows: landings.length,
  };
}
