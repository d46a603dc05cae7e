import {
  AccountManagementApi,
  ApiClient,
  InlineResponse200,
  ReportingApi,
} from 'tiktok-business-api-sdk-official';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakes } from './fakes.mjs';

// Contract: the official TikTok Business API SDK (tiktok-business-api-sdk-official, pinned in
// package.json) reads every answer the fake (fakes/platforms.js) gives for the calls the product
// makes (worker/integrations/tiktok/client.ts): the token check (/user/info/, core_user_id), the
// advertiser's currency and time zone (/advertiser/info/), the integrated report with page_info
// paging, and the error envelope (HTTP 200 with a code: 40105 expired token, 40100 throttled).
// If the SDK cannot read an answer, the fake is wrong (docs/decisions/145).

const SINCE = '2026-11-18';
const UNTIL = '2026-11-20';
let fakes;
let client;

beforeAll(async () => {
  fakes = await startFakes();
  client = new ApiClient();
  client.basePath = `${fakes.url}/tiktok`;
});
afterAll(() => fakes?.stop());

/** The SDK's callback as a promise: [error, data]. */
const settle = (start) =>
  new Promise((resolve) => {
    start((error, data) => resolve([error, data]));
  });

const userInfo = (token) =>
  settle((done) =>
    client.callApi(
      '/open_api/v1.3/user/info/',
      'GET',
      {},
      {},
      { 'Access-Token': token },
      {},
      null,
      [],
      [],
      ['application/json'],
      InlineResponse200,
      done,
    ),
  );

const report = (token, opts) =>
  settle((done) =>
    new ReportingApi(client).reportIntegratedGet(
      'BASIC',
      token,
      {
        advertiser_id: '7000000001',
        data_level: 'AUCTION_AD',
        dimensions: ['ad_id', 'stat_time_day'],
        metrics: ['ad_name', 'spend', 'impressions', 'clicks'],
        start_date: SINCE,
        end_date: UNTIL,
        filtering: [{ field_name: 'campaign_ids', filter_type: 'IN', filter_value: '["1780000000001"]' }],
        ...opts,
      },
      done,
    ),
  );

describe('TikTok Business API SDK against the fake', () => {
  it('reads the token check: the user is core_user_id', async () => {
    const [error, answer] = await userInfo('tt-token');
    expect(error).toBeNull();
    expect(answer.data.core_user_id).toMatch(/^\d{19}$/);
    expect(answer.data.display_name).toBe('Fake Marketer');
    expect(answer.request_id).toMatch(/^2026/);
  });

  it("reads the advertiser's currency and time zone", async () => {
    const [error, answer] = await settle((done) =>
      new AccountManagementApi(client).advertiserInfo(
        ['7000000001'],
        'tt-token',
        { fields: ['advertiser_id', 'currency', 'timezone', 'display_timezone'] },
        done,
      ),
    );
    expect(error).toBeNull();
    expect(answer.data.list).toEqual([
      expect.objectContaining({
        advertiser_id: '7000000001',
        currency: 'USD',
        timezone: 'UTC',
        display_timezone: 'UTC',
      }),
    ]);
  });

  it('reads the integrated report per day and ad across every page', async () => {
    const rows = [];
    let page = 1;
    let totalPage = 1;
    do {
      const [error, answer] = await report('tt-token', { page, page_size: 4 });
      expect(error).toBeNull();
      rows.push(...answer.data.list);
      totalPage = answer.data.page_info.total_page;
      expect(answer.data.page_info).toMatchObject({ page, page_size: 4, total_number: 9 });
      page += 1;
    } while (page <= totalPage);
    expect(totalPage).toBe(3);
    const expected = await fakes.expectedRows('tiktok', '1780000000001', SINCE, UNTIL);
    expect(
      rows.map((r) => ({
        date: r.dimensions.stat_time_day.slice(0, 10),
        ad_id: r.dimensions.ad_id,
        ad_name: r.metrics.ad_name,
        impressions: Number(r.metrics.impressions),
        clicks: Number(r.metrics.clicks),
        spend_micros: Math.round(Number(r.metrics.spend) * 1_000_000),
      })),
    ).toEqual(expected);
  });

  it('reads the error envelope: an expired token and throttling', async () => {
    const [expired] = await report('fail-401');
    expect(expired.message).toMatch(/message: The access token is invalid or has expired\. code: 40105$/);
    const [limited] = await report('fail-429');
    expect(limited.message).toMatch(/code: 40100$/);
    const [missing] = await report('tt-token', { advertiser_id: undefined });
    expect(missing.message).toMatch(/advertiser_id: Missing data for required field\. code: 40002$/);
  });
});
