import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayInZone } from '../../schema/dates';
import { outbound } from '../../worker/services/operator/fan-out';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';
import { workerFetch } from '../worker-fetch';

// The operator's default installation domain (spec 3 §7, spec 4 §7; docs/decisions/175): a modify
// call that names no student and no domain goes to OPERATOR_DEFAULT_DOMAIN. The "installation"
// is this test Worker reached through the outbound fetch as http://home.test.

const DAY = dayInZone(Date.now() - 86_400_000, 'America/New_York');
let token: string;
let campaignId: number;
const realFetch = outbound.fetch;
const hosts: string[] = [];
const vars = env as unknown as { OPERATOR_DEFAULT_DOMAIN?: string };

function op(path: string, body: Record<string, unknown>) {
  return workerFetch(`http://operator.test/api/operator/${path}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Home campaign' });
  outbound.fetch = async (input, init) => {
    const url = new URL(input);
    hosts.push(url.host);
    return workerFetch(`http://tracker.test${url.pathname}${url.search}`, init);
  };
  const credential = (await api('/api/masterdashboard-credentials', { token, body: { label: 'home' } })).body
    .data.credential;
  const added = await op('installations', {
    name: 'Home',
    domain: 'http://home.test',
    server: 's1',
    credential,
  });
  expect(added.status).toBe(201);
});
afterAll(() => {
  outbound.fetch = realFetch;
  delete vars.OPERATOR_DEFAULT_DOMAIN;
});

const revenue = () => ({ campaign_id: campaignId, revenue: '7', start_date: DAY, end_date: DAY });

describe('modify calls without an installation', () => {
  it('are refused with the missing-student message while no default domain is set', async () => {
    delete vars.OPERATOR_DEFAULT_DOMAIN;
    const res = await op('modify/modify-revenue', revenue());
    expect(res.status).toBe(422);
    expect(res.body.errors.student_id_hash).toEqual(['Please select at least one student!']);
  });

  it('go to the default installation domain when one is set', async () => {
    vars.OPERATOR_DEFAULT_DOMAIN = 'http://home.test';
    hosts.length = 0;
    const res = await op('modify/modify-revenue', revenue());
    expect(res.status).toBe(200);
    expect(hosts).toEqual(['home.test']);
    expect(res.body.data.corrections).toEqual([
      expect.objectContaining({ campaign_id: campaignId, date: DAY, field: 'revenue', value: 7_000_000 }),
    ]);
  });

  it('go to the domain the call names rather than the default, and 404 for an unknown one', async () => {
    vars.OPERATOR_DEFAULT_DOMAIN = 'http://elsewhere.test';
    hosts.length = 0;
    const named = await op('modify/modify-adclicks', {
      campaign_id: campaignId,
      ad_clicks: '12',
      start_date: DAY,
      end_date: DAY,
      domain: 'http://home.test/',
    });
    expect(named.status).toBe(200);
    expect(hosts).toEqual(['home.test']);
    expect(named.body.data.corrections).toEqual([expect.objectContaining({ field: 'ad_clicks', value: 12 })]);
    const unknown = await op('modify/modify-revenue', revenue());
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Student installation not found.');
  });
});
