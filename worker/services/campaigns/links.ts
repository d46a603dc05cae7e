import { asc, eq } from 'drizzle-orm';
import { extraTokens, options } from '../../../schema/campaigns';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { hasLiveIntentAccount } from '../liveintent/access';
import { liveIntentLists } from '../liveintent/editor-lists';
import { expectedSecret } from '../postbacks/postback-secret';
import { getSettings, type Settings } from '../settings/settings';
import { encodeMacroValue, targetValue } from '../tools/source-macros';
import { blazeDetail, jeengDetail } from '../traffic/detail';
import { type CampaignRow, campaignForUser, type OptionRow, type TokenRow } from './access';
import { campaignAnswer, optionAnswer, tokenAnswer } from './answers';
import { listAgents, listLandings, listOffers, listPaths } from './lists';

// A campaign's tracking links and pixels, and the editor's whole campaign (spec 2 §3).

import { trackingOrigin } from './tracking-origin';

export { trackingOrigin };

const route = (value: string) => value.replace(/^\/+|\/+$/g, '');

/** The links-and-pixels data of a campaign (spec 2 §3 linkpixel; docs/tracking.md). */
function linkPixel(
  settings: Settings,
  requestOrigin: string,
  campaign: CampaignRow,
  tokens: TokenRow[],
  optionRows: OptionRow[],
  secret: string,
) {
  const origin = trackingOrigin(settings, requestOrigin);
  // Every conversion URL carries the postback secret (docs/tracking.md "Postback secret").
  const sec = secret ? `&secret=${encodeURIComponent(secret)}` : '';
  const id = campaign.id;
  // The target parameter carries the source's macro or a placeholder, never '' (issue 27).
  const target = targetValue(campaign.trafficSource, campaign.urlAppendToken);
  let campaignURL = `${origin}/${route(settings.route_main)}/${id}?${encodeURIComponent(campaign.urlAppendToken)}=${encodeMacroValue(target)}`;
  for (const token of tokens.filter((t) => t.deleted === 0 && t.urlAppend)) {
    campaignURL += `&${encodeURIComponent(token.parameter)}=${token.urlAppend}`;
  }
  const click = `${origin}/${route(settings.route_click)}/${id}`;
  const image = `${origin}/${route(settings.route_image)}`;
  const iframe = `${origin}/${route(settings.route_iframe)}`;
  const script = `${origin}/${route(settings.route_script)}`;
  return {
    campaignURL,
    lpofferlink_simple: click,
    lpofferlink_options: optionRows
      .filter((o) => o.deleted === 0)
      .map((o) => ({ optionId: o.id, name: o.name, url: `${click}?option=${o.id}` })),
    postback: `${origin}/${route(settings.route_postback)}?clickid={clickid}&payout={payout}&txid={txid}${sec}`,
    postback_event: `${origin}/${route(settings.route_postback)}?clickid={clickid}&event={event}&payout={payout}${sec}`,
    pixel: `<img src="${image}?campaign=${id}${sec.replace('&', '&amp;')}" width="1" height="1" alt="" style="display:none">`,
    pixel_url: `${image}?campaign=${id}${sec}`,
    iframe: `<iframe src="${iframe}?campaign=${id}${sec.replace('&', '&amp;')}" width="1" height="1" frameborder="0" style="display:none"></iframe>`,
    script: `<script src="${script}?campaign=${id}${sec.replace('&', '&amp;')}" async></script>`,
    direct_tracking: `<script>(function(d){var s=d.createElement('script');s.async=true;s.src='${script}?mode=visit&campaign=${id}&lp=LANDING_PAGE_ID&_ref='+encodeURIComponent(d.referrer)+(location.search?'&'+location.search.slice(1):'');d.head.appendChild(s);})(document);</script>`,
  };
}

/** A campaign's extra tokens (by slot) and options (by id), in one batch. */
function tokensAndOptions(env: Env, campaignId: number) {
  const db = getDb(env);
  return db.batch([
    db
      .select()
      .from(extraTokens)
      .where(eq(extraTokens.campaignId, campaignId))
      .orderBy(asc(extraTokens.slot)),
    db.select().from(options).where(eq(options.campaignId, campaignId)).orderBy(asc(options.id)),
  ]);
}

/**
 * The links and pixels of one campaign alone (spec 1 §7 resource path `linkpixel`): the same
 * data the campaign detail carries, derived from the settings, so nothing is stored for them.
 */
export async function campaignLinkPixel(env: Env, user: AuthUser, campaignId: number, requestOrigin: string) {
  return (await campaignLinks(env, user, campaignId, requestOrigin)).linkpixel;
}

/** The campaign (when the user may see it), the settings, its tokens and options, and its links. */
async function campaignLinks(env: Env, user: AuthUser, campaignId: number, requestOrigin: string) {
  const campaign = await campaignForUser(env, user, campaignId);
  const settings = await getSettings(env);
  const [tokenRows, optionRows] = await tokensAndOptions(env, campaign.id);
  const secret = await expectedSecret(env, campaign.id);
  const linkpixel = linkPixel(settings, requestOrigin, campaign, tokenRows, optionRows, secret);
  return { campaign, settings, tokenRows, optionRows, linkpixel };
}

export async function campaignDetail(env: Env, user: AuthUser, campaignId: number, requestOrigin: string) {
  const { campaign, settings, tokenRows, optionRows, linkpixel } = await campaignLinks(
    env,
    user,
    campaignId,
    requestOrigin,
  );
  const origin = trackingOrigin(settings, requestOrigin);
  return {
    ...campaignAnswer(campaign),
    currentDomain: origin,
    customDomain: settings.custom_domain,
    // The manage-liveintent screen reads these two for its access rules (spec 4 §7).
    campaign: { campaignId: campaign.id, name: campaign.name, trafficSource: campaign.trafficSource },
    hasLiveIntentAccount: await hasLiveIntentAccount(env),
    ...(await liveIntentLists(env, campaign.id, campaign.createdBy)),
    optimizationMetrics: [],
    ...(await blazeDetail(env, campaign.id)),
    ...(await jeengDetail(env, campaign)),
    landing: await listLandings(env, campaign.id),
    offer: await listOffers(env, campaign.id),
    path: await listPaths(env, campaign.id),
    option: optionRows.map(optionAnswer),
    agents: await listAgents(env),
    linkpixel,
    extratokens: tokenRows.filter((t) => t.deleted === 0).map(tokenAnswer),
  };
}
