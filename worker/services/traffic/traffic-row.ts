import { CPC_AD_SIZES } from '../../../schema/traffic-api';
import type { Env } from '../../env';
import type { CampaignRow } from '../campaigns/access';

// The CPC traffic campaign's stored row (tab 8), apart from cpc.ts so that the assets
// (cpc-assets.ts) and the campaign's calls (cpc.ts) both read it without importing each other.

export type TrafficRow = {
  campaign_id: number;
  provider: string;
  provider_campaign_id: string;
  offer_name: string;
  traffic: string;
  ad_type: string;
  ad_size: string;
  daily_budget_micros: number;
  cpc_micros: number;
  max_ad_spend_micros: number;
  toggle_max_ad_spend: number;
  total_budget_micros: number;
  headlines: string;
  lines: string;
  spend_micros: number;
  submitted: number;
  submitted_at: number | null;
  submitted_on: string | null;
  uneditable_assets: string;
};

export async function trafficRow(env: Pick<Env, 'DB'>, campaignId: number): Promise<TrafficRow | null> {
  return env.DB.prepare('SELECT * FROM traffic_campaigns WHERE campaign_id = ?1')
    .bind(campaignId)
    .first<TrafficRow>();
}

/** An empty row for calls that may come before the info (headlines, lines, assets). */
export async function ensureTrafficRow(env: Env, campaign: CampaignRow): Promise<TrafficRow> {
  // Spec 2 §4: crane means Apple News, Display and the first apple size; trrcpc Email.
  const apple = campaign.trafficSource === 'crane';
  await env.DB.prepare(
    `INSERT INTO traffic_campaigns (campaign_id, provider, traffic, ad_type, ad_size) VALUES (?1, ?2, ?3, 'Display', ?4)
     ON CONFLICT (campaign_id) DO NOTHING`,
  )
    .bind(
      campaign.id,
      campaign.trafficSource,
      apple ? 'Apple News' : 'Email',
      apple ? CPC_AD_SIZES['Apple News'].Display[0] : CPC_AD_SIZES.Email.Display[0],
    )
    .run();
  return (await trafficRow(env, campaign.id)) as TrafficRow;
}
