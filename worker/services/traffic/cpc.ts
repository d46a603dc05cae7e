import { CPC_TRAFFIC_SOURCES } from '../../../schema/traffic';
import {
  CPC_MESSAGES as C,
  DEFAULT_ATTACHMENT_MAX_MB,
  DEFAULT_BLAZE_PUBLISHER_ID,
  type JeengCampaign,
  type JeengDetail,
  type SaveInfoInput,
  type TrafficHeadline,
  type TrafficLine,
} from '../../../schema/traffic-api';
import type { Env } from '../../env';
import { cpcSpend, cpcSubmit } from '../../integrations/traffic-provider/client';
import type { AuthUser } from '../../lib/auth';
import { fieldError } from '../../lib/errors';
import { type CampaignRow, campaignForUser } from '../campaigns/access';
import { dayIn } from '../ingest/days';
import { walletMicros } from '../money/ledger';
import { walletConfig } from '../money/wallet-settings';
import { getSettings } from '../settings/settings';
import { campaignRef } from './banners';
import { assetRows, listAssets } from './cpc-assets';
import { providerFailure } from './provider-errors';
import { ensureTrafficRow, type TrafficRow, trafficRow } from './traffic-row';

export { type TrafficRow, trafficRow } from './traffic-row';

// Tab 8, the CPC traffic campaign of a trrcpc or crane campaign (spec 2 §3-§9, spec 4's CPC
// builder). Amounts are stored in micro-units and answered in dollars, as the form shows them.
// The submit is one way: afterwards the info and headlines are refused, and the assets it sent
// are listed in uneditable_assets (docs/decisions/098).

const dollars = (micros: number) => micros / 1_000_000;
const micros = (dollarsValue: number) => Math.round(dollarsValue * 1_000_000);
const parsed = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

export async function cpcCampaignForUser(env: Env, user: AuthUser, id: number): Promise<CampaignRow> {
  const campaign = await campaignForUser(env, user, id);
  if (!(CPC_TRAFFIC_SOURCES as readonly string[]).includes(campaign.trafficSource))
    throw fieldError('campaign_id', C.notCpc);
  return campaign;
}

export function attachmentMaxMb(env: Env): number {
  const n = Number(env.CPC_ATTACHMENT_MAX_SIZE_MB);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_ATTACHMENT_MAX_MB;
}

/** Tab 7's Blaze publisher (spec 2 §7: 9 unless configured). */
export function blazePublisherId(env: Env): number {
  const n = Number(env.BLAZE_PUBLISHER_ID);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_BLAZE_PUBLISHER_ID;
}

export function jeengCampaign(row: TrafficRow, assetCount: number): JeengCampaign {
  return {
    campaign_id: row.campaign_id,
    offer_name: row.offer_name,
    traffic: row.traffic,
    ad_type: row.ad_type,
    ad_size: row.ad_size,
    daily_budget: dollars(row.daily_budget_micros),
    cpc: dollars(row.cpc_micros),
    toggle_max_ad_spend: row.toggle_max_ad_spend,
    data: {
      max_ad_spend: dollars(row.max_ad_spend_micros),
      total_budget: dollars(row.total_budget_micros),
      headlines: parsed<TrafficHeadline[]>(row.headlines, []),
    },
    lines: parsed<{ id: string; cpm_micros: number }[]>(row.lines, []).map((l) => ({
      id: l.id,
      cpm: dollars(l.cpm_micros),
    })),
    spend: dollars(row.spend_micros),
    submitted: row.submitted,
    submitted_at: row.submitted_at ? new Date(row.submitted_at).toISOString() : null,
    can_submit: row.submitted === 0 && row.offer_name !== '' && assetCount > 0,
    uneditable_assets: parsed<string[]>(row.uneditable_assets, []),
  };
}

/** Refuses any change of a submitted traffic campaign's info and headlines. */
function assertNotSubmitted(row: TrafficRow | null) {
  if (row?.submitted === 1) throw fieldError('campaign_id', C.submitted);
}

export async function saveInfo(
  env: Env,
  campaign: CampaignRow,
  input: SaveInfoInput,
): Promise<JeengCampaign> {
  assertNotSubmitted(await trafficRow(env, campaign.id));
  await env.DB.prepare(
    `INSERT INTO traffic_campaigns (campaign_id, provider, offer_name, traffic, ad_type, ad_size, daily_budget_micros,
       cpc_micros, max_ad_spend_micros, toggle_max_ad_spend, total_budget_micros, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
     ON CONFLICT (campaign_id) DO UPDATE SET provider = excluded.provider, offer_name = excluded.offer_name,
       traffic = excluded.traffic, ad_type = excluded.ad_type, ad_size = excluded.ad_size,
       daily_budget_micros = excluded.daily_budget_micros, cpc_micros = excluded.cpc_micros,
       max_ad_spend_micros = excluded.max_ad_spend_micros, toggle_max_ad_spend = excluded.toggle_max_ad_spend,
       total_budget_micros = excluded.total_budget_micros, updated_at = excluded.updated_at
     WHERE traffic_campaigns.submitted = 0`,
  )
    .bind(
      campaign.id,
      campaign.trafficSource,
      input.offerName,
      input.traffic,
      input.adType,
      input.adSize,
      micros(input.dailyBudget),
      micros(input.cpc),
      micros(input.maxAdSpend),
      input.toggleMaxAdSpend,
      micros(input.totalBudget),
      Date.now(),
    )
    .run();
  return currentCampaign(env, campaign.id);
}

async function currentCampaign(env: Env, campaignId: number): Promise<JeengCampaign> {
  const row = await trafficRow(env, campaignId);
  if (!row) throw fieldError('campaign_id', C.infoFirst);
  return jeengCampaign(row, (await assetRows(env, campaignId)).length);
}

