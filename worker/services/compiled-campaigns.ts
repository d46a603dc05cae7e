import type { CampaignType, RedirectType } from '../../schema/campaigns';
import type { Env } from '../env';
import { type CompiledCampaign, DEFAULT_CLICK_ID_PARAM, offerClickIdParam } from './routing';

// The hot path reads a campaign's routing as one row (one statement with JSON sub-selects)
// and keeps it in the isolate for a few seconds, unknown ids included, so a burst of clicks
// costs one D1 read per campaign per isolate per window (docs/decisions/014-hot-path.md).

const CACHE_MS = 5_000;
const MAX_ENTRIES = 2_000;
type Entry = { at: number; value: Promise<CompiledCampaign | null>; resolved?: CompiledCampaign | null };
const cache = new Map<number, Entry>();

const LIVE = 'campaign_id = c.id AND deleted = 0 AND active = 1';
const COMPILE_SQL = `SELECT c.id, c.campaign_type, c.active, c.custom_url, c.redirect_type, c.url_append_token,
  c.keyword_parameter, c.lp_target_param, c.op_target_param, c.affiliate_network, c.custom_conversion_goal,
  (SELECT json_group_array(json_array(id, share, agents)) FROM
    (SELECT id, share, agents FROM paths WHERE ${LIVE} ORDER BY id)) AS paths,
  (SELECT json_group_array(json_array(id, share, agents, path_id, url)) FROM
    (SELECT id, share, agents, coalesce(path_id, 0) AS path_id, url FROM landing_pages WHERE ${LIVE} ORDER BY id)) AS landings,
  (SELECT json_group_array(json_array(id, share, agents, path_id, option_id, url, postback_parameter)) FROM
    (SELECT id, share, agents, coalesce(path_id, 0) AS path_id, coalesce(option_id, 0) AS option_id, url,
      postback_parameter FROM offer_pages WHERE ${LIVE} ORDER BY id)) AS offers,
  (SELECT json_group_array(id) FROM (SELECT id FROM options WHERE ${LIVE} ORDER BY id)) AS options,
  (SELECT json_group_array(json_array(slot, parameter, landing_page_enabled, offer_page_enabled)) FROM
    (SELECT slot, parameter, landing_page_enabled, offer_page_enabled FROM extra_tokens
      WHERE campaign_id = c.id AND deleted = 0 ORDER BY slot)) AS tokens
FROM campaigns c WHERE c.id = ?1 AND c.deleted = 0 AND c.is_dir = 0`;

type Row = {
  id: number;
  campaign_type: CampaignType;
  active: number;
  custom_url: string;
  redirect_type: RedirectType;
  url_append_token: string;
  keyword_parameter: string;
  lp_target_param: string;
  op_target_param: string;
  affiliate_network: string;
  custom_conversion_goal: string;
  paths: string;
  landings: string;
  offers: string;
  options: string;
  tokens: string;
};

const agentIds = (list: string) =>
  list
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/** Builds the compiled routing from the campaign row. Exported for tests. */
export function compileRow(row: Row): CompiledCampaign {
  const paths = JSON.parse(row.paths) as [number, number, string][];
  const landings = JSON.parse(row.landings) as [number, number, string, number, string][];
  const offers = JSON.parse(row.offers) as [number, number, string, number, number, string, string][];
  const tokens = JSON.parse(row.tokens) as [number, string, number, number][];
  return {
    id: row.id,
    type: row.campaign_type,
    active: row.active === 1,
    customUrl: row.custom_url,
    redirectType: row.redirect_type,
    targetParam: row.url_append_token,
    keywordParam: row.keyword_parameter,
    lpClickIdParam: row.lp_target_param || DEFAULT_CLICK_ID_PARAM,
    offerClickIdParam: offerClickIdParam(row.op_target_param, row.affiliate_network),
    goal: row.custom_conversion_goal,
    paths: paths.map(([id, share, agents]) => ({ id, share, agents: agentIds(agents) })),
    landings: landings.map(([id, share, agents, pathId, url]) => ({
      id,
      share,
      agents: agentIds(agents),
      pathId,
      url,
    })),
    offers: offers.map(([id, share, agents, pathId, optionId, url, postbackParameter]) => ({
      id,
      share,
      agents: agentIds(agents),
      pathId,
      optionId,
      url,
      postbackParameter,
    })),
    options: JSON.parse(row.options) as number[],
    tokens: tokens.map(([slot, parameter, lp, offer]) => ({
      slot,
      parameter,
      toLanding: lp === 1,
      toOffer: offer === 1,
    })),
  };
}

/** The campaign's routing read now, bypassing the cache (the Tools dry run wants the latest edit). */
export async function loadCompiledCampaign(
  env: Pick<Env, 'DB'>,
  id: number,
): Promise<CompiledCampaign | null> {
  const row = await env.DB.prepare(COMPILE_SQL).bind(id).first<Row>();
  return row ? compileRow(row) : null;
}

/** The campaign's routing, or null for an unknown, deleted or folder id. Cached a few seconds. */
export function compiledCampaign(
  env: Pick<Env, 'DB'>,
  id: number,
  now = Date.now(),
): Promise<CompiledCampaign | null> {
  const hit = cache.get(id);
  if (hit && now - hit.at < CACHE_MS) return hit.value;
  const value = loadCompiledCampaign(env, id);
  const entry: Entry = { at: now, value };
  // A failed read is not cached: the next click tries again.
  value.then(
    (resolved) => {
      entry.resolved = resolved;
    },
    () => cache.delete(id),
  );
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as number);
  cache.set(id, entry);
  return value;
}

/** The cached routing without waiting: undefined when it is not loaded (or too old). */
export function peekCompiledCampaign(id: number, now = Date.now()): CompiledCampaign | null | undefined {
  const hit = cache.get(id);
  return hit && now - hit.at < CACHE_MS ? hit.resolved : undefined;
}

/** Drops a campaign's cached routing in this isolate (after an edit); others expire within seconds. */
export function invalidateCompiledCampaign(id?: number): void {
  if (id === undefined) cache.clear();
  else cache.delete(id);
}
