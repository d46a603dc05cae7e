import { and, desc, eq, inArray } from 'drizzle-orm';
import { campaigns } from '../../../schema/campaigns';
import { fromMicros } from '../../../schema/money';
import type { TestPostbackStatus } from '../../../schema/tools';
import { testClicks, testConversions } from '../../../schema/tools';
import {
  type DuplicateRule,
  TOOLS_MESSAGES as M,
  type TestClickAnswer,
  type TestClickInput,
  type TestConversionRow,
  type TrafficSourcePostback,
} from '../../../schema/tools-api';
import type { EventSource } from '../../../schema/tracking';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { getDb } from '../../lib/db';
import { campaignForUser, ownedBy } from '../campaigns/access';
import { trackingOrigin } from '../campaigns/tracking-origin';
import type { ParsedClickId } from '../hot-path/click-ids';
import { loadCompiledCampaign } from '../hot-path/compiled-campaigns';
import { type FetchLike, outboundFetch, outboundPolicy } from '../outbound/outbound';
import { buildPostbackUrl, POSTBACK_TIMEOUT_MS, unsafePostbackReason } from '../postbacks/postbacks';
import { getSettings } from '../settings/settings';
import { loadItems } from './candidates';
import { routeOnce, visitValues } from './link-test';

// Test clicks and their conversions (docs/decisions/061-test-clicks.md). A test click is a
// routed visit that is never queued: its row lives in test_clicks, its conversions, sent through
// the real postback route, in test_conversions. No statistic, rollup or export reads either.

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

export async function makeTestClick(
  env: Env,
  user: AuthUser,
  input: TestClickInput,
  requestOrigin: string,
): Promise<TestClickAnswer> {
  const row = await campaignForUser(env, user, input.campaignId);
  const [compiled, items, settings] = await Promise.all([
    loadCompiledCampaign(env, row.id),
    loadItems(env, row.id),
    getSettings(env),
  ]);
  if (!compiled) throw new Error('campaign vanished while making a test click');
  const device = input.device || 'desktop';
  const run = routeOnce(env, compiled, device, 0, null);
  const values = visitValues(compiled, null, input);
  await getDb(env)
    .insert(testClicks)
    .values({
      clickId: run.clickId,
      campaignId: row.id,
      pathId: run.pathId,
      landingId: run.landing?.id ?? 0,
      offerId: run.offer?.id ?? 0,
      target: values.target,
      keyword: values.keyword,
      device,
      country: input.country,
      tokens: JSON.stringify(values.tokens),
      createdBy: user.id,
      createdAt: Date.now(),
    });
  const name = (list: { id: number; name: string }[], id: number) =>
    list.find((i) => i.id === id)?.name ?? '';
  const offerRow = run.offer ? items.offers.find((o) => o.id === run.offer?.id) : undefined;
  const origin = trackingOrigin(settings, requestOrigin);
  let note = 'Send a conversion to it below, or give its postback URL to your network’s test tool.';
  if (!compiled.active)
    note =
      'The campaign is paused: its visits are not counted, but conversions still are, so this click takes them.';
  else if (run.route.kind === 'none')
    note = 'No page can serve this visitor: the click has no landing page or offer.';
  return {
    message: M.testClickMade,
    clickId: run.clickId,
    campaignId: row.id,
    path: run.pathId ? { id: run.pathId, name: name(items.paths, run.pathId) } : null,
    landing: run.landing ? { id: run.landing.id, name: name(items.landings, run.landing.id) } : null,
    offer: run.offer
      ? { id: run.offer.id, name: offerRow?.name ?? '', payout: fromMicros(offerRow?.payout_micros ?? 0) }
      : null,
    postbackUrl: `${origin}/${trim(settings.route_postback)}?clickid=${run.clickId}&payout={payout}&txid={txid}`,
    note,
  };
}

/** The real conversions' duplicate rule (worker/services/ingest/ingest.ts): transaction id, else event. */
export function duplicateRule(clickId: string, transactionId: string, event: string): DuplicateRule {
  return transactionId
    ? {
        rule: 'transaction',
        key: `${clickId}|t|${transactionId}`,
        description:
          'The same click id and transaction id count once: a repeated postback is not paid twice.',
      }
    : {
        rule: 'event',
        key: `${clickId}|e|${event}`,
        description: `No transaction id: the same click id and event (“${event}”) count once.`,
      };
}

type Facts = {
  goal: string;
  postback_enabled: number;
  postback: string;
  offer_id: number | null;
  landing_id: number | null;
  target: string | null;
  keyword: string | null;
  device: string | null;
  country: string | null;
  tokens: string | null;
  offer_payout: number | null;
};

