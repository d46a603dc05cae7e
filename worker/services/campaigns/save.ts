import { and, eq } from 'drizzle-orm';
import {
  type AddCampaignInput,
  type EditCampaignInput,
  type ExtraTokenInput,
  CAMPAIGN_MESSAGES as M,
} from '../../../schema/campaign-api';
import {
  AFFILIATE_NETWORK_PARAMS,
  campaigns,
  extraTokens,
  MAX_EXTRA_TOKENS,
} from '../../../schema/campaigns';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { fieldError } from '../../lib/errors';
import { invalidateCompiledCampaign } from '../hot-path/compiled-campaigns';
import { liveIntentListStatements } from '../liveintent/editor-lists';
import { assertMayDeactivate } from '../traffic/min-spend';
import { type CampaignRow, campaignForUser, ownedBy, type TokenRow } from './access';
import { campaignRuleProblem } from './campaign-rules';
import { assertFacebookVerified } from './facebook-verification';

// Adding and editing a campaign with its extra tokens; validation that needs the database.

/** Column values of a campaign from input checked by the add-campaign rules (also used by imports). */
export function campaignValues(input: AddCampaignInput) {
  const networkParam =
    AFFILIATE_NETWORK_PARAMS[input.affiliate_network as keyof typeof AFFILIATE_NETWORK_PARAMS];
  return {
    name: input.name,
    parentId: input.dir,
    urlAppendToken: input.urlAppendToken,
    keywordParameter: input.keywordParameter,
    customUrl: input.custom_url,
    rotatorBaseUrl: input.rotator_base_url,
    rotatorRequiresSignedContract: input.rotator_requires_signed_contract,
    customUrlResult: input.custom_url_result,
    offerPromotion: input.offerPromotion,
    // Choosing rotator clears the traffic source (spec 2 §4).
    trafficSource: input.campaignType === 'rotator' ? '' : input.trafficSource,
    affiliateNetwork: input.affiliate_network,
    postbackEnabled: input.postback_enabled,
    postback: input.postback,
    active: input.active,
    campaignType: input.campaignType,
    lpTargetParam: input.lpTargetParam,
    // The network's parameter when none is given (the editor rewrites it on network change).
    opTargetParam: input.opTargetParam || networkParam || '',
    cpcMicros: input.cpc,
    liConversionImagePixel: input.li_conversion_image_pixel,
    liConversionLp: input.li_conversion_lp,
    liConversionAtc1: input.li_conversion_atc1,
    liConversionAtc2: input.li_conversion_atc2,
    customConversionGoal: input.customConversionGoal.toLowerCase(),
    liCustomNameEnabled: input.li_custom_name_enabled,
    landingPagesAutoOptimized: input.landing_pages_auto_optimized,
    enableLpTestReporting: input.enable_lp_test_reporting,
    landingPagesOptimizationGoal: input.landing_pages_optimization_goal,
    landingPagesOptimizationMetric: input.landing_pages_optimization_metric,
    landingPagesOptimizationThreshold: input.landing_pages_optimization_threshold,
    landingPagesOptimizationMinVisits: input.landing_pages_optimization_min_visits,
    redirectType: input.redirectType,
    metainfo: JSON.stringify(input.metainfo),
  };
}

async function checkCampaignRefs(env: Env, user: AuthUser, input: AddCampaignInput, selfId?: number) {
  assertFacebookVerified(env, input);
  const rule = campaignRuleProblem(input);
  if (rule) throw fieldError(rule.field, rule.message);
  if (input.dir) {
    const folder = await getDb(env)
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, input.dir), ownedBy(user)))
      .get();
    if (folder?.isDir !== 1 || folder.deleted === 1 || folder.id === selfId) {
      throw fieldError('dir', 'Select a valid folder.');
    }
  }
}

/** Statements that make the campaign's live tokens exactly `wanted` (a full list from the form). */
function tokenStatements(env: Env, campaignId: number, existing: TokenRow[], wanted: ExtraTokenInput[]) {
  const db = getDb(env);
  const live = existing.filter((t) => t.deleted === 0);
  const keep = wanted.filter((t) => t.deleted === 0);
  const keptIds = new Set(keep.map((t) => t.extraTokenId).filter((id): id is number => id !== null));
  const statements = [];
  const now = Date.now();
  for (const token of live) {
    if (!keptIds.has(token.id)) {
      statements.push(
        db.update(extraTokens).set({ deleted: 1, updatedAt: now }).where(eq(extraTokens.id, token.id)),
      );
    }
  }
  const used = new Set(live.filter((t) => keptIds.has(t.id)).map((t) => t.slot));
  const free = () => {
    for (let slot = 1; slot <= MAX_EXTRA_TOKENS; slot++) {
      if (!used.has(slot)) {
        used.add(slot);
        return slot;
      }
    }
    throw fieldError('extratokens', M.tokensLimit);
  };
  for (const token of keep) {
    const values = {
      tokenName: token.token_name,
      parameter: token.parameter,
      urlAppend: token.url_append,
      landingPageEnabled: token.landing_page_enabled,
      offerPageEnabled: token.offer_page_enabled,
      updatedAt: now,
    };
    const current = token.extraTokenId ? live.find((t) => t.id === token.extraTokenId) : undefined;
    if (current) {
      statements.push(db.update(extraTokens).set(values).where(eq(extraTokens.id, current.id)));
    } else {
      statements.push(db.insert(extraTokens).values({ ...values, campaignId, slot: free() }));
    }
  }
  return statements;
}

export async function createCampaign(
  env: Env,
  user: AuthUser,
  input: AddCampaignInput,
): Promise<CampaignRow> {
  await checkCampaignRefs(env, user, input);
  const db = getDb(env);
  const row = await db
    .insert(campaigns)
    .values({ ...campaignValues(input), createdBy: user.id })
    .returning()
    .get();
  const statements = tokenStatements(env, row.id, [], input.extratokens ?? []);
  if (statements.length) {
    const [first, ...rest] = statements;
    await db.batch([first, ...rest]);
  }
  return row;
}

export async function updateCampaign(
  env: Env,
  user: AuthUser,
  input: EditCampaignInput,
): Promise<CampaignRow> {
  const current = await campaignForUser(env, user, input.campaignId);
  await checkCampaignRefs(env, user, input, current.id);
  const values = campaignValues(input);
  await assertMayDeactivate(env, current, values);
  const db = getDb(env);
  const statements = [];
  if (input.extratokens) {
    const existing = await db.select().from(extraTokens).where(eq(extraTokens.campaignId, current.id)).all();
    statements.push(...tokenStatements(env, current.id, existing, input.extratokens));
  }
  statements.push(...liveIntentListStatements(env, current.id, input));
  const update = db
    .update(campaigns)
    .set({ ...values, updatedAt: Date.now() })
    .where(eq(campaigns.id, current.id))
    .returning();
  const results = await db.batch([update, ...statements]);
  invalidateCompiledCampaign(current.id);
  return (results[0] as CampaignRow[])[0];
}
