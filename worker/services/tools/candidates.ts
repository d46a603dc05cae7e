import type { Candidate, IneligibleReason } from '../../../schema/tools-api';
import type { Env } from '../../env';
import { type CompiledCampaign, DEVICE_AGENT_IDS, type Device, eligible } from '../hot-path/routing';
import { landingPoolKey, offerPoolKey } from './split';

// Every path, landing page and offer of a campaign, paused and deleted ones included, with the
// reason it cannot serve a visitor. Which items are eligible is decided by routing.ts's own
// `eligible` over the compiled campaign (the tracking path's rule); this file only explains.

type ItemRow = { id: number; name: string; share: number; active: number; deleted: number; agents: string };
type LandingItem = ItemRow & { url: string; path_id: number };
type OfferItem = ItemRow & {
  url: string;
  path_id: number;
  option_id: number;
  postback_parameter: string;
  payout_micros: number;
};
export type CampaignItems = {
  paths: ItemRow[];
  landings: LandingItem[];
  offers: OfferItem[];
  options: { id: number; name: string; active: number; deleted: number }[];
};

export async function loadItems(env: Pick<Env, 'DB'>, campaignId: number): Promise<CampaignItems> {
  const db = env.DB;
  const [paths, landings, offers, options] = await db.batch([
    db
      .prepare(
        'SELECT id, name, share, active, deleted, agents FROM paths WHERE campaign_id = ?1 ORDER BY id',
      )
      .bind(campaignId),
    db
      .prepare(
        `SELECT id, name, share, active, deleted, agents, url, coalesce(path_id, 0) AS path_id
          FROM landing_pages WHERE campaign_id = ?1 ORDER BY id`,
      )
      .bind(campaignId),
    db
      .prepare(
        `SELECT id, name, share, active, deleted, agents, url, coalesce(path_id, 0) AS path_id,
          coalesce(option_id, 0) AS option_id, postback_parameter, payout_micros
          FROM offer_pages WHERE campaign_id = ?1 ORDER BY id`,
      )
      .bind(campaignId),
    db
      .prepare('SELECT id, name, active, deleted FROM options WHERE campaign_id = ?1 ORDER BY id')
      .bind(campaignId),
  ]);
  return {
    paths: paths.results as ItemRow[],
    landings: landings.results as LandingItem[],
    offers: offers.results as OfferItem[],
    options: options.results as CampaignItems['options'],
  };
}

const AGENT_NAMES: Record<number, string> = { 1: 'any', 2: 'desktop', 3: 'mobile', 4: 'tablet' };

type Why = { reason: IneligibleReason; text: string } | null;

/**
 * One candidate row: an eligible item gets its chance within its pool (of `poolTotal`) and may be
 * the chosen one; another gets the reason it cannot serve.
 */
function candidate(
  item: ItemRow & { url?: string },
  ok: boolean,
  reason: Why,
  pool: { key: string; name: string; total: number },
  chosenId: number,
): Candidate {
  return {
    id: item.id,
    name: item.name,
    share: item.share,
    sharePct: ok ? pct(item.share, pool.total) : null,
    pool: pool.key,
    poolName: pool.name,
    eligible: ok,
    reason: ok ? null : (reason?.reason ?? null),
    reasonText: ok ? '' : (reason?.text ?? ''),
    chosen: ok && item.id === chosenId,
    url: item.url ?? '',
  };
}

function ownReason(item: ItemRow, device: Device): Why {
  if (item.deleted === 1) return { reason: 'deleted', text: 'Deleted.' };
  if (item.active !== 1) return { reason: 'paused', text: 'Paused.' };
  const agents = item.agents
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  if (!agents.includes(1) && !agents.includes(DEVICE_AGENT_IDS[device])) {
    const names = agents.map((a) => AGENT_NAMES[a] ?? String(a)).join(', ') || 'none';
    return { reason: 'device', text: `Not shown to ${device} visitors (devices: ${names}).` };
  }
  if (item.share <= 0) return { reason: 'zero_share', text: 'Share is 0.' };
  return null;
}

const pct = (share: number, total: number) => (total > 0 ? Math.round((share / total) * 10_000) / 100 : null);

export type Explained = { paths: Candidate[]; landings: Candidate[]; offers: Candidate[] };

/**
 * The candidates of each level for a visitor on `device`. `chosen` marks the picked ids; pool
 * shares are each eligible item's chance within the set it is picked from.
 */