/**
 * Records a conversion of a test click (called by the postback route). Answers null when the
 * campaign no longer exists; otherwise whether it was new or a duplicate, and its row id.
 */
export async function recordTestConversion(
  env: Pick<Env, 'DB'>,
  click: ParsedClickId,
  conversion: {
    event: string | null;
    transactionId: string;
    payoutMicros: number | null;
    source: EventSource;
  },
): Promise<{ id: number; duplicate: boolean } | null> {
  const facts = await env.DB.prepare(
    `SELECT c.custom_conversion_goal AS goal, c.postback_enabled, c.postback, t.offer_id, t.landing_id, t.target,
      t.keyword, t.device, t.country, t.tokens,
      (SELECT payout_micros FROM offer_pages WHERE id = coalesce(t.offer_id, ?3)) AS offer_payout
    FROM campaigns c LEFT JOIN test_clicks t ON t.click_id = ?2 WHERE c.id = ?1`,
  )
    .bind(click.campaignId, click.clickId, click.offerId)
    .first<Facts>();
  if (!facts) return null;
  const goal = facts.goal.toLowerCase();
  const event = (conversion.event ?? goal).toLowerCase();
  const isGoal = event === goal;
  const offerId = facts.offer_id ?? click.offerId;
  const payout = conversion.payoutMicros ?? (isGoal ? (facts.offer_payout ?? 0) : 0);
  let status: TestPostbackStatus = 'off';
  let url = '';
  if (!isGoal) status = 'not_goal';
  else if (facts.postback_enabled === 1 && facts.postback) {
    url = buildPostbackUrl(facts.postback, {
      clickId: click.clickId,
      payoutMicros: payout,
      target: facts.target ?? '',
      keyword: facts.keyword ?? '',
      transactionId: conversion.transactionId,
      event,
      campaignId: click.campaignId,
      offerId,
      landingId: facts.landing_id ?? click.landingId,
      country: facts.country ?? '',
      device: facts.device ?? '',
      tokens: JSON.parse(facts.tokens ?? '{}') as Record<string, string>,
    });
    status = unsafePostbackReason(url) ? 'blocked' : 'ready';
  }
  const now = Date.now();
  const saved = await env.DB.prepare(
    `INSERT INTO test_conversions (dedupe_key, click_id, campaign_id, offer_id, event, is_goal, transaction_id,
      payout_micros, source, postback_status, postback_url, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)
    ON CONFLICT (dedupe_key) DO UPDATE SET duplicates = duplicates + 1, updated_at = excluded.updated_at
    RETURNING id, duplicates`,
  )
    .bind(
      duplicateRule(click.clickId, conversion.transactionId, event).key,
      click.clickId,
      click.campaignId,
      offerId,
      event,
      isGoal ? 1 : 0,
      conversion.transactionId,
      payout,
      conversion.source,
      status,
      url.slice(0, 2000),
      now,
    )
    .first<{ id: number; duplicates: number }>();
  if (!saved) return null;
  return { id: saved.id, duplicate: saved.duplicates > 0 };
}

type ConversionJoin = typeof testConversions.$inferSelect & { campaignName: string };

function conversionAnswer(row: ConversionJoin): TestConversionRow {
  return {
    id: row.id,
    campaignId: row.campaignId,
    campaignName: row.campaignName,
    clickId: row.clickId,
    event: row.event,
    isGoal: row.isGoal,
    transactionId: row.transactionId,
    payout: fromMicros(row.payoutMicros),
    source: row.source,
    duplicates: row.duplicates,
    postbackStatus: row.postbackStatus as TestPostbackStatus | '',
    postbackUrl: row.postbackUrl,
    postbackResponse: row.postbackResponse,
    createdAt: row.createdAt,
  };
}

const selection = {
  id: testConversions.id,
  dedupeKey: testConversions.dedupeKey,
  clickId: testConversions.clickId,
  campaignId: testConversions.campaignId,
  offerId: testConversions.offerId,
  event: testConversions.event,
  isGoal: testConversions.isGoal,
  transactionId: testConversions.transactionId,
  payoutMicros: testConversions.payoutMicros,
  source: testConversions.source,
  duplicates: testConversions.duplicates,
  postbackStatus: testConversions.postbackStatus,
  postbackUrl: testConversions.postbackUrl,
  postbackResponse: testConversions.postbackResponse,
  createdAt: testConversions.createdAt,
  updatedAt: testConversions.updatedAt,
  campaignName: campaigns.name,
};

