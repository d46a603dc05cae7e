import { fromDmy } from '../../schema/dates';
import { groupedTokens, STATS_MESSAGES, type StatisticsRequest } from '../../schema/stats-api';
import { CUSTOM_EVENT_PREFIX, FILTERED_TITLES, STATS_COLUMN_TITLES } from '../../schema/stats-reports-api';
import type { Env } from '../env';
import { R2CsvWriter } from '../lib/csv';
import { signedDownloadPath } from '../lib/r2';
import { targetTokenAggregatesWithArchive } from './archive/archived-rows';
import {
  compareBy,
  dayBounds,
  landingTable,
  placementAggregates,
  targetAggregates,
  targetRow,
} from './statistics';
import { FILTERED_COLUMNS, filteredTraffic } from './statistics/filtered';
import {
  extraTokenSlots,
  keepRow,
  landingGrouping,
  type StatsCampaignRow,
  tokenSlotsFor,
  toStatsCampaign,
} from './stats-jobs';

export const DEFAULT_TARGET_COLUMNS = [
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
export const DEFAULT_LANDING_COLUMNS = [
  'landing_page',
  'visits',
  'lpclicks',
  'lpctr',
  'conversions',
  'cr',
  'cpa',
  'ad_spent',
  'revenue',
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
 * The CSV export: the target rows (all of them, sorted as on screen) and the landing rows, with
 * the chosen columns and the very numbers the screen shows, written to R2 in 5 MiB parts.
 */
export async function exportStatistics(
  env: Env,
  row: StatsCampaignRow,
  req: StatisticsRequest,
  columns: { targetColumns: string[]; landingColumns: string[] },
) {
  const campaign = toStatsCampaign(row);
  const targetColumns = columns.targetColumns.length ? columns.targetColumns : DEFAULT_TARGET_COLUMNS;
  const landingColumns = columns.landingColumns.length ? columns.landingColumns : DEFAULT_LANDING_COLUMNS;
  const bounds = dayBounds(fromDmy(req.startDate) ?? '', fromDmy(req.endDate) ?? '');
  const tokens = tokenSlotsFor(await extraTokenSlots(env, row.id), groupedTokens(req, 'target'));
  const keep = keepRow(req, tokens);
  const aggs = tokens.length
    ? (await targetTokenAggregatesWithArchive(env, campaign, bounds, tokens)).filter((a) => keep(a.tokens))
    : await targetAggregates(env, campaign, bounds);
  const targets = aggs.map((a) => targetRow(a, row.id)).sort(compareBy(req.sortKey || 'ctr', req.sortOrder));
  const landings =
    row.campaignType === 'direct_link'
      ? []
      : (
          await landingTable(
            env,
            campaign,
            await placementAggregates(env, campaign, bounds),
            req.landingDeletedStatus,
            await landingGrouping(env, campaign, bounds, req),
          )
        ).rows;
  const filtered = await filteredTraffic(env, row.id, bounds);
  if (targets.length === 0 && landings.every((l) => l.visits === 0) && filtered.days.length === 0) {
    return { downloadLink: null, message: STATS_MESSAGES.noDataToExport };
  }
  const key = `exports/${crypto.randomUUID()}/Campaign.csv`;
  const csv = new R2CsvWriter(env.BUCKET, key);
  const pick = (r: Record<string, unknown>, cols: string[]) =>
    cols.map((col) =>
      col.startsWith(CUSTOM_EVENT_PREFIX)
        ? ((r.custom_events as Record<string, number> | undefined)?.[col.slice(CUSTOM_EVENT_PREFIX.length)] ??
          0)
        : (r[col] ?? ''),
    );
  // Headers are the titles the screen shows (issue 17), not the keys.
  const slots = await extraTokenSlots(env, row.id);
  const titles = (cols: string[]) =>
    cols.map((col) =>
      col.startsWith(CUSTOM_EVENT_PREFIX)
        ? col.slice(CUSTOM_EVENT_PREFIX.length)
        : (STATS_COLUMN_TITLES[col] ?? (slots.find((t) => t.parameter === col)?.token_name || col)),
    );
  if (targets.length) {
    await csv.write(titles(targetColumns));
    for (const t of targets) await csv.write(pick(t, targetColumns));
  }
  if (landings.length) {
    if (targets.length) await csv.write([]);
    await csv.write(titles(landingColumns));
    for (const l of landings) await csv.write(pick(l, landingColumns));
  }
  if (filtered.days.length) {
    // Filtered traffic per day, apart from the tables (docs/decisions/111).
    if (targets.length || landings.length) await csv.write([]);
    const cols = ['day', ...FILTERED_COLUMNS] as const;
    await csv.write(cols.map((c) => FILTERED_TITLES[c]));
    for (const d of filtered.days) await csv.write(cols.map((c) => d[c]));
    await csv.write(['Total', ...FILTERED_COLUMNS.map((c) => filtered.total[c])]);
  }
  await csv.close();
  return {
    downloadLink: await signedDownloadPath(env, key, 'Campaign.csv'),
    fileName: 'Campaign.csv',
    targetRows: targets.length,
    landingRows: landings.length,
  };
}
