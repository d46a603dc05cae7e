import type { Env } from '../../env';
import { dayIn } from '../ingest/days';
import { getSettings } from '../settings/settings';

// Raw events past a configurable age go to R2 and leave D1 (docs/decisions/107-raw-archive.md):
// one NDJSON object per campaign and day, every line one raw row with its table as `kind`. The
// rollups stay in D1 and keep carrying the reports; the drill-downs that need raw rows read D1
// and the archive together (./archived-rows.ts).

const DEFAULT_ARCHIVE_AFTER_DAYS = 90;
/** Campaign-days moved per cron run, so a run stays within a Worker's time however far behind. */
const DEFAULT_ARCHIVE_DAYS_PER_RUN = 20;
const PAGE = 5000;
const DAY_MS = 86_400_000;

const RAW_TABLES = [
  { kind: 'visit', table: 'visits' },
  { kind: 'lp_click', table: 'lp_clicks' },
  { kind: 'conversion', table: 'conversions' },
] as const;
type RawKind = (typeof RAW_TABLES)[number]['kind'];
export type ArchivedRow = Record<string, unknown> & { kind: RawKind; id: number };

export const archiveKey = (campaignId: number, day: string) => `archive/raw/${campaignId}/${day}.ndjson`;

/** The age in days from RAW_ARCHIVE_AFTER_DAYS; 0 turns archiving off. */
function archiveAfterDays(env: Pick<Env, 'RAW_ARCHIVE_AFTER_DAYS'>): number {
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
  {
    now = Date.now(),
    maxDays = DEFAULT_ARCHIVE_DAYS_PER_RUN,
    partBytes = PART_BYTES,
  }: { now?: number; maxDays?: number; partBytes?: number } = {},
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
      // A conversion whose outbound postback is still pending stays in D1: the sweep re-sends it
      // from the conversion row. The campaign waits for a later run; the others go on.
      const pending = await env.DB.prepare(
        `SELECT 1 FROM postback_log p JOIN conversions c ON c.id = p.conversion_id
          WHERE p.campaign_id = ?1 AND p.status = 'pending' AND c.day = ?2 LIMIT 1`,
      )
        .bind(id, oldest.day)
        .first();
      if (pending) break;
      run.days.push({
        campaignId: id,
        day: oldest.day,
        rows: await archiveDay(env, id, oldest.day, partBytes),
      });
    }
  }
  return run;
}

/**
 * NDJSON is uploaded in parts of exactly this size (the last one shorter): R2 refuses to complete
 * a multipart upload whose parts before the last differ in size, and a big day never sits in
 * memory whole. (The soak's million-click day failed here when parts were "at least" 8 MiB.)
 */
const PART_BYTES = 8 * 1024 * 1024;
const DELETE_CHUNK = 20_000;

/** Cuts a stream of lines into equal parts of `size` bytes and uploads each as it fills. */
export class EqualParts {
  private readonly encoder = new TextEncoder();
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  readonly parts: R2UploadedPart[] = [];
  constructor(
    private readonly upload: R2MultipartUpload,
    private readonly size: number,
  ) {}

  async add(line: string) {
    const bytes = this.encoder.encode(line);
    this.chunks.push(bytes);
    this.bytes += bytes.length;
    while (this.bytes >= this.size) await this.send(this.size);
  }

  /** The rest as the last part; an empty object still gets its one (empty) part. */
  async finish() {
    if (this.bytes > 0 || this.parts.length === 0) await this.send(this.bytes);
    return this.parts;
  }

  private async send(size: number) {
    const all = new Uint8Array(this.bytes);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, all.slice(0, size)));
    const rest = all.subarray(size);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.bytes = rest.length;
  }
}

/**
 * One campaign-day: its rows (up to the highest id read, so a row written meanwhile stays for
 * the next run) are streamed into the day's object page by page (an R2 multipart upload, after
 * what the object already held), then recorded, then deleted from D1 in chunks. A run that stops
 * before the record leaves D1 as it was; the next writes the same rows again and the merge keeps
 * each row once (by click id or dedupe key).
 */
async function archiveDay(
  env: Pick<Env, 'DB' | 'BUCKET'>,
  campaignId: number,
  day: string,
  partBytes = PART_BYTES,
) {
  const key = archiveKey(campaignId, day);
  const existing = await readArchive(env, key);
  const seen = new Set(existing.map(uniqueKey));
  const counts: Record<RawKind, number> = { visit: 0, lp_click: 0, conversion: 0 };
  for (const r of existing) counts[r.kind]++;
  const upload = await env.BUCKET.createMultipartUpload(key, {
    httpMetadata: { contentType: 'application/x-ndjson' },
  });
  const parts = new EqualParts(upload, partBytes);
  const add = (r: ArchivedRow) => parts.add(`${JSON.stringify(r)}\n`);
  let added = 0;
  const upTo: Record<string, number> = {};
  try {
    for (const r of existing) await add(r);
    for (const { kind, table } of RAW_TABLES) {
      let after = 0;
      for (;;) {
        const page = await env.DB.prepare(
          `SELECT * FROM ${table} WHERE campaign_id = ?1 AND day = ?2 AND id > ?3 ORDER BY id LIMIT ${PAGE}`,
        )
          .bind(campaignId, day, after)
          .all<Record<string, unknown> & { id: number }>();
        for (const raw of page.results) {
          const r = compact({ kind, ...raw });
          after = r.id;
          // Rows read from D1 are unique among themselves: only an older object can repeat one.
          if (existing.length > 0) {
            if (seen.has(uniqueKey(r))) continue;
            seen.add(uniqueKey(r));
          }
          counts[kind]++;
          added++;
          await add(r);
        }
        if (page.results.length < PAGE) break;
      }
      upTo[table] = after;
    }
    await upload.complete(await parts.finish());
  } catch (err) {
    await upload.abort();
    throw err;
  }
  await env.DB.prepare(
    `INSERT INTO raw_archives (campaign_id, day, object_key, visits, lp_clicks, conversions) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (campaign_id, day) DO UPDATE SET object_key = excluded.object_key, visits = excluded.visits,
       lp_clicks = excluded.lp_clicks, conversions = excluded.conversions, archived_at = unixepoch() * 1000`,
  )
    .bind(campaignId, day, key, counts.visit, counts.lp_click, counts.conversion)
    .run();
  // In chunks: one statement deleting a million rows would hold D1 for too long.
  for (const { table } of RAW_TABLES) {
    for (;;) {
      const { meta } = await env.DB.prepare(
        `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE campaign_id = ?1 AND day = ?2 AND id <= ?3 LIMIT ${DELETE_CHUNK})`,
      )
        .bind(campaignId, day, upTo[table])
        .run();
      if ((meta.changes ?? 0) < DELETE_CHUNK) break;
    }
  }
  return added;
}

/** Null columns are left out of a line (most of the 20 token slots are empty). */
function compact(r: ArchivedRow): ArchivedRow {
  for (const k of Object.keys(r)) if (r[k] === null) delete r[k];
  return r;
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