/** The test conversions of the campaigns `user` manages, newest first (at most 200). */
export async function listTestConversions(env: Env, user: AuthUser, campaignId: number | null) {
  if (campaignId) await campaignForUser(env, user, campaignId, { allowDeleted: true });
  const rows = await getDb(env)
    .select(selection)
    .from(testConversions)
    .innerJoin(campaigns, eq(campaigns.id, testConversions.campaignId))
    .where(and(ownedBy(user), campaignId ? eq(testConversions.campaignId, campaignId) : undefined))
    .orderBy(desc(testConversions.id))
    .limit(200)
    .all();
  return rows.map(conversionAnswer);
}

export async function testConversionById(env: Env, id: number): Promise<TestConversionRow | null> {
  const row = await getDb(env)
    .select(selection)
    .from(testConversions)
    .innerJoin(campaigns, eq(campaigns.id, testConversions.campaignId))
    .where(eq(testConversions.id, id))
    .get();
  return row ? conversionAnswer(row) : null;
}

/** Deletes the test conversions and test clicks of the campaigns `user` manages (or of one). */
export async function clearTestConversions(env: Env, user: AuthUser, campaignId: number | null) {
  let ids: number[];
  if (campaignId) ids = [(await campaignForUser(env, user, campaignId, { allowDeleted: true })).id];
  else {
    const owned = await getDb(env).select({ id: campaigns.id }).from(campaigns).where(ownedBy(user)).all();
    ids = owned.map((r) => r.id);
  }
  let deleted = 0;
  const db = getDb(env);
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    const [conversions] = await db.batch([
      db
        .delete(testConversions)
        .where(inArray(testConversions.campaignId, part))
        .returning({ id: testConversions.id }),
      db.delete(testClicks).where(inArray(testClicks.campaignId, part)),
    ]);
    deleted += conversions.length;
  }
  return { deleted, message: M.cleared };
}

const POSTBACK_MESSAGES: Record<TestPostbackStatus, string> = {
  off: 'Postbacks to the traffic source are off for this campaign (campaign editor, Basic tab).',
  not_goal: 'Only the campaign’s goal event sends a postback to the traffic source.',
  blocked: 'The postback URL is refused: it must be a public http or https address.',
  ready: 'Not sent: tick “Send it to the traffic source” to call it.',
  sent: 'Sent: the traffic source answered.',
  failed: 'Sent, but the traffic source did not accept it.',
};

/** What the traffic-source postback of a test conversion did; sends it when asked. */
export async function trafficSourcePostback(
  env: Env,
  row: TestConversionRow,
  duplicate: boolean,
  send: boolean,
  fetcher: typeof fetch = fetch,
): Promise<TrafficSourcePostback> {
  if (duplicate) {
    return { status: 'duplicate', url: '', message: 'A duplicate sends no postback.', responseStatus: null };
  }
  let status = row.postbackStatus || 'off';
  let responseStatus: number | null = null;
  let message = POSTBACK_MESSAGES[status];
  if (status === 'blocked') message = `${message} (${unsafePostbackReason(row.postbackUrl) ?? 'refused'})`;
  if (send && (status === 'ready' || status === 'failed' || status === 'sent')) {
    // Checked again here, by address: a name that passed the save-time check may point inward.
    const answer = await outboundFetch(row.postbackUrl, outboundPolicy(env), {
      fetcher: fetcher as FetchLike,
      headers: { 'user-agent': 'EdgeTracker-Postback/1.0' },
      timeoutMs: POSTBACK_TIMEOUT_MS,
      maxRedirects: 0,
      maxBytes: 0,
    });
    responseStatus = answer.ok ? answer.status : null;
    // A redirect is an answer, as for real postbacks: redirects are never followed.
    if (!answer.ok && answer.kind === 'refused') {
      status = 'blocked';
      message = `${POSTBACK_MESSAGES.blocked} (${answer.reason})`;
    } else {
      status = responseStatus !== null && responseStatus < 400 ? 'sent' : 'failed';
      const error = answer.ok
        ? ''
        : answer.kind === 'timeout'
          ? 'no answer within 5 s'
          : answer.kind === 'unresolved'
            ? `its host could not be resolved (${answer.reason})`
            : 'it could not be reached';
      message =
        status === 'sent'
          ? `Sent: the traffic source answered HTTP ${responseStatus}.`
          : `Not delivered: ${error || `the traffic source answered HTTP ${responseStatus}`}.`;
    }
    await env.DB.prepare(
      'UPDATE test_conversions SET postback_status = ?2, postback_response = ?3, updated_at = ?4 WHERE id = ?1',
    )
      .bind(row.id, status, responseStatus, Date.now())
      .run();
  }
  return { status, url: row.postbackUrl, message, responseStatus };
}
