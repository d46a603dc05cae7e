import { sql } from 'drizzle-orm';
import { settings } from '../../../schema/auth';
import type { Env } from '../../env';
import { getDb } from '../../lib/db';
import { type Background, readHandle, SwrCache, type SwrSource } from '../hot-path/swr-cache';

/** Installation settings with their defaults. Tracking routes are path segments. */
export const DEFAULT_SETTINGS = {
  setup_done: '0',
  base_url: '',
  email: '',
  time_zone: 'UTC',
  title: 'Edge Tracker',
  favicon: '',
  logo: '',
  license_key: '',
  license_email: '',
  route_main: 'go',
  route_click: 'click',
  route_image: 'pixel.gif',
  route_iframe: 'iframe',
  route_script: 'script.js',
  route_postback: 'postback',
  custom_domain: '',
  /** Every conversion must carry it (docs/tracking.md); made at setup, or at first need. */
  postback_secret: '',
  /** Until when (ms) the installation's own secret still converts every campaign (decision 120); '' or past: never. */
  postback_legacy_until: '',
  /** Distinct transaction ids one click may convert with (docs/decisions/042). */
  conversion_cap_per_click: '10',
  /** 'batched' (default) or 'durable': answer a click only after the Queue took it (docs/decisions/043). */
  tracking_mode: 'batched',
};
type SettingKey = keyof typeof DEFAULT_SETTINGS;
export type Settings = Record<SettingKey, string>;

// The hot path reads settings on every click: keep them in the isolate for a few seconds.
const CACHE_MS = 5_000;
let cache: { at: number; value: Settings } | null = null;

export function invalidateSettings(): void {
  cache = null;
  clickCache.invalidate(0);
}

function fromRows(rows: { key: string; value: string }[]): Settings {
  const value: Settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) if (row.key in value) value[row.key as SettingKey] = row.value;
  return value;
}

export async function getSettings(env: Pick<Env, 'DB'>, { fresh = false } = {}): Promise<Settings> {
  if (!fresh && cache && Date.now() - cache.at < CACHE_MS) return cache.value;
  const value = fromRows(await getDb(env).select().from(settings).all());
  cache = { at: Date.now(), value };
  return value;
}

// The tracking routes read settings through the click's two-level cache (docs/decisions/100):
// at once from any copy, checked in the background by re-reading the (small) table, whose
// content's fingerprint is its version.
const clickCache = new SwrCache<Settings>('settings', 1);
/** For tests (tests/integration/routing-cache.test.ts): see SwrCache.simulate. */
export const settingsCacheForTests = clickCache;
const SETTINGS_SQL = 'SELECT key, value FROM settings ORDER BY key';
const sources = new WeakMap<D1Database, SwrSource<Settings>>();

function settingsSource(env: Pick<Env, 'DB'>): SwrSource<Settings> {
  let made = sources.get(env.DB);
  if (made) return made;
  const read = async (where: 'nearest' | 'primary') => {
    const { results } = await readHandle(env.DB, where)
      .prepare(SETTINGS_SQL)
      .all<{ key: string; value: string }>();
    const value = fromRows(results);
    return { version: fingerprint(JSON.stringify(value)), value };
  };
  made = { load: (_key, where) => read(where), version: null };
  sources.set(env.DB, made);
  return made;
}

/** FNV-1a of the settings: a short version that never puts a setting's value in a cache key. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The settings for a click: at once when any copy exists (checked in the background via `bg`). */
export function trackingSettings(env: Pick<Env, 'DB'>, bg?: Background): Settings | Promise<Settings> {
  return clickCache.get(0, settingsSource(env), bg);
}

/** Statements that upsert `values`, for a caller's batch (one transaction). */
export function settingsUpserts(env: Pick<Env, 'DB'>, values: Partial<Settings>) {
  const db = getDb(env);
  return Object.entries(values).map(([key, value]) =>
    db
      .insert(settings)
      .values({ key, value: value ?? '' })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: value ?? '', updatedAt: sql`(unixepoch() * 1000)` },
      }),
  );
}

export async function saveSettings(env: Pick<Env, 'DB'>, values: Partial<Settings>): Promise<void> {
  const statements = settingsUpserts(env, values);
  if (statements.length) {
    const [first, ...rest] = statements;
    await getDb(env).batch([first, ...rest]);
  }
  invalidateSettings();
}
