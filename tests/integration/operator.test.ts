import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dayInZone } from '../../schema/dates';
import type { TrackEvent } from '../../schema/tracking';
import { consumeOperator, enqueueOperatorRefresh } from '../../worker/jobs/operator';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { outbound } from '../../worker/services/operator/fan-out';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { writeCost } from '../factories/reports';
import { conversionEvent, visitEvent } from '../support/events';

// The operator's central service (spec 4 §7). The "student installations" are this test Worker
// reached through the outbound fetch: a.test and b.test answer with their own credentials,
// down.test refuses connections and slow.test never answers (the timeout is 400 ms here).

const OP = 'http://operator.test';
let token: string;
let campaignId: number;
const AT = Date.now() - 2 * 86_400_000;
const DAY = dayInZone(AT, 'America/New_York');
const RANGE = `start_date=${DAY}&end_date=${DAY}`;
const ids: Record<string, number> = {};
const hashes: Record<string, string> = {};

function op(path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) {
  return SELF.fetch(`${OP}/api/operator/${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      ...(init.token === null ? {} : { authorization: `Bearer ${init.token ?? token}` }),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
    redirect: 'manual',
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

const realFetch = outbound.fetch;
const calls: string[] = [];

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Alpha', campaignType: 'landing_page', cpc: '0.50' });
  const l = await makeLanding(token, campaignId, { name: 'L' });
  const o = await makeOffer(token, campaignId, { name: 'O', payout: '10' });
  const events: TrackEvent[] = [];
  for (let i = 0; i < 10; i++) events.push(visitEvent({ id: `v${i}`, c: campaignId, l, at: AT, tgt: 'A' }));
  for (let i = 0; i < 2; i++)
    events.push(conversionEvent({ id: `v${i}`, c: campaignId, l, o, at: AT + 1000 }));
  await ingestEvents(env, events);
  await writeCost(campaignId, 'sync', {
    date: DAY,
    target: 'A',
    impressions: 500,
    ad_clicks: 25,
    spend: 15_000_000,
  });

  outbound.fetch = async (input, init) => {
    const url = new URL(input);
    calls.push(url.host);
    if (url.host === 'down.test') throw new Error('connection refused');
    if (url.host === 'slow.test')
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    return SELF.fetch(`http://tracker.test${url.pathname}${url.search}`, init);
  };
});
afterAll(() => {
  outbound.fetch = realFetch;
});

async function credential(label: string) {
  const res = await api('/api/masterdashboard-credentials', { token, body: { label } });
  return res.body.data.credential as string;
}

describe('operator host', () => {
  it('serves /master-dashboard on every host: elsewhere the screen says where it lives', async () => {
    const elsewhere = await SELF.fetch('http://tracker.test/master-dashboard', { redirect: 'manual' });
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain('<div id="root">');
    const here = await SELF.fetch(`${OP}/master-dashboard`, { redirect: 'manual' });
    expect(here.status).toBe(200);
    expect(await here.text()).toContain('<div id="root">');
    expect((await api('/api/operator/status')).body.data).toEqual({ operator: false });
    expect((await op('status')).body.data).toEqual({ operator: true });
  });

  it('answers the central calls only on the operator host, to an admin or coach', async () => {
    expect((await api('/api/operator/students', { token })).status).toBe(404);
    expect((await op('students', { token: null })).status).toBe(401);
    const student = await userWithRole(token, 'student');
    expect((await op('students', { token: student.token })).status).toBe(403);
    const coach = await userWithRole(token, 'coach');
    expect((await op('students', { token: coach.token })).status).toBe(200);
    // The registry is the admin's.
    expect((await op('installations', { token: coach.token, body: { name: 'X' } })).status).toBe(403);
  });
});

