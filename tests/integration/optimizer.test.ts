import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import worker from '../../worker/index';
import { raiseSystemAlerts } from '../../worker/jobs/optimizer';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { makeCampaign, makeLanding } from '../factories/campaigns';
import { campaignAlerts, dbRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { writeCost } from '../factories/reports';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// The auto-optimiser through the real cron handler, on numbers seeded through the real ingest.

const token = await setupInstallation();
const AT = Date.UTC(2026, 10, 15, 15, 0);

/**
 * A landing page of the campaign named `name`, with `visits` visits, `lpClicks` LP clicks and
 * `conversions` conversions seeded through the real ingest (event ids start with `prefix`).
 */
async function seededLanding(
  campaignId: number,
  name: string,
  prefix: string,
  visits: number,
  conversions: number,
  { payout = 1_000_000, lpClicks = 0, at = AT }: { payout?: number; lpClicks?: number; at?: number } = {},
) {
  const landing = await makeLanding(token, campaignId, { name });
  const events: TrackEvent[] = [];
  for (let i = 0; i < visits; i++) {
    events.push(visitEvent({ id: `${prefix}${i}`, c: campaignId, l: landing, at, tgt: 't', cc: '', ua: '' }));
  }
  for (let i = 0; i < lpClicks; i++) {
    events.push(lpClickEvent({ id: `${prefix}${i}`, c: campaignId, l: landing, at: at + 1 }));
  }
  for (let i = 0; i < conversions; i++) {
    events.push(conversionEvent({ id: `${prefix}${i}`, c: campaignId, l: landing, at: at + 2, pay: payout }));
  }
  await ingestEvents(env, events);
  return landing;
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

async function optimizedCampaign(name: string, threshold: number, minVisits = 100, metric = 'cr') {
  const id = await makeCampaign(token, { name, campaignType: 'landing_page' });
  await env.DB.prepare(
    `UPDATE campaigns SET landing_pages_auto_optimized = 1, landing_pages_optimization_metric = ?4,
       landing_pages_optimization_threshold = ?2, landing_pages_optimization_min_visits = ?3,
       landing_pages_optimization_goal = 'conversion_rate' WHERE id = ?1`,
  )
    .bind(id, threshold, minVisits, metric)
    .run();
  return id;
}

/** Ad spend of the campaign's target 't' on a day, as entered in the costs form. */
const spend = (campaignId: number, date: string, micros: number) =>
  writeCost(campaignId, 'manual', { date, target: 't', spend: micros });

const reasons = async (campaignId: number) =>
  await dbRows('SELECT landing_id, reason FROM optimizer_log WHERE campaign_id = ?1 ORDER BY id', campaignId);

describe('landing-page auto-optimiser (cron)', () => {
  it('switches off the page below the threshold, logs it and raises an alert', async () => {
    const id = await optimizedCampaign('Optimised', 2);
    const good = await seededLanding(id, 'good', 'g', 200, 10); // 5 %
    const bad = await seededLanding(id, 'bad', 'b', 200, 2); // 1 % < 2 %
    const young = await seededLanding(id, 'young', 'y', 50, 0); // under the minimum visits: left alone
    await runCron();
    expect([await activeOf(good), await activeOf(bad), await activeOf(young)]).toEqual([1, 0, 1]);
    expect(
      await dbRows('SELECT landing_id, action, reason FROM optimizer_log WHERE campaign_id = ?1', id),
    ).toEqual([{ landing_id: bad, action: 'deactivated', reason: 'cr 1 below threshold 2' }]);
    const alerts = await campaignAlerts(id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
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
    const a = await seededLanding(id, 'a', 'la', 150, 3);
    const b = await seededLanding(id, 'b', 'lb', 150, 6);
    await runCron();
    expect([await activeOf(a), await activeOf(b)]).toEqual([0, 1]);
    await runCron();
    expect(await activeOf(b)).toBe(1);
  });

  it('switches off a page that loses significantly, and leaves campaigns without auto-optimisation alone', async () => {
    const id = await optimizedCampaign('Significance', 0);
    const weak = await seededLanding(id, 'weak', 'sw', 1000, 30);
    const strong = await seededLanding(id, 'strong', 'ss', 1000, 60);
    const manual = await makeCampaign(token, { name: 'Manual', campaignType: 'landing_page' });
    const m1 = await seededLanding(manual, 'm1', 'm1', 1000, 0);
    const m2 = await seededLanding(manual, 'm2', 'm2', 1000, 90);
    await runCron();
    expect([await activeOf(weak), await activeOf(strong)]).toEqual([0, 1]);
    expect([await activeOf(m1), await activeOf(m2)]).toEqual([1, 1]);
  });
});

describe('each metric, through the cron job over seeded rollups and costs', () => {
  // AT is 2026-11-15 in the installation's time zone (America/New_York).
  const DAY = '2026-11-15';

  it('roi: the issue 9 installation keeps both earning pages and switches off the losing one', async () => {
    // Three pages of 20 visits share $15 of spend by visits: about $5 each. Two earn $60 (two
    // conversions of $30), one earns nothing. ROI threshold 10, minimum 10 visits.
    const id = await optimizedCampaign('ROI', 10, 10, 'roi');
    const earnsA = await seededLanding(id, 'earns A', 'ra', 20, 2, { payout: 30_000_000 });
    const earnsB = await seededLanding(id, 'earns B', 'rb', 20, 2, { payout: 30_000_000 });
    const loses = await seededLanding(id, 'loses', 'rc', 20, 0);
    await spend(id, DAY, 15_000_000);
    await runCron();
    expect([await activeOf(earnsA), await activeOf(earnsB), await activeOf(loses)]).toEqual([1, 1, 0]);
    expect(await reasons(id)).toEqual([{ landing_id: loses, reason: 'roi -100 below threshold 10' }]);
  });

  it('roi: spend from the campaign CPC counts too, and a page with no spend and no revenue stays on', async () => {
    const id = await optimizedCampaign('ROI by CPC', 10, 10, 'roi');
    // $0.50 a visit where no cost row exists.
    await env.DB.prepare('UPDATE campaigns SET cpc_micros = 500000 WHERE id = ?1').bind(id).run();
    const earns = await seededLanding(id, 'earns', 'pa', 20, 1, { payout: 20_000_000 }); // $20 on $10: ROI 100
    const thin = await seededLanding(id, 'thin', 'pb', 20, 1, { payout: 10_500_000 }); // $10.50 on $10: ROI 5
    // The free page's visits fall on a day whose spend is entered as 0: no spend, no revenue.
    const free = await seededLanding(id, 'free', 'pc', 20, 0, { at: AT - 86_400_000 });
    await spend(id, '2026-11-14', 0);
    await runCron();
    expect([await activeOf(earns), await activeOf(thin), await activeOf(free)]).toEqual([1, 0, 1]);
    expect(await reasons(id)).toEqual([{ landing_id: thin, reason: 'roi 5 below threshold 10' }]);
  });

  it('cr: pages below the conversion rate go off', async () => {
    const id = await optimizedCampaign('CR', 3, 50, 'cr');
    const high = await seededLanding(id, 'high', 'ch', 100, 5); // 5 %
    const low = await seededLanding(id, 'low', 'cl', 100, 2); // 2 %
    await spend(id, DAY, 50_000_000);
    await runCron();
    expect([await activeOf(high), await activeOf(low)]).toEqual([1, 0]);
    expect(await reasons(id)).toEqual([{ landing_id: low, reason: 'cr 2 below threshold 3' }]);
  });

  it('lpctr: pages below the landing-page CTR go off', async () => {
    const id = await optimizedCampaign('LP CTR', 30, 50, 'lpctr');
    const clicked = await seededLanding(id, 'clicked', 'ctra', 100, 0, { lpClicks: 45 });
    const ignored = await seededLanding(id, 'ignored', 'ctrb', 100, 0, { lpClicks: 10 });
    const middling = await seededLanding(id, 'middling', 'ctrc', 100, 0, { lpClicks: 35 });
    await runCron();
    expect([await activeOf(clicked), await activeOf(ignored), await activeOf(middling)]).toEqual([1, 0, 1]);
    expect(await reasons(id)).toEqual([{ landing_id: ignored, reason: 'lpctr 10 below threshold 30' }]);
  });

  it('epc: pages below the earnings per visit (in dollars, as the editor takes it) go off', async () => {
    const id = await optimizedCampaign('EPC', 0.5, 50, 'epc');
    const rich = await seededLanding(id, 'rich', 'ea', 100, 4, { payout: 20_000_000 }); // $80 / 100 = $0.80
    const poor = await seededLanding(id, 'poor', 'eb', 100, 4, { payout: 5_000_000 }); // $20 / 100 = $0.20
    await spend(id, DAY, 30_000_000);
    await runCron();
    expect([await activeOf(rich), await activeOf(poor)]).toEqual([1, 0]);
    expect(await reasons(id)).toEqual([{ landing_id: poor, reason: 'epc 0.2 below threshold 0.5' }]);
  });
});

describe('system alerts', () => {
  it('raises one alert a day for spend without conversions and for failing postbacks', async () => {
    const id = await makeCampaign(token, { name: 'Burning', campaignType: 'direct_link' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(Date.now());
    await writeCost(id, 'manual', { date: today, target: 'x', spend: 150_000_000 });
    await env.DB.prepare(
      "INSERT INTO postback_log (conversion_id, campaign_id, click_id, status, updated_at) VALUES (999, ?1, 'c', 'failed', ?2)",
    )
      .bind(id, Date.now())
      .run();
    await raiseSystemAlerts(env, 'America/New_York');
    await raiseSystemAlerts(env, 'America/New_York');
    const alerts = await campaignAlerts(id);
    expect(alerts.map((a) => [a.type, a.message])).toEqual([
      ['postback', '1 postback to the traffic source failed in the last 24 hours.'],
      ['spend', '$150.00 spent over the last 7 days without a conversion.'],
    ]);
  });
});

describe('landing-page test reporting', () => {
  it('raises one alert per significant winner, only for campaigns with reporting on', async () => {
    const id = await makeCampaign(token, { name: 'Reported', campaignType: 'landing_page' });
    await env.DB.prepare('UPDATE campaigns SET enable_lp_test_reporting = 1 WHERE id = ?1').bind(id).run();
    await seededLanding(id, 'weak', 'rw', 1000, 100);
    await seededLanding(id, 'strong', 'rs', 1000, 130);
    const quiet = await makeCampaign(token, { name: 'Quiet', campaignType: 'landing_page' });
    await seededLanding(quiet, 'q1', 'q1', 1000, 100);
    await seededLanding(quiet, 'q2', 'q2', 1000, 130);
    await runCron();
    await runCron();
    const raised = await campaignAlerts(id);
    expect(raised.map((a) => [a.type, a.message])).toEqual([
      ['test', 'Landing page "strong" beats "weak" on conversion rate (p = 0.0355, 95 % confidence).'],
    ]);
    expect(await campaignAlerts(quiet)).toEqual([]);
  });
});