export async function saveHeadlines(env: Env, campaign: CampaignRow, headlines: TrafficHeadline[]) {
  assertNotSubmitted(await ensureTrafficRow(env, campaign));
  await env.DB.prepare(
    'UPDATE traffic_campaigns SET headlines = ?2, updated_at = ?3 WHERE campaign_id = ?1 AND submitted = 0',
  )
    .bind(campaign.id, JSON.stringify(headlines), Date.now())
    .run();
  return currentCampaign(env, campaign.id);
}

/** Lines and their CPM stay editable after the submit: they are the provider's bidding. */
export async function updateLines(env: Env, campaign: CampaignRow, lines: TrafficLine[]) {
  await ensureTrafficRow(env, campaign);
  const stored = lines.map((l) => ({ id: l.id, cpm_micros: micros(l.cpm) }));
  await env.DB.prepare('UPDATE traffic_campaigns SET lines = ?2, updated_at = ?3 WHERE campaign_id = ?1')
    .bind(campaign.id, JSON.stringify(stored), Date.now())
    .run();
  return currentCampaign(env, campaign.id);
}

/** The owner's CPC wallet and the installation's minimum, in micro-units. */
async function balanceOf(env: Env, campaign: CampaignRow) {
  const owner = campaign.createdBy ?? 0;
  const [wallets, config] = await Promise.all([walletMicros(env, owner), walletConfig(env)]);
  return { balance: wallets.cpc, minimum: config.minimumMicros };
}

export async function submitData(env: Env, campaign: CampaignRow): Promise<JeengCampaign> {
  const row = await trafficRow(env, campaign.id);
  assertNotSubmitted(row);
  if (!row || row.offer_name === '') throw fieldError('campaign_id', C.infoFirst);
  const assets = await assetRows(env, campaign.id);
  if (assets.length === 0) throw fieldError('campaign_id', C.assetsFirst);
  const { balance, minimum } = await balanceOf(env, campaign);
  if (balance < minimum) throw fieldError('campaign_id', C.balanceLow);
  const maxMb = attachmentMaxMb(env);
  const totalBytes = assets.reduce((sum, a) => sum + a.size, 0);
  if (totalBytes > maxMb * 1024 * 1024)
    throw fieldError('campaign_id', `${C.attachmentTooLarge} ${maxMb} MB.`);
  const files = [];
  for (const a of assets) {
    const object = await env.BUCKET.get(a.r2_key);
    if (object)
      files.push({
        name: a.name,
        contentType: a.content_type,
        bytes: new Uint8Array(await object.arrayBuffer()),
      });
  }
  const info = jeengCampaign(row, assets.length);
  let providerId: string;
  try {
    providerId = await cpcSubmit(env, {
      campaignRef: campaignRef(campaign.id),
      source: campaign.trafficSource,
      info: {
        offer_name: info.offer_name,
        traffic: info.traffic,
        ad_type: info.ad_type,
        ad_size: info.ad_size,
        daily_budget: info.daily_budget,
        cpc: info.cpc,
        max_ad_spend: info.data.max_ad_spend,
        toggle_max_ad_spend: info.toggle_max_ad_spend,
        total_budget: info.data.total_budget,
      },
      headlines: info.data.headlines,
      lines: info.lines,
      assets: files,
    });
  } catch (err) {
    throw providerFailure(err, 'Failed to submit traffic data');
  }
  const now = Date.now();
  const { time_zone: timeZone } = await getSettings(env);
  // submitted = 0 in the WHERE: two submits at once write once.
  await env.DB.prepare(
    `UPDATE traffic_campaigns SET submitted = 1, submitted_at = ?2, submitted_on = ?3, provider_campaign_id = ?4,
       uneditable_assets = ?5, updated_at = ?2
     WHERE campaign_id = ?1 AND submitted = 0`,
  )
    .bind(campaign.id, now, dayIn(now, timeZone), providerId, JSON.stringify(assets.map((a) => a.name)))
    .run();
  return currentCampaign(env, campaign.id);
}

/**
 * Asks the provider what a submitted campaign has spent and keeps it; a provider failure keeps
 * the stored number (the $1500 rule then errs on the side of keeping the campaign active).
 */
export async function refreshSpend(env: Env, campaignId: number): Promise<void> {
  const row = await trafficRow(env, campaignId);
  if (row?.submitted !== 1 || !row.provider_campaign_id) return;
  try {
    const spent = await cpcSpend(env, row.provider_campaign_id);
    await env.DB.prepare('UPDATE traffic_campaigns SET spend_micros = ?2 WHERE campaign_id = ?1')
      .bind(campaignId, spent)
      .run();
  } catch {
    // The stored spend stays; the next detail or deactivation asks again.
  }
}

/** jeeng_* of the campaign detail (spec 2 §3). */
export async function jeengDetail(env: Env, campaign: CampaignRow): Promise<JeengDetail> {
  const { balance, minimum } = await balanceOf(env, campaign);
  const base = { jeeng_balance: dollars(balance), jeeng_min_required_balance: dollars(minimum) };
  if (!(CPC_TRAFFIC_SOURCES as readonly string[]).includes(campaign.trafficSource))
    return { ...base, jeeng_campaign: null, jeeng_assets: [], jeeng_assets_size: 0 };
  await refreshSpend(env, campaign.id);
  const row = await trafficRow(env, campaign.id);
  const assets = await listAssets(env, campaign.id, row);
  return {
    ...base,
    jeeng_campaign: row ? jeengCampaign(row, assets.length) : null,
    jeeng_assets: assets,
    jeeng_assets_size: assets.length,
  };
}
