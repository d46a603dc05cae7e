import { addDays, dayInZone } from '../../../schema/dates';
import type { Wallet } from '../../../schema/wallets';
import type { Env } from '../../env';
import { getSettings } from '../settings/settings';
import { disabledWallets, walletConfig } from './wallet-settings';

// The daily balance job (docs/decisions/052): platform spend from the costs is deducted from
// the campaign owner's matching wallet, once per (campaign, wallet, day). Each run books only
// the difference between the day's spend and what is already booked for it, so a re-run books
// nothing and a late cost correction books exactly the change.

/** Days back from yesterday that every run re-checks: platforms revise recent days' costs. */
const SPEND_WINDOW_DAYS = 7;

type CampaignSource = { trafficSource: string; metainfo: string };

/** The wallet that pays for a campaign's traffic source, or null when the source has none. */
export function walletFor(campaign: CampaignSource): Wallet | null {
  switch (campaign.trafficSource) {
    case 'liveintent':
      return 'liveintent';
    case 'mediago':
      return 'mediago';
    case 'trrcpc':
    case 'crane':
      return 'cpc';
    case 'trrde':
      return 'dsp';
    case 'blaze':
      return /dedicated/i.test(placementType(campaign.metainfo)) ? 'blazeDedicated' : 'blaze';
    default:
      return null;
  }
}

function placementType(metainfo: string): string {
  try {
    const meta = JSON.parse(metainfo || '{}');
    const value = meta?.blaze?.current_placement_type ?? meta?.current_placement_type ?? '';
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

const SOURCES_WITH_WALLET = ['liveintent', 'mediago', 'trrcpc', 'crane', 'trrde', 'blaze'];

type Key = string;
type Line = {
  campaignId: number;
  userId: number;
  wallet: Wallet;
  day: string;
  spend: number;
  booked: number;
  entries: number;
};

/**
 * Books the spend of days [from, to] (installation days). Answers how many entries it booked.
 * Safe to run twice at once: the key of an entry is (campaign, wallet, day, number of entries
 * already booked for it), so two runs that see the same state write the same key and the
 * ledger's UNIQUE index keeps one.
 */
export async function deductSpend(env: Pick<Env, 'DB'>, from: string, to: string): Promise<number> {
  const sources = SOURCES_WITH_WALLET.map((s) => `'${s}'`).join(', ');
  const [spend, booked] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(
      `SELECT c.id AS campaign_id, c.created_by AS user_id, c.traffic_source, c.metainfo, t.day, SUM(t.spend_micros) AS spend
       FROM target_daily t JOIN campaigns c ON c.id = t.campaign_id
       WHERE t.has_cost = 1 AND t.day BETWEEN ?1 AND ?2 AND c.traffic_source IN (${sources}) AND c.created_by IS NOT NULL
       GROUP BY c.id, t.day`,
    ).bind(from, to),
    env.DB.prepare(
      `SELECT ref_campaign_id AS campaign_id, user_id, wallet, day, -SUM(amount_micros) AS booked, COUNT(*) AS entries
       FROM wallet_ledger WHERE cause = 'platform_spend' AND day BETWEEN ?1 AND ?2
         -- A permanently deleted campaign loses its costs, not the money it spent: no refund.
         AND ref_campaign_id IN (SELECT id FROM campaigns)
       GROUP BY ref_campaign_id, user_id, wallet, day`,
    ).bind(from, to),
  ]);
  const lines = new Map<Key, Line>();
  const line = (campaignId: number, userId: number, wallet: Wallet, day: string) => {
    const key = `${campaignId}:${userId}:${wallet}:${day}`;
    let l = lines.get(key);
    if (!l) {
      l = { campaignId, userId, wallet, day, spend: 0, booked: 0, entries: 0 };
      lines.set(key, l);
    }
    return l;
  };
  for (const r of spend.results as {
    campaign_id: number;
    user_id: number;
    traffic_source: string;
    metainfo: string;
    day: string;
    spend: number;
  }[]) {
    const wallet = walletFor({ trafficSource: r.traffic_source, metainfo: r.metainfo });
    if (wallet) line(r.campaign_id, r.user_id, wallet, r.day).spend += r.spend;
  }
  for (const r of booked.results as {
    campaign_id: number;
    user_id: number;
    wallet: Wallet;
    day: string;
    booked: number;
    entries: number;
  }[]) {
    const l = line(r.campaign_id, r.user_id, r.wallet, r.day);
    l.booked = r.booked;
    l.entries = r.entries;
  }
  const now = Date.now();
  const statements = [...lines.values()]
    .filter((l) => l.spend !== l.booked)
    .map((l) =>
      env.DB.prepare(
        `INSERT OR IGNORE INTO wallet_ledger
         (user_id, wallet, amount_micros, note, cause, added_by_name, role, ref_campaign_id, day, idempotency_key, created_at)
         VALUES (?1, ?2, ?3, ?4, 'platform_spend', 'Daily balance job', 'system', ?5, ?6, ?7, ?8)`,
      ).bind(
        l.userId,
        l.wallet,
        l.booked - l.spend,
        l.entries === 0
          ? `Ad spend of campaign ${l.campaignId} on ${l.day}`
          : `Ad spend correction of campaign ${l.campaignId} on ${l.day}`,
        l.campaignId,
        l.day,
        `spend:${l.campaignId}:${l.wallet}:${l.day}:${l.entries}`,
        now,
      ),
    );
  let written = 0;
  for (let i = 0; i < statements.length; i += 50) {
    const results = await env.DB.batch(statements.slice(i, i + 50));
    written += results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
  }
  return written;
}

/** The job's window: the last SPEND_WINDOW_DAYS complete days in the installation's time zone. */
export async function runBalanceJob(env: Pick<Env, 'DB'>, now = Date.now()): Promise<number> {
  const today = dayInZone(now, (await getSettings(env)).time_zone);
  return deductSpend(env, addDays(today, -SPEND_WINDOW_DAYS), addDays(today, -1));
}

/**
 * spec 3 "insufficient-balance notice": true when the campaign's owner has a wallet for its
 * traffic source and that wallet is below the minimum (spec 2 §9: 1500 unless configured).
 */
export async function studentBalanceError(
  env: Pick<Env, 'DB'>,
  campaign: CampaignSource & { createdBy: number | null },
): Promise<boolean> {
  const wallet = walletFor(campaign);
  if (!wallet || !campaign.createdBy) return false;
  const [config, disabled, sum] = await Promise.all([
    walletConfig(env),
    disabledWallets(env, campaign.createdBy),
    env.DB.prepare(
      'SELECT COALESCE(SUM(amount_micros), 0) AS micros FROM wallet_ledger WHERE user_id = ?1 AND wallet = ?2 AND offer_id IS NULL',
    )
      .bind(campaign.createdBy, wallet)
      .first<{ micros: number }>(),
  ]);
  if (disabled[wallet]) return false;
  return (sum?.micros ?? 0) < config.minimumMicros;
}
