import { and, eq, inArray } from 'drizzle-orm';
import { extraTokens, MAX_EXTRA_TOKENS } from '../../../schema/campaigns';
import templates from '../../../schema/data/token-templates.json';
import { OPERATION_MESSAGES as M, type TokenTemplate } from '../../../schema/pages-operations-api';
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

/**
 * The catalogue, one entry a traffic source, is data: schema/data/token-templates.json. The
 * ${NAME} macros there are MediaGo's and LiveIntent's; an empty url_append is a click id the
 * platform appends itself (fbclid, gclid, msclkid).
 */
export const TOKEN_TEMPLATES: TokenTemplate[] = templates;

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
