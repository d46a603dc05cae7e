import { and, eq, inArray } from 'drizzle-orm';
import { extraTokens, MAX_EXTRA_TOKENS } from '../../../schema/campaigns';
import {
  OPERATION_MESSAGES as M,
  type TemplateToken,
  type TokenTemplate,
} from '../../../schema/pages-operations-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { fieldError } from '../../lib/errors';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { campaignForUser } from './access';
import { listTokens } from './lists';

// Token templates: the extra tokens a traffic source fills in, with its own macros, so a
// marketer captures ad, placement and click ids without looking them up. Applying adds the
// template's tokens the campaign does not have yet (by parameter), within the 20-token limit;
// removing deletes the campaign's live tokens whose parameter the template names.

const t = (token_name: string, parameter: string, url_append: string): TemplateToken => ({
  token_name,
  parameter,
  url_append,
});

/** The ${NAME} macros of MediaGo and LiveIntent. */
const dollar = (name: string) => `\${${name}}`;

export const TOKEN_TEMPLATES: TokenTemplate[] = [
  {
    key: 'facebook',
    label: 'Facebook / Meta Ads',
    tokens: [
      t('Ad ID', 'ad_id', '{{ad.id}}'),
      t('Ad name', 'ad_name', '{{ad.name}}'),
      t('Ad set ID', 'adset_id', '{{adset.id}}'),
      t('Ad set name', 'adset_name', '{{adset.name}}'),
      t('Campaign ID', 'campaign_id', '{{campaign.id}}'),
      t('Campaign name', 'campaign_name', '{{campaign.name}}'),
      t('Placement', 'placement', '{{placement}}'),
      t('Site source', 'site_source', '{{site_source_name}}'),
      t('Facebook click ID', 'fbclid', ''),
    ],
  },
  {
    key: 'taboola',
    label: 'Taboola',
    tokens: [
      t('Campaign ID', 'campaign_id', '{campaign_id}'),
      t('Campaign item ID', 'campaign_item_id', '{campaign_item_id}'),
      t('Site', 'site', '{site}'),
      t('Site ID', 'site_id', '{site_id}'),
      t('Platform', 'platform', '{platform}'),
      t('Title', 'title', '{title}'),
      t('Taboola click ID', 'click_id', '{click_id}'),
    ],
  },
  {
    key: 'mediago',
    label: 'MediaGo',
    tokens: [
      t('Campaign ID', 'campaign_id', dollar('CAMPAIGN_ID')),
      t('Campaign name', 'campaign_name', dollar('CAMPAIGN_NAME')),
      t('Ad ID', 'ad_id', dollar('AD_ID')),
      t('Ad title', 'ad_title', dollar('AD_TITLE')),
      t('Asset ID', 'asset_id', dollar('ASSET_ID')),
      t('MediaGo tracking ID', 'tracking_id', dollar('TRACKING_ID')),
    ],
  },
  {
    key: 'tiktok',
    label: 'TikTok Ads',
    tokens: [
      t('Campaign ID', 'campaign_id', '__CAMPAIGN_ID__'),
      t('Campaign name', 'campaign_name', '__CAMPAIGN_NAME__'),
      t('Ad group ID', 'adgroup_id', '__AID__'),
      t('Ad group name', 'adgroup_name', '__AID_NAME__'),
      t('Ad ID', 'ad_id', '__CID__'),
      t('Ad name', 'ad_name', '__CID_NAME__'),
      t('Placement', 'placement', '__PLACEMENT__'),
      t('TikTok click ID', 'ttclid', '__CALLBACK_PARAM__'),
    ],
  },
  {
    key: 'liveintent',
    label: 'LiveIntent',
    tokens: [
      t('Campaign ID', 'li_campaign_id', dollar('CAMPAIGN_ID')),
      t('Line item ID', 'li_line_item_id', dollar('LINE_ITEM_ID')),
      t('Creative ID', 'li_creative_id', dollar('CREATIVE_ID')),
      t('Publisher ID', 'li_publisher_id', dollar('PUBLISHER_ID')),
      t('Template ID', 'li_template_id', dollar('TEMPLATE_ID')),
      t('Device type', 'li_device_type', dollar('DEVICE_TYPE')),
      t('Decision ID', 'li_decision_id', dollar('DECISION_ID')),
    ],
  },
  {
    key: 'google',
    label: 'Google Ads',
    tokens: [
      t('Campaign ID', 'campaignid', '{campaignid}'),
      t('Ad group ID', 'adgroupid', '{adgroupid}'),
      t('Creative', 'creative', '{creative}'),
      t('Match type', 'matchtype', '{matchtype}'),
      t('Network', 'network', '{network}'),
      t('Device', 'device', '{device}'),
      t('Placement', 'placement', '{placement}'),
      t('Target ID', 'targetid', '{targetid}'),
      t('Google click ID', 'gclid', ''),
    ],
  },
  {
    key: 'microsoft',
    label: 'Microsoft Advertising (Bing)',
    tokens: [
      t('Campaign ID', 'CampaignId', '{CampaignId}'),
      t('Ad group ID', 'AdGroupId', '{AdGroupId}'),
      t('Ad ID', 'AdId', '{AdId}'),
      t('Match type', 'MatchType', '{MatchType}'),
      t('Network', 'Network', '{Network}'),
      t('Device', 'Device', '{Device}'),
      t('Microsoft click ID', 'msclkid', ''),
    ],
  },
  {
    key: 'outbrain',
    label: 'Outbrain',
    tokens: [
      t('Campaign ID', 'campaign_id', '{{campaign_id}}'),
      t('Ad ID', 'ad_id', '{{ad_id}}'),
      t('Ad title', 'ad_title', '{{ad_title}}'),
      t('Section ID', 'section_id', '{{section_id}}'),
      t('Section name', 'section_name', '{{section_name}}'),
      t('Publisher ID', 'publisher_id', '{{publisher_id}}'),
      t('Publisher name', 'publisher_name', '{{publisher_name}}'),
      t('Outbrain click ID', 'ob_click_id', '{{ob_click_id}}'),
    ],
  },
  {
    key: 'mgid',
    label: 'MGID',
    tokens: [
      t('Campaign ID', 'campaign_id', '{campaign_id}'),
      t('Teaser ID', 'teaser_id', '{teaser_id}'),
      t('Widget ID', 'widget_id', '{widget_id}'),
      t('Category ID', 'category_id', '{category_id}'),
      t('Geo', 'geo', '{geo}'),
      t('MGID click ID', 'click_id', '{click_id}'),
    ],
  },
  {
    key: 'revcontent',
    label: 'Revcontent',
    tokens: [
      t('Boost ID', 'boost_id', '{boost_id}'),
      t('Content ID', 'content_id', '{content_id}'),
      t('Widget ID', 'widget_id', '{widget_id}'),
    ],
  },
  {
    key: 'native',
    label: 'Native (generic)',
    tokens: [
      t('Campaign ID', 'campaign_id', '{campaign_id}'),
      t('Ad ID', 'ad_id', '{ad_id}'),
      t('Site ID', 'site_id', '{site_id}'),
      t('Click ID', 'click_id', '{click_id}'),
    ],
  },
];

