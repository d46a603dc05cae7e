import bizSdk from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakes } from './fakes.mjs';

// Contract: the official Facebook Business SDK (facebook-nodejs-business-sdk, pinned in
// package.json) reads every answer the fake (fakes/platforms.js) gives for the calls the product
// makes (worker/integrations/facebook/client.ts): the code and long-lived token exchanges, the
// token check, the campaign and ad account lookups, insights with cursor paging, the Conversions
// API test event, and errors with code, subcode, trace id and the throttling usage header. If the
// SDK cannot read an answer, the fake is wrong (docs/decisions/145).

const { AdAccount, Campaign, CustomData, EventRequest, FacebookAdsApi, ServerEvent, UserData } = bizSdk;
const SINCE = '2026-11-18';
const UNTIL = '2026-11-20';
let fakes;

beforeAll(async () => {
  fakes = await startFakes();
  // The SDK's only host setting is its GRAPH constant: point it at the fake (the SDK adds v24.0).
  Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => `${fakes.url}/facebook`, configurable: true });
});
afterAll(() => fakes?.stop());

const api = (token) => new FacebookAdsApi(token, 'en_US', false);

async function sdkError(promise) {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the SDK to throw');
}

describe('Facebook Business SDK against the fake', () => {
  it('reads the code exchange, the long-lived token exchange and the token check', async () => {
    const app = api('fake-app-id|fake-app-secret');
    const short = await app.call('GET', ['oauth', 'access_token'], {
      client_id: 'fake-app-id',
      client_secret: 'fake-app-secret',
      redirect_uri: 'http://tracker.test/integrations',
      code: 'code-123',
    });
    expect(short).toMatchObject({ token_type: 'bearer', expires_in: 5400 });
    expect(short.access_token).toMatch(/^EAAF/);
    const long = await app.call('GET', ['oauth', 'access_token'], {
      grant_type: 'fb_exchange_token',
      client_id: 'fake-app-id',
      client_secret: 'fake-app-secret',
      fb_exchange_token: short.access_token,
    });
    expect(long).toMatchObject({ token_type: 'bearer', expires_in: 5183944 });
    expect(long.access_token).toMatch(/^EAAL/);
    const check = await app.call('GET', ['debug_token'], { input_token: long.access_token });
    expect(check.data).toMatchObject({
      is_valid: true,
      type: 'USER',
      scopes: ['ads_read', 'ads_management'],
    });
    expect(check.data.expires_at).toBeGreaterThan(Date.now() / 1000);
  });

  it('reads a campaign and its ad account (currency, time zone)', async () => {
    const campaign = await new Campaign('120200000001', {}, undefined, api('tok')).get([
      'id',
      'name',
      'status',
      'account_id',
    ]);
    expect(campaign.id).toBe('120200000001');
    expect(campaign.name).toBe('Campaign 120200000001');
    expect(campaign.status).toBe('ACTIVE');
    expect(campaign.account_id).toMatch(/^\d{15}$/);
    const account = await new AdAccount('act_1234567890', {}, undefined, api('tok')).get([
      'currency',
      'timezone_name',
    ]);
    expect(account.currency).toBe('USD');
    expect(account.timezone_name).toBe('UTC');
  });

  it('reads insights per day and ad across every page of cursors', async () => {
    const cursor = await new Campaign('120200000002', {}, undefined, api('tok')).getInsights(
      ['ad_id', 'ad_name', 'impressions', 'clicks', 'spend'],
      { level: 'ad', time_increment: 1, time_range: { since: SINCE, until: UNTIL }, limit: 500 },
      true,
    );
    const rows = [...cursor];
    let pages = 1;
    while (cursor.hasNext()) {
      await cursor.next();
      rows.push(...cursor);
      pages += 1;
    }
    expect(pages).toBe(3);
    const expected = await fakes.expectedRows('facebook', '120200000002', SINCE, UNTIL);
    expect(
      rows.map((r) => ({
        date: r.date_start,
        ad_id: r.ad_id,
        ad_name: r.ad_name,
        impressions: Number(r.impressions),
        clicks: Number(r.clicks),
        spend_micros: Math.round(Number(r.spend) * 1_000_000),
      })),
    ).toEqual(expected);
  });

  it('sends a Conversions API test event and reads the answer', async () => {
    const event = new ServerEvent()
      .setEventName('Purchase')
      .setEventTime(Math.floor(Date.now() / 1000))
      .setActionSource('website')
      .setUserData(
        new UserData().setClientUserAgent('Edge Tracker conversion test').setClientIpAddress('127.0.0.1'),
      )
      .setCustomData(new CustomData().setCurrency('usd').setValue(0));
    const answer = await new EventRequest('tok', '987654321', [event], null, 'TEST123').execute();
    expect(answer.events_received).toBe(1);
    expect(answer.fbtrace_id).toMatch(/^A/);
  });

  it('reads errors with code, subcode and trace id, and the throttling wait from the usage header', async () => {
    const expired = await sdkError(
      new Campaign('120200000003', {}, undefined, api('fail-401-token')).get(['id']),
    );
    expect(expired.name).toBe('FacebookRequestError');
    expect(expired.response).toMatchObject({ code: 190, error_subcode: 463, type: 'OAuthException' });
    expect(expired.response.fbtrace_id).toMatch(/^A/);
    const missing = await sdkError(new Campaign('not-a-campaign', {}, undefined, api('tok')).get(['id']));
    expect(missing.response).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException' });
    const throttled = await sdkError(
      new Campaign('120200000003', {}, undefined, api('fail-429-token')).get(['id']),
    );
    expect(throttled.status).toBe(400);
    expect(throttled.response).toMatchObject({ code: 17, error_subcode: 2446079 });
    expect(throttled.headers['retry-after']).toBeUndefined();
    const usage = JSON.parse(throttled.headers['x-business-use-case-usage']);
    expect(Object.values(usage)[0][0]).toMatchObject({
      type: 'ads_insights',
      estimated_time_to_regain_access: 7,
    });
  });
});