describe('registry', () => {
  it('adds, edits and removes installations; credentials stored encrypted, never answered', async () => {
    const credA = await credential('operator A');
    const credB = await credential('operator B');
    for (const [key, domain, cred] of [
      ['a', 'http://a.test', credA],
      ['b', 'http://b.test', credB],
      ['down', 'http://down.test', 'mdk_nothing'],
      ['slow', 'http://slow.test', 'mdk_nothing'],
    ]) {
      const res = await op('installations', {
        body: { name: `Student ${key}`, domain: `${domain}/`, server: 's1', credential: cred },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.student).toEqual({
        id: expect.any(Number),
        name: `Student ${key}`,
        server: 's1',
        domain,
        id_hash: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
      ids[key] = res.body.data.student.id;
      hashes[key] = res.body.data.student.id_hash;
    }
    const stored = await env.DB.prepare('SELECT credential FROM student_installations WHERE id = ?1')
      .bind(ids.a)
      .first<{ credential: string }>();
    expect(stored!.credential.startsWith('enc:v1:')).toBe(true);
    expect(stored!.credential).not.toContain(credA.slice(4));

    const bad = await op('installations', { body: { name: 'X', domain: 'not a url', credential: 'c' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Enter the installation’s address, e.g. https://student.example.com.');
    const dup = await op('installations', { body: { name: 'X', domain: 'http://a.test', credential: 'c' } });
    expect(dup.body.message).toBe('An installation with this domain or student id hash already exists.');
    const noCred = await op('installations', { body: { name: 'X', domain: 'http://x.test' } });
    expect(noCred.body.message).toBe('Enter the installation’s master-dashboard credential.');

    const edited = await op(`installations/${ids.b}`, {
      method: 'PUT',
      body: { name: 'Student B renamed', domain: 'http://b.test', server: 's2' },
    });
    expect(edited.body.data.student).toMatchObject({
      name: 'Student B renamed',
      server: 's2',
      id_hash: hashes.b,
    });
    const temp = await op('installations', {
      body: { name: 'Temp', domain: 'http://temp.test', credential: 'c' },
    });
    expect((await op(`installations/${temp.body.data.student.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await op(`installations/${temp.body.data.student.id}`, { method: 'DELETE' })).status).toBe(404);
    const list = await op('students');
    expect(list.body.data.students.map((s: { name: string }) => s.name)).toEqual([
      'Student B renamed',
      'Student a',
      'Student down',
      'Student slow',
    ]);
    expect(JSON.stringify(list.body)).not.toContain('mdk_');
  });
});

describe('central calls', () => {
  const TOTAL = {
    ad_spend: 15,
    revenue: 20,
    net_profit: 5,
    roi: 33.33,
    conversions: 2,
    visits: 10,
    ad_clicks: 25,
    impressions: 500,
  };

  it('fans out in parallel: answers the students that answered and names the ones that did not', async () => {
    const started = Date.now();
    const res = await op('students-data', {
      body: { students: [hashes.a, hashes.down, hashes.slow, hashes.b], start_date: DAY, end_date: DAY },
    });
    const took = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body.data.students.map((s: { name: string }) => s.name)).toEqual([
      'Student B renamed',
      'Student a',
    ]);
    expect(res.body.data.students[1].total).toMatchObject(TOTAL);
    expect(res.body.data.unavailable).toEqual([
      { id_hash: hashes.down, name: 'Student down', domain: 'http://down.test', error: 'connection refused' },
      {
        id_hash: hashes.slow,
        name: 'Student slow',
        domain: 'http://slow.test',
        error: 'No answer within 400 ms.',
      },
    ]);
    // One timeout, not one per slow installation.
    expect(took).toBeLessThan(1500);
    const none = await op('students-data', { body: { students: [], start_date: DAY, end_date: DAY } });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Please select at least one student!');
  });

  it('answers a student’s campaigns, campaign data and total; a dead one is a 502 naming it', async () => {
    const campaigns = await op(`student-campaigns?student_id_hash=${hashes.a}&${RANGE}`);
    expect(campaigns.body.data.campaigns).toEqual([
      expect.objectContaining({ campaign_id: campaignId, name: 'Alpha', ...TOTAL }),
    ]);
    const data = await op(`campaign-data?student_id_hash=${hashes.a}&campaign_id=${campaignId}&${RANGE}`);
    expect(data.body.data.days).toEqual([
      expect.objectContaining({
        date: DAY,
        ad_spent: 15,
        revenue: 20,
        net_profit: 5,
        roi: 33.33,
        cpc: 1.5,
        cpa: 7.5,
        epc: 2,
        ad_ctr: 5,
      }),
    ]);
    const total = await op(`campaign-total?student_id_hash=${hashes.a}&campaign_id=${campaignId}&${RANGE}`);
    expect(total.body.data.total).toMatchObject(TOTAL);
    const dead = await op(`student-campaigns?student_id_hash=${hashes.down}&${RANGE}`);
    expect(dead.status).toBe(502);
    expect(dead.body.message).toBe('Student down (http://down.test) did not answer: connection refused');
  });

  it('sends a modify call to the student’s installation as the signed-in operator', async () => {
    const res = await op('modify/modify-revenue', {
      body: {
        student_id_hash: hashes.a,
        campaign_id: campaignId,
        revenue: '26',
        start_date: DAY,
        end_date: DAY,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.corrections).toEqual([
      expect.objectContaining({
        field: 'revenue',
        value: 26_000_000,
        source: 'operator',
        created_by: 'operator:owner',
      }),
    ]);
    const total = await op(`campaign-total?student_id_hash=${hashes.a}&campaign_id=${campaignId}&${RANGE}`);
    expect(total.body.data.total).toMatchObject({ revenue: 26, net_profit: 11, roi: 73.33 });
    await api('/api/masterdashboard/revert-correction', {
      body: { id: res.body.data.corrections[0].id },
      headers: {
        authorization: `Bearer ${await credential('undo')}`,
        'X-Master-Dashboard': 'edge-tracker-operator',
      },
    });
    const failed = await op('modify/modify-revenue', {
      body: { student_id_hash: hashes.down, campaign_id: 1, revenue: '1', start_date: DAY, end_date: DAY },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.data).toEqual({ status_code: 500, message: 'connection refused', corrections: [] });
    expect(failed.body.message).toBe('connection refused');
    const invalid = await op('modify/modify-revenue', {
      body: {
        student_id_hash: hashes.a,
        campaign_id: campaignId,
        revenue: 'x',
        start_date: DAY,
        end_date: DAY,
      },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.data.message).toBe('Amounts must be numbers of at least 0 with up to 6 decimals.');
  });
});

describe('the cache refresh', () => {
  function batch(bodies: unknown[]) {
    const messages = bodies.map((body) => ({ body, ack: vi.fn(), retry: vi.fn() }));
    return { batch: { queue: 'tracker-operator', messages } as unknown as MessageBatch<unknown>, messages };
  }
  const window = (id: number) => ({ installationId: id, from: DAY, to: DAY });
  const snapshot = () =>
    env.DB.prepare('SELECT * FROM student_daily ORDER BY installation_id, day')
      .all()
      .then((r) => r.results);

  it('refreshes one installation per message, retries a dead one, and is idempotent', async () => {
    const first = batch([window(ids.a), window(ids.b), window(ids.down)]);
    await consumeOperator(first.batch, env);
    expect(first.messages.map((m) => [m.ack.mock.calls.length, m.retry.mock.calls.length])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
    ]);
    const rows = await snapshot();
    expect(rows).toEqual([
      expect.objectContaining({
        installation_id: ids.a,
        day: DAY,
        visits: 10,
        spend_micros: 15_000_000,
        revenue_micros: 20_000_000,
      }),
      expect.objectContaining({ installation_id: ids.b, day: DAY, visits: 10, spend_micros: 15_000_000 }),
    ]);
    const again = batch([window(ids.a), window(ids.b)]);
    await consumeOperator(again.batch, env);
    expect(await snapshot()).toEqual(rows);

    const general = await op(`all-students-reports?${RANGE}`);
    expect(
      general.body.data.students.map(
        (s: { name: string; total: { ad_spend: number }; error: string | null }) => [
          s.name,
          s.total.ad_spend,
          s.error,
        ],
      ),
    ).toEqual([
      ['Student B renamed', 15, null],
      ['Student a', 15, null],
      ['Student down', 0, 'connection refused'],
      ['Student slow', 0, null],
    ]);
    expect(general.body.data.total).toMatchObject({
      ad_spend: 30,
      revenue: 40,
      net_profit: 10,
      roi: 33.33,
      conversions: 4,
    });
  });

  it('update-student-data refreshes one installation by domain for the given dates', async () => {
    await env.DB.prepare('DELETE FROM student_daily WHERE installation_id = ?1').bind(ids.a).run();
    const res = await op('update-student-data', {
      body: { domain: 'http://a.test', start_date: DAY, end_date: DAY },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ days: 1, total: TOTAL_A });
    const unknown = await op('update-student-data', {
      body: { domain: 'http://nobody.test', start_date: DAY, end_date: DAY },
    });
    expect(unknown.status).toBe(404);
  });

  it('the cron puts one message per installation on the operator queue', async () => {
    const send = vi.spyOn(env.OPERATOR_QUEUE, 'sendBatch');
    expect(await enqueueOperatorRefresh(env)).toBe(4);
    expect(send.mock.calls[0][0]).toHaveLength(4);
    send.mockRestore();
  });
});

const TOTAL_A = { ad_spend: 15, revenue: 20, net_profit: 5 };
