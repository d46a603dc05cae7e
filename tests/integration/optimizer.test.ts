import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { raiseSystemAlerts } from '../../worker/jobs/optimizer';
import { writeCosts } from '../../worker/services/costs';
import { ingestEvents } from '../../worker/services/ingest';
import type { TrackEvent } from '../../worker/tracking/events';
import { makeCampaign, makeLanding, setupInstallation } from '../factories';

// The auto-optimiser through the real cron handler, on numbers seeded through the real ingest.

let token: string;
const AT = Date.UTC(2026, 10, 15, 15, 0);

async function seed(
  campaignId: number,
  landing: number,
  prefix: string,
  visits: number,
  conversions: number,
) {
  const events: TrackEvent[] = [];
  for (let i = 0; i < visits; i++) {
    events.push({
      k: 'v',
      id: `${prefix}${i}`,
      c: campaignId,
      p: 0,
      l: landing,
      o: 0,
      at: AT,
      tgt: 't',
      kw: '',
      dev: 'desktop',
      cc: '',
      ref: '',
      ua: '',
      f: null,
      d: 0,
      tok: {},
    });
  }
  for (let i = 0; i < conversions; i++) {
    events.push({
      k: 'c',
      id: `${prefix}${i}`,
      c: campaignId,
      p: 0,
      l: landing,
      o: 0,
      at: AT + 1,
      ev: null,
      tx: '',
      pay: 1_000_000,
      src: 'postback',
    });
  }
  await ingestEvents(env, events);
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

const activeOf = async (id: number) =>
  (await env.DB.prepare('SELECT active FROM landing_pages WHERE id = ?1')
    .bind(id)
    .first<{ active: number }>())!.active;

async function optimizedCampaign(name: string, threshold: number, minVisits = 100) {
  const id = await makeCampaign(token, { name, campaignType: 'landing_page' });
  await env.DB.prepare(
    `UPDATE campaigns SET landing_pages_auto_optimized = 1, landing_pages_optimization_metric = 'cr',
       landing_pages_optimization_threshold = ?2, landing_pages_optimization_min_visits = ?3,
       landing_pages_optimization_goal = 'conversion_rate' WHERE id = ?1`,
  )
    .bind(id, threshold, minVisits)
    .run();
  return id;
}

beforeAll(async () => {
  token = await setupInstallation();
});

describe('landing-page auto-optimiser (cron)', () => {
  it('switches off the page below the threshold, logs it and raises an alert', async () => {
    const id = await optimizedCampaign('Optimised', 2);
    const good = await makeLanding(token, id, { name: 'good' });
    const bad = await makeLanding(token, id, { name: 'bad' });
    const young = await makeLanding(token, id, { name: 'young' });
    await seed(id, good, 'g', 200, 10); // 5 %
    await seed(id, bad, 'b', 200, 2); // 1 % < 2 %
    await seed(id, young, 'y', 50, 0); // under the minimum visits: left alone
    await runCron();
    expect([await activeOf(good), await activeOf(bad), await activeOf(young)]).toEqual([1, 0, 1]);
    const log = await env.DB.prepare(
      'SELECT landing_id, action, reason FROM optimizer_log WHERE campaign_id = ?1',
    )
      .bind(id)
      .all();
    expect(log.results).toEqual([
      { landing_id: bad, action: 'deactivated', reason: 'cr 1 below threshold 2' },
    ]);
    const meta = JSON.parse(
      (await env.DB.prepare('SELECT metainfo FROM campaigns WHERE id = ?1')
        .bind(id)
        .first<{ metainfo: string }>())!.metainfo,
    );
    expect(meta.alerts).toHaveLength(1);
    expect(meta.alerts[0]).toMatchObject({
      type: 'optimizer',
      message: 'Auto-optimiser switched off landing page "bad": cr 1 below threshold 2.',
    });
    // A second tick changes nothing more.
    await runCron();
    expect(
      (await env.DB.prepare('SELECT count(*) n FROM optimizer_log WHERE campaign_id = ?1')
        .bind(id)
        .first<{ n: number }>())!.n,
    ).toBe(1);
  });

  it('never switches off the last active page, even when every page is below the threshold', async () => {
    const id = await optimizedCampaign('Last page', 50);
    const a = await makeLanding(token, id, { name: 'a' });
    const b = await makeLanding(token, id, { name: 'b' });
    await seed(id, a, 'la', 150, 3);
    await seed(id, b, 'lb', 150, 6);
    await runCron();
    expect([await activeOf(a), await activeOf(b)]).toEqual([0, 1]);
    await runCron();
    expect(await activeOf(b)).toBe(1);
  });

  it('switches off a page that loses significantly, and leaves campaigns without auto-optimisation alone', async () => {
    const id = await optimizedCampaign('Significance', 0);
    const weak = await makeLanding(token, id, { name: 'weak' });
    const strong = await makeLanding(token, id, { name: 'strong' });
    await seed(id, weak, 'sw', 1000, 30);
    await seed(id, strong, 'ss', 1000, 60);
    const manual = await makeCampaign(token, { name: 'Manual', campaignType: 'landing_page' });
    const m1 = await makeLanding(token, manual, { name: 'm1' });
    const m2 = await makeLanding(token, manual, { name: 'm2' });
    await seed(manual, m1, 'm1', 1000, 0);
    await seed(manual, m2, 'm2', 1000, 90);
    await runCron();
    expect([await activeOf(weak), await activeOf(strong)]).toEqual([0, 1]);
    expect([await activeOf(m1), await activeOf(m2)]).toEqual([1, 1]);
  });
});

describe('system alerts', () => {
  it('raises one alert a day for spend without conversions and for failing postbacks', async () => {
    const id = await makeCampaign(token, { name: 'Burning', campaignType: 'direct_link' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now());
    await writeCosts(
      env,
      id,
      'manual',
      [{ date: today, target: 'x', impressions: 0, ad_clicks: 0, spend: 150_000_000 }],
      null,
    );
    await env.DB.prepare(
      "INSERT INTO postback_log (conversion_id, campaign_id, click_id, status, updated_at) VALUES (999, ?1, 'c', 'failed', ?2)",
    )
      .bind(id, Date.now())
      .run();
    await raiseSystemAlerts(env, 'America/New_York');
    await raiseSystemAlerts(env, 'America/New_York');
    const meta = JSON.parse(
      (await env.DB.prepare('SELECT metainfo FROM campaigns WHERE id = ?1')
        .bind(id)
        .first<{ metainfo: string }>())!.metainfo,
    );
    expect(meta.alerts.map((a: { type: string; message: string }) => [a.type, a.message])).toEqual([
      ['postback', '1 postback to the traffic source failed in the last 24 hours.'],
      ['spend', '$150.00 spent over the last 7 days without a conversion.'],
    ]);
  });
});

describe('landing-page test reporting', () => {
  it('raises one alert per significant winner, only for campaigns with reporting on', async () => {
    const id = await makeCampaign(token, { name: 'Reported', campaignType: 'landing_page' });
    await env.DB.prepare('UPDATE campaigns SET enable_lp_test_reporting = 1 WHERE id = ?1').bind(id).run();
    const weak = await makeLanding(token, id, { name: 'weak' });
    const strong = await makeLanding(token, id, { name: 'strong' });
    await seed(id, weak, 'rw', 1000, 100);
    await seed(id, strong, 'rs', 1000, 130);
    const quiet = await makeCampaign(token, { name: 'Quiet', campaignType: 'landing_page' });
    const q1 = await makeLanding(token, quiet, { name: 'q1' });
    const q2 = await makeLanding(token, quiet, { name: 'q2' });
    await seed(quiet, q1, 'q1', 1000, 100);
    await seed(quiet, q2, 'q2', 1000, 130);
    await runCron();
    await runCron();
    const alerts = async (campaignId: number) =>
      JSON.parse(
        (await env.DB.prepare('SELECT metainfo FROM campaigns WHERE id = ?1')
          .bind(campaignId)
          .first<{ metainfo: string }>())!.metainfo,
      ).alerts ?? [];
    const raised = await alerts(id);
    expect(raised.map((a: { type: string; message: string }) => [a.type, a.message])).toEqual([
      ['test', 'Landing page "strong" beats "weak" on conversion rate (p = 0.0355, 95 % confidence).'],
    ]);
    expect(await alerts(quiet)).toEqual([]);
  });
});