export function explainCandidates(
  campaign: CompiledCampaign,
  items: CampaignItems,
  device: Device,
  chosen: { pathId: number; landingId: number; offerId: number },
): Explained {
  const pathName = new Map(items.paths.map((p) => [p.id, p.name]));
  const optionName = new Map(items.options.map((o) => [o.id, o.name]));
  const poolName = poolNamer(items);
  const eligibleLandings = eligible(campaign.landings, device);
  const eligiblePaths = new Set(
    eligible(campaign.paths, device)
      .filter((p) => eligibleLandings.some((l) => l.pathId === p.id))
      .map((p) => p.id),
  );
  const eligibleLandingIds = new Set(
    eligibleLandings
      .filter((l) => campaign.type !== 'multiple_path_type' || eligiblePaths.has(l.pathId))
      .map((l) => l.id),
  );
  const liveOptions = new Set(campaign.options);
  const eligibleOffers = eligible(campaign.offers, device).filter(
    (o) =>
      (campaign.type !== 'multiple_path_type' || eligiblePaths.has(o.pathId)) &&
      (campaign.type !== 'multiple_option_type' || liveOptions.has(o.optionId)),
  );
  const eligibleOfferIds = new Set(eligibleOffers.map((o) => o.id));

  const totals = new Map<string, number>();
  const add = (pool: string, share: number) => totals.set(pool, (totals.get(pool) ?? 0) + share);
  for (const l of eligibleLandings)
    if (eligibleLandingIds.has(l.id)) add(`l|${landingPoolKey(campaign, l.pathId)}`, l.share);
  for (const o of eligibleOffers) add(`o|${offerPoolKey(campaign, o)}`, o.share);
  let pathTotal = 0;
  for (const p of campaign.paths) if (eligiblePaths.has(p.id)) pathTotal += p.share;

  const paths: Candidate[] =
    campaign.type !== 'multiple_path_type'
      ? []
      : items.paths.map((p) => {
          const own = ownReason(p, device);
          const ok = eligiblePaths.has(p.id);
          const reason =
            own ??
            (ok
              ? null
              : {
                  reason: 'no_landing' as const,
                  text: `No landing page of this path can serve a ${device} visitor.`,
                });
          return candidate(p, ok, reason, { key: 'paths', name: 'Paths', total: pathTotal }, chosen.pathId);
        });

  const usesLandings = campaign.type !== 'direct_link' && campaign.type !== 'rotator';
  const landings: Candidate[] = !usesLandings
    ? []
    : items.landings.map((l) => {
        const pool = landingPoolKey(campaign, l.path_id);
        const ok = eligibleLandingIds.has(l.id);
        const reason =
          ownReason(l, device) ??
          (ok
            ? null
            : {
                reason: 'path' as const,
                text: `Its path “${pathName.get(l.path_id) ?? 'none'}” cannot serve this visitor.`,
              });
        const total = totals.get(`l|${pool}`) ?? 0;
        return candidate(l, ok, reason, { key: pool, name: poolName(pool), total }, chosen.landingId);
      });

  const offers: Candidate[] = items.offers.map((o) => {
    const pool = offerPoolKey(campaign, { pathId: o.path_id, optionId: o.option_id });
    const ok = eligibleOfferIds.has(o.id);
    let reason = ownReason(o, device);
    if (!reason && !ok) {
      reason =
        campaign.type === 'multiple_option_type'
          ? {
              reason: 'option',
              text: `Its option “${optionName.get(o.option_id) ?? 'none'}” is paused or deleted.`,
            }
          : {
              reason: 'path',
              text: `Its path “${pathName.get(o.path_id) ?? 'none'}” cannot serve this visitor.`,
            };
    }
    const total = totals.get(`o|${pool}`) ?? 0;
    return candidate(o, ok, reason, { key: pool, name: poolName(pool), total }, chosen.offerId);
  });
  return { paths, landings, offers };
}

export function poolNamer(items: CampaignItems) {
  const pathName = new Map(items.paths.map((p) => [p.id, p.name]));
  const optionName = new Map(items.options.map((o) => [o.id, o.name]));
  return (pool: string) => {
    const [kind, id] = pool.split(':');
    if (kind === 'paths') return 'Paths';
    if (kind === 'path') return `Path “${pathName.get(Number(id)) ?? id}”`;
    if (kind === 'option') return `Option “${optionName.get(Number(id)) ?? id}”`;
    return 'Campaign';
  };
}
