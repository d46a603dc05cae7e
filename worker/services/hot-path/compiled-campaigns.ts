import type { CampaignType, RedirectType } from '../../../schema/campaigns';
import type { Env } from '../../env';
import { type CompiledCampaign, DEFAULT_CLICK_ID_PARAM, offerClickIdParam } from './routing';
import { type Background, readHandle, SwrCache, type SwrSource } from './swr-cache';

// The hot path reads a campaign's routing as one row (one statement with JSON sub-selects)
// and keeps it in two cache levels, stale-while-revalidate: a click is answered from any copy
// there is and the copy is checked against the campaign's version in the background
// (docs/decisions/014-hot-path.md, 100). Unknown ids are cached too.

const MAX_ENTRIES = 2_000;
const cache = new SwrCache<CompiledCampaign | null>('campaign', MAX_ENTRIES);

const VERSION = 'coalesce((SELECT version FROM campaign_versions WHERE campaign = ?1), 0)';
const VERSION_SQL = `SELECT ${VERSION} AS version`;
const LIVE = 'campaign_id = c.id AND deleted = 0 AND active = 1';
const COMPILE_SQL = `SELECT c.id, c.campaign_type, c.active, c.custom_url, c.redirect_type, c.url_append_token,
  c.keyword_parameter, c.lp_target_param, c.op_target_param, c.affiliate_network, c.custom_conversion_goal,
  ${VERSION} AS version,
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
  version?: number;
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
function compileRow(row: Row): CompiledCampaign {
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

const sources = new WeakMap<D1Database, SwrSource<CompiledCampaign | null>>();

/** The cache's reads against this database, made once per binding rather than per click. */
function source(env: Pick<Env, 'DB'>): SwrSource<CompiledCampaign | null> {
  let made = sources.get(env.DB);
  if (made) return made;
  made = {
    async load(id, where) {
      const row = await readHandle(env.DB, where).prepare(COMPILE_SQL).bind(id).first<Row>();
      if (row) return { version: String(row.version ?? 0), value: compileRow(row) };
      // An unknown id: its version still says when a campaign with it appears.
      return { version: await readVersion(env, id, where), value: null };
    },
    version: (id) => readVersion(env, id, 'primary'),
  };
  sources.set(env.DB, made);
  return made;
}

async function readVersion(env: Pick<Env, 'DB'>, id: number, where: 'nearest' | 'primary') {
  const row = await readHandle(env.DB, where).prepare(VERSION_SQL).bind(id).first<{ version: number }>();
  return String(row?.version ?? 0);
}

/**
 * The campaign's routing, or null for an unknown, deleted or folder id: at once from a cached
 * copy (checked in the background through `bg`), else one D1 read.
 */
export function compiledCampaign(
  env: Pick<Env, 'DB'>,
  id: number,
  bg?: Background,
): CompiledCampaign | null | Promise<CompiledCampaign | null> {
  return cache.get(id, source(env), bg);
}

/**
 * After an edit in this isolate: its next click reads the campaign from D1 (and refreshes the
 * data centre's copy); other isolates see the new version within decision 100's bound.
 */
export function invalidateCompiledCampaign(id?: number): void {
  cache.invalidate(id);
}

/** For tests (tests/integration/routing-cache.test.ts): see SwrCache.simulate. */
export const campaignCacheForTests = cache;
