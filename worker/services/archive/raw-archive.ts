import type { Env } from '../../env';
import { dayIn } from '../days';
import { getSettings } from '../settings';

// Raw events past a configurable age go to R2 and leave D1 (docs/decisions/107-raw-archive.md):
// one NDJSON object per campaign and day, every line one raw row with its table as `kind`. The
// rollups stay in D1 and keep carrying the reports; the drill-downs that need raw rows read D1
// and the archive together (./archived-rows.ts).

export const DEFAULT_ARCHIVE_AFTER_DAYS = 90;
/** Campaign-days moved per cron run, so a run stays within a Worker's time however far behind. */
export const DEFAULT_ARCHIVE_DAYS_PER_RUN = 20;
const PAGE = 5000;
const DAY_MS = 86_400_000;

export const RAW_TABLES = [
  { kind: 'visit', table: 'visits' },
  { kind: 'lp_click', table: 'lp_clicks' },
  { kind: 'conversion', table: 'conversions' },
] as const;
export type RawKind = (typeof RAW_TABLES)[number]['kind'];
export type ArchivedRow = Record<string, unknown> & { kind: RawKind; id: number };

export const archiveKey = (campaignId: number, day: string) => `archive/raw/${campaignId}/${day}.ndjson`;

/** The age in days from RAW_ARCHIVE_AFTER_DAYS; 0 turns archiving off. */
export function archiveAfterDays(env: Pick<Env, 'RAW_ARCHIVE_AFTER_DAYS'>): number {
  const value = Number(env.RAW_ARCHIVE_AFTER_DAYS ?? DEFAULT_ARCHIVE_AFTER_DAYS);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_ARCHIVE_AFTER_DAYS;
}

export type ArchiveRun = { days: { campaignId: number; day: string; rows: number }[]; cutoff: string | null };

/**
 * Moves the raw rows of days before the cutoff (today minus the age, in the installation's time
 * zone) to R2, oldest first, at most `maxDays` campaign-days.
 */
export async function archiveRawEvents(
  env: Pick<Env, 'DB' | 'BUCKET' | 'RAW_ARCHIVE_AFTER_DAYS'>,
  { now = Date.now(), maxDays = DEFAULT_ARCHIVE_DAYS_PER_RUN }: { now?: number; maxDays?: number } = {},
): Promise<ArchiveRun> {
  const age = archiveAfterDays(env);
  if (age === 0) return { days: [], cutoff: null };
  const { time_zone: timeZone } = await getSettings(env);
  const cutoff = dayIn(now - age * DAY_MS, timeZone);
  const run: ArchiveRun = { days: [], cutoff };
  const campaigns = await env.DB.prepare('SELECT id FROM campaigns ORDER BY id').all<{ id: number }>();
  for (const { id } of campaigns.results) {
    while (run.days.length < maxDays) {
      // The oldest day still in D1: three index lookups on (campaign_id, day), no scan.
      const oldest = await env.DB.prepare(
        `SELECT min(d) day FROM (SELECT min(day) d FROM visits WHERE campaign_id = ?1
          UNION ALL SELECT min(day) FROM lp_clicks WHERE campaign_id = ?1
          UNION ALL SELECT min(day) FROM conversions WHERE campaign_id = ?1)`,
      )
        .bind(id)
        .first<{ day: string | null }>();
      if (!oldest?.day || oldest.day >= cutoff) break;
      run.days.push({ campaignId: id, day: oldest.day, rows: await archiveDay(env, id, oldest.day) });
    }
  }
  return run;
}

/**
 * One campaign-day: its rows (up to the highest id read, so a row written meanwhile stays for
 * the next run) are added to the day's object, then recorded and deleted in one D1 transaction.
 * A run that fails after the object is written leaves D1 as it was; the next writes the same rows
 * again and the merge keeps each row once (by click id or dedupe key).
 */
export async function archiveDay(env: Pick<Env, 'DB' | 'BUCKET'>, campaignId: number, day: string) {
  const rows: ArchivedRow[] = [];
  const upTo: Record<string, number> = {};
  for (const { kind, table } of RAW_TABLES) {
    let after = 0;
    upTo[table] = 0;
    for (;;) {
      const page = await env.DB.prepare(
        `SELECT * FROM ${table} WHERE campaign_id = ?1 AND day = ?2 AND id > ?3 ORDER BY id LIMIT ${PAGE}`,
      )
        .bind(campaignId, day, after)
        .all<Record<string, unknown> & { id: number }>();
      for (const r of page.results) rows.push({ kind, ...r });
      if (page.results.length < PAGE) break;
      after = page.results[page.results.length - 1].id;
    }
    const last = rows.filter((r) => r.kind === kind).at(-1);
    upTo[table] = last ? last.id : 0;
  }
  const key = archiveKey(campaignId, day);
  const merged = mergeRows(await readArchive(env, key), rows);
  await env.BUCKET.put(key, merged.map((r) => JSON.stringify(r)).join('\n') + (merged.length ? '\n' : ''), {
    httpMetadata: { contentType: 'application/x-ndjson' },
  });
  const count = (kind: RawKind) => merged.filter((r) => r.kind === kind).length;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO raw_archives (campaign_id, day, object_key, visits, lp_clicks, conversions) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (campaign_id, day) DO UPDATE SET object_key = excluded.object_key, visits = excluded.visits,
         lp_clicks = excluded.lp_clicks, conversions = excluded.conversions, archived_at = unixepoch() * 1000`,
    ).bind(campaignId, day, key, count('visit'), count('lp_click'), count('conversion')),
    ...RAW_TABLES.map(({ table }) =>
      env.DB.prepare(`DELETE FROM ${table} WHERE campaign_id = ?1 AND day = ?2 AND id <= ?3`).bind(
        campaignId,
        day,
        upTo[table],
      ),
    ),
  ]);
  return rows.length;
}

/** The rows of one archived object (none when there is none). */
export async function readArchive(env: Pick<Env, 'BUCKET'>, key: string): Promise<ArchivedRow[]> {
  const object = await env.BUCKET.get(key);
  if (!object) return [];
  return (await object.text())
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as ArchivedRow);
}

/** A raw row's unique key (ids can be reused once the highest rows are deleted; these cannot). */
const uniqueKey = (r: ArchivedRow) => `${r.kind}:${r.kind === 'visit' ? r.click_id : r.dedupe_key}`;

function mergeRows(existing: ArchivedRow[], added: ArchivedRow[]): ArchivedRow[] {
  const seen = new Set(existing.map(uniqueKey));
  const out = [...existing];
  for (const r of added) {
    if (seen.has(uniqueKey(r))) continue;
    seen.add(uniqueKey(r));
    out.push(r);
  }
  return out;
}
