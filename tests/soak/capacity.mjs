#!/usr/bin/env node
// Capacity model for an agency beyond one D1 database (docs/operations.md, "Beyond one
// database"): how many days until one D1 database reaches its 10 GB, with and without the raw
// archive (decision 107), and how many databases each sharding plan needs. Bytes per row are
// measured on the statistics benchmark's database after migration 0017 (dbstat, docs/
// performance.md); change them with CAPACITY_* variables. Pure arithmetic: runs anywhere.
//   node tests/soak/capacity.mjs
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const LIMIT = env('CAPACITY_D1_BYTES', 10 * 1024 ** 3);
// Bytes per visit of raw storage with its share of LP clicks (30 %), conversions (2 %) and indexes.
const RAW_PER_VISIT = env('CAPACITY_RAW_PER_VISIT', 180);
// Bytes per rollup row (key + counters, WITHOUT ROWID): daily_stats 36, target_daily 39,
// token_daily 102 (its key holds the 20 token values) on the benchmark's database.
const ROLLUP_ROW = env('CAPACITY_ROLLUP_ROW', 38);
const TOKEN_ROW = env('CAPACITY_TOKEN_ROW', 102);
const ARCHIVE_DAYS = env('CAPACITY_ARCHIVE_DAYS', 90);
const CAMPAIGNS = env('CAPACITY_CAMPAIGNS', 200);
const TARGETS = env('CAPACITY_TARGETS', 500); // targets seen per campaign and day
const PLACEMENTS = env('CAPACITY_PLACEMENTS', 20); // path x landing x offer combinations per target
const TOKEN_KEYS = env('CAPACITY_TOKEN_KEYS', 1000); // token_daily limit per campaign-day

const fmt = (n, d = 0) => Number(n).toLocaleString('en-US', { maximumFractionDigits: d });
const gb = (b) => `${fmt(b / 1024 ** 3, 1)} GB`;

/** Rollup rows a campaign adds per day when it has `perCampaign` visits that day. */
function rollupRowsPerCampaignDay(perCampaign) {
  const daily = Math.min(perCampaign, TARGETS * PLACEMENTS); // daily_stats (finest grain)
  const target = Math.min(perCampaign, TARGETS) * (1 + 1 / 7); // target_daily + target_weekly
  const tokens = Math.min(perCampaign, TOKEN_KEYS) * (TOKEN_ROW / ROLLUP_ROW);
  const placement = Math.min(perCampaign, PLACEMENTS);
  return (daily + target + tokens + placement) * 1.1; // + the event tables, about 10 %
}

console.log(
  `One D1 database: ${gb(LIMIT)}. Raw ${RAW_PER_VISIT} B/visit, rollup ${ROLLUP_ROW} B/row, ${CAMPAIGNS} campaigns, ${TARGETS} targets x ${PLACEMENTS} placements, token keys ${TOKEN_KEYS}/campaign-day.`,
);
console.log('');
const AGES = [ARCHIVE_DAYS, 30, 7];
console.log(
  `| visits/day | raw/day | rollups/day | full in: all raw in D1 | ${AGES.map((a) => `raw archived after ${a} d`).join(' | ')} |`,
);
console.log(`|---|---|---|---|${AGES.map(() => '---').join('|')}|`);
const span = (d) => (d > 365 * 2 ? `${fmt(d / 365, 1)} years` : `${fmt(d)} days`);
for (const perDay of [100_000, 500_000, 1_000_000, 5_000_000, 20_000_000]) {
  const raw = perDay * RAW_PER_VISIT;
  const rollups = CAMPAIGNS * rollupRowsPerCampaignDay(perDay / CAMPAIGNS) * ROLLUP_ROW;
  const full = AGES.map((age) => {
    // Up to the archive age raw and rollups grow; after it the raw part stays, the rollups grow.
    const atAge = (raw + rollups) * age;
    return atAge >= LIMIT
      ? `${span(LIMIT / (raw + rollups))} (before the age)`
      : span(age + (LIMIT - atAge) / rollups);
  });
  console.log(
    `| ${fmt(perDay)} | ${gb(raw)} | ${fmt(rollups / 1024 ** 2)} MB | ${span(LIMIT / (raw + rollups))} | ${full.join(' | ')} |`,
  );
}
console.log('');
// Sharding plans for the largest case above: databases needed over three years.
const perDay = env('CAPACITY_SHARD_VISITS', 5_000_000);
const raw = perDay * RAW_PER_VISIT;
const rollups = CAMPAIGNS * rollupRowsPerCampaignDay(perDay / CAMPAIGNS) * ROLLUP_ROW;
const month = 30.4;
console.log(`Sharding at ${fmt(perDay)} visits/day over three years:`);
console.log(
  `- per-month raw shards (raw of one month in its own D1, rollups in the main one): ${fmt((raw * month) / 1024 ** 3, 1)} GB a month -> ${Math.ceil((raw * month) / LIMIT)} database(s) a month, ${36 * Math.ceil((raw * month) / LIMIT)} in three years; main D1 rollups ${gb(rollups * 365 * 3)} in three years`,
);
console.log(
  `- per-campaign shards (a campaign's raw and rollups in its own D1): the largest campaign (a tenth of the traffic) fills one in ${fmt(LIMIT / ((raw + rollups) / 10))} days without the archive, ${(raw / 10) * ARCHIVE_DAYS >= LIMIT ? 'and even with it' : 'never with the 90-day archive'}`,
);
console.log(
  `- raw events in R2 (archive after ${ARCHIVE_DAYS} days) or Analytics Engine, rollups in D1: D1 holds ${gb(Math.min(LIMIT, raw * ARCHIVE_DAYS))} raw + ${gb(rollups * 365 * 3)} rollups after three years; R2 grows by about ${gb((raw * 365) / 2.5)} a year (NDJSON without indexes)`,
);