function findTemplate(key: string): TokenTemplate | undefined {
  return TOKEN_TEMPLATES.find((tpl) => tpl.key === key.toLowerCase());
}

function templateOrError(key: string): TokenTemplate {
  const template = findTemplate(key);
  if (!template) throw fieldError('template', M.templateUnknown);
  return template;
}

/**
 * Adds the template's tokens the campaign lacks (by parameter) into free slots. All or nothing:
 * past 20 live tokens nothing is added and the spec's message answers.
 */
export async function applyTemplate(env: Env, user: AuthUser, campaignId: number, key: string) {
  const template = templateOrError(key);
  const campaign = await campaignForUser(env, user, campaignId);
  const db = getDb(env);
  const live = await db
    .select()
    .from(extraTokens)
    .where(and(eq(extraTokens.campaignId, campaign.id), eq(extraTokens.deleted, 0)))
    .all();
  const have = new Set(live.map((r) => r.parameter));
  const missing = template.tokens.filter((tok) => !have.has(tok.parameter));
  if (live.length + missing.length > MAX_EXTRA_TOKENS) throw fieldError('template', M.tokensLimit);
  const used = new Set(live.map((r) => r.slot));
  const freeSlots: number[] = [];
  for (let slot = 1; slot <= MAX_EXTRA_TOKENS && freeSlots.length < missing.length; slot++) {
    if (!used.has(slot)) freeSlots.push(slot);
  }
  const now = Date.now();
  if (missing.length) {
    await db.insert(extraTokens).values(
      missing.map((tok, i) => ({
        campaignId: campaign.id,
        slot: freeSlots[i],
        tokenName: tok.token_name,
        parameter: tok.parameter,
        urlAppend: tok.url_append,
        landingPageEnabled: 0,
        offerPageEnabled: 0,
        createdAt: now,
        updatedAt: now,
      })),
    );
    invalidateCompiledCampaign(campaign.id);
  }
  return { added: missing.length, result: await listTokens(env, campaign.id) };
}

/** Deletes (softly) the campaign's live tokens whose parameter the template names. */
export async function removeTemplate(env: Env, user: AuthUser, campaignId: number, key: string) {
  const template = templateOrError(key);
  const campaign = await campaignForUser(env, user, campaignId);
  const parameters = template.tokens.map((tok) => tok.parameter);
  const removed = await getDb(env)
    .update(extraTokens)
    .set({ deleted: 1, updatedAt: Date.now() })
    .where(
      and(
        eq(extraTokens.campaignId, campaign.id),
        eq(extraTokens.deleted, 0),
        inArray(extraTokens.parameter, parameters),
      ),
    )
    .returning({ id: extraTokens.id })
    .all();
  if (removed.length) invalidateCompiledCampaign(campaign.id);
  return { removed: removed.length, result: await listTokens(env, campaign.id) };
}
