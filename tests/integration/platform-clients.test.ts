import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  accountTerms,
  adInsights,
  exchangeCode,
  facebookAuthUrl,
  getCampaign,
  longLivedToken,
  sendTestEvent,
  tokenStatus,
} from '../../worker/integrations/facebook/client';
import * as liveintent from '../../worker/integrations/liveintent/client';
import * as mediago from '../../worker/integrations/mediago/client';
import * as taboola from '../../worker/integrations/taboola/client';
import * as tiktok from '../../worker/integrations/tiktok/client';
import { asAdDays, expectedRows, failure, scenario } from '../support/platform-fakes';

// Each client against its fake (fakes/platforms.js): the happy path with the fake's exact
// numbers, the platform's own error answers, 429 with Retry-After, a 5xx, a timeout (the fake's
// `slow` answers after 15 s; the tests' PLATFORM_TIMEOUT_MS is 1 s) and a malformed body.

const SINCE = '2026-11-18';
const UNTIL = '2026-11-20';

describe('Facebook client', () => {
  it('builds the login dialog URL from configuration', () => {
    const url = new URL(facebookAuthUrl(env, 'http://tracker.test/integrations', 'state-1'));
    // The Graph version is the one of worker/integrations/facebook/version.ts, not the configured one.
    expect(`${url.origin}${url.pathname}`).toBe('http://fakes.test/facebook/v26.0/dialog/oauth');
    expect(url.searchParams.get('client_id')).toBe('fake-app-id');
    expect(url.searchParams.get('redirect_uri')).toBe('http://tracker.test/integrations');
    expect(url.searchParams.get('state')).toBe('state-1');
    expect(url.searchParams.get('scope')).toBe('ads_read,ads_management,business_management');
  });

  it('exchanges a code for a short-lived token, trades it for a long-lived one and reads its status', async () => {
    const short = await exchangeCode(env, 'code-123', 'http://tracker.test/integrations');
    expect(short.accessToken).toMatch(/^EAAF/);
    expect(short.expiresAt).toBeLessThan(Date.now() + 2 * 3_600_000);
    const token = await longLivedToken(env, short.accessToken);
    expect(token.accessToken).toMatch(/^EAAL/);
    expect(token.expiresAt).toBeGreaterThan(Date.now() + 59 * 86_400_000);
    const refused = await failure(longLivedToken(env, 'expired-short-token'));
    expect(refused).toMatchObject({ kind: 'auth', code: 190 });
    const status = await tokenStatus(env, token.accessToken);
    expect(status).toMatchObject({ valid: true, scopes: ['ads_read', 'ads_management'] });
    expect((await tokenStatus(env, 'expired-but-asked-by-app')).valid).toBe(false);
  });

  it("maps a refused code to Facebook's own message", async () => {
    const err = await failure(exchangeCode(env, 'bad-code', 'http://tracker.test/integrations'));
    expect(err.kind).toBe('request');
    expect(err.status).toBe(400);
    expect(err.code).toBe(100);
    expect(err.detail).toBe('Invalid verification code format.');
    expect(err.traceId).toMatch(/^A/);
    expect(err.retryable).toBe(false);
  });

  it('looks a campaign up, and answers null for an id Facebook does not know', async () => {
    expect(await getCampaign(env, 'tok', '120200000001')).toMatchObject({
      id: '120200000001',
      name: 'Campaign 120200000001',
      status: 'ACTIVE',
    });
    expect(await getCampaign(env, 'tok', 'not-a-campaign')).toBeNull();
  });

  it('reads insights per day and ad across every page of cursors', async () => {
    const rows = await adInsights(env, 'tok', '120200000002', SINCE, UNTIL);
    // 3 days x 3 ads; the fake answers at most 4 rows a page, so three pages are followed
    expect(rows).toEqual(asAdDays(await expectedRows('facebook', '120200000002', SINCE, UNTIL)));
    expect(rows).toHaveLength(9);
    expect(new Set(rows.map((r) => r.date))).toEqual(new Set(['2026-11-18', '2026-11-19', '2026-11-20']));
  });

  it("reads the ad account's currency and time zone", async () => {
    expect(await accountTerms(env, 'tok', '1234567890')).toEqual({ currency: 'USD', timeZone: 'UTC' });
    await scenario('act_555000111', { currency: 'EUR', timezone: 'Europe/Berlin' });
    expect(await accountTerms(env, 'tok', 'act_555000111')).toEqual({
      currency: 'EUR',
      timeZone: 'Europe/Berlin',
    });
  });

  it('sends a Conversions API test event', async () => {
    expect(await sendTestEvent(env, 'tok', '987654321', 'TEST123')).toMatchObject({ eventsReceived: 1 });
    const err = await failure(sendTestEvent(env, 'tok', 'not-a-dataset', 'TEST123'));
    expect(err.kind).toBe('request');
    expect(err.detail).toContain("Object with ID 'not-a-dataset' does not exist");
  });

  it('maps an expired token, throttling (wait from X-Business-Use-Case-Usage), 500, a timeout and a malformed body', async () => {
    const expired = await failure(adInsights(env, 'fail-401-token', '120200000003', SINCE, UNTIL));
    expect(expired).toMatchObject({ kind: 'auth', status: 401, code: 190, retryable: false });
    expect(expired.message).toBe(
      'Facebook: Error validating access token: Session has expired on Monday, 23-Nov-26 10:00:00 PST.',
    );
    const limited = await failure(adInsights(env, 'fail-429-token', '120200000003', SINCE, UNTIL));
    // Facebook throttles with HTTP 400 and code 17, and says the wait in minutes in the usage header.
    expect(limited).toMatchObject({
      kind: 'rate_limit',
      status: 400,
      retryAfterSeconds: 7 * 60,
      code: 17,
      retryable: true,
    });
    const broken = await failure(adInsights(env, 'fail-500-token', '120200000003', SINCE, UNTIL));
    expect(broken).toMatchObject({ kind: 'server', status: 500, retryable: true });
    const slow = await failure(adInsights(env, 'slow-token', '120200000003', SINCE, UNTIL));
    expect(slow).toMatchObject({ kind: 'timeout', retryable: true, detail: 'No answer within 1 s.' });
    const malformed = await failure(adInsights(env, 'malformed-token', '120200000003', SINCE, UNTIL));
    expect(malformed).toMatchObject({ kind: 'malformed', retryable: false });
  });
});

describe('TikTok client', () => {
  it('reads the ad report per day and ad', async () => {
    const rows = await tiktok.adReport(env, 'tt-token', '7000000001', '1780000000001', SINCE, UNTIL);
    expect(rows).toEqual(asAdDays(await expectedRows('tiktok', '1780000000001', SINCE, UNTIL)));
    expect(rows).toHaveLength(9);
    const user = await tiktok.tokenUser(env, 'tt-token');
    expect(user.displayName).toBe('Fake Marketer');
    expect(user.id).toMatch(/^\d{19}$/);
    expect(await tiktok.advertiserTerms(env, 'tt-token', '7000000001')).toEqual({
      currency: 'USD',
      timeZone: 'UTC',
    });
  });

  it('reads the error envelope (HTTP 200 with a code) and the failure modes', async () => {
    const expired = await failure(tiktok.adReport(env, 'fail-401', '7000000001', '1', SINCE, UNTIL));
    expect(expired).toMatchObject({ kind: 'auth', status: 200, code: 40105 });
    expect(expired.detail).toBe('The access token is invalid or has expired.');
    expect(expired.traceId).toMatch(/^2026/);
    const missing = await failure(tiktok.adReport(env, 'tt-token', '', '1', SINCE, UNTIL));
    expect(missing).toMatchObject({ kind: 'request', code: 40002 });
    const limited = await failure(tiktok.adReport(env, 'fail-429', '7000000001', '1', SINCE, UNTIL));
    expect(limited).toMatchObject({ kind: 'rate_limit', status: 200, retryAfterSeconds: null, code: 40100 });
    const broken = await failure(tiktok.adReport(env, 'fail-500', '7000000001', '1', SINCE, UNTIL));
    expect(broken).toMatchObject({ kind: 'server', status: 500, code: 50000 });
    expect((await failure(tiktok.adReport(env, 'slow', '7000000001', '1', SINCE, UNTIL))).kind).toBe(
      'timeout',
    );
    expect((await failure(tiktok.adReport(env, 'malformed', '7000000001', '1', SINCE, UNTIL))).kind).toBe(
      'malformed',
    );
  });
});

describe('Taboola client', () => {
  it('gets a client-credentials token and reads the item report day by day', async () => {
    const token = await taboola.clientToken(env, 'client-1', 'secret-1');
    expect(token).toMatch(/^tb-/);
    const { accountId } = await taboola.currentAccount(env, token);
    expect(accountId).toMatch(/^fake-advertiser-/);
    const { rows, currency, timeZone } = await taboola.itemDayReport(
      env,
      token,
      accountId,
      '4400001',
      SINCE,
      UNTIL,
    );
    expect({ currency, timeZone }).toEqual({ currency: 'USD', timeZone: 'UTC' });
    const expected = asAdDays(await expectedRows('taboola', '4400001', SINCE, UNTIL));
    const byKey = (r: { date: string; adId: string }) => `${r.date}/${r.adId}`;
    expect([...rows].sort((a, b) => byKey(a).localeCompare(byKey(b)))).toEqual(
      [...expected].sort((a, b) => byKey(a).localeCompare(byKey(b))),
    );
  });

  it("maps refused credentials and the platform's errors", async () => {
    const refused = await failure(taboola.clientToken(env, 'client-1', 'bad-secret'));
    expect(refused).toMatchObject({ kind: 'auth', status: 401, detail: 'Bad client credentials' });
    const expired = await failure(taboola.currentAccount(env, 'fail-401'));
    expect(expired).toMatchObject({ kind: 'auth', detail: 'Token expired or invalid' });
    const limited = await failure(taboola.itemDayReport(env, 'tok', 'acc', 'fail-429', SINCE, SINCE));
    expect(limited).toMatchObject({ kind: 'rate_limit', retryAfterSeconds: 7 });
    expect((await failure(taboola.itemDayReport(env, 'tok', 'acc', 'fail-500', SINCE, SINCE))).kind).toBe(
      'server',
    );
    expect((await failure(taboola.itemDayReport(env, 'tok', 'acc', 'slow', SINCE, SINCE))).kind).toBe(
      'timeout',
    );
    expect((await failure(taboola.itemDayReport(env, 'tok', 'acc', 'malformed', SINCE, SINCE))).kind).toBe(
      'malformed',
    );
  });
});

describe('MediaGo client', () => {
  it('exchanges the API token and reads the report per day and ad in the time zone asked', async () => {
    const rows = await mediago.adReport(env, 'bWctdG9rZW4=', '55001', SINCE, UNTIL, 'America/New_York');
    expect(rows).toEqual(
      asAdDays(await expectedRows('mediago', '55001', SINCE, UNTIL)).map((r) => ({
        ...r,
        timeZone: 'America/New_York',
      })),
    );
  });

  it('maps its errors', async () => {
    expect(await failure(mediago.adReport(env, 'fail-401', '55001', SINCE, UNTIL, 'UTC'))).toMatchObject({
      kind: 'auth',
      status: 401,
      detail: 'Invalid or expired access token',
    });
    expect(await failure(mediago.adReport(env, 'mg-token', 'fail-429', SINCE, UNTIL, 'UTC'))).toMatchObject({
      kind: 'rate_limit',
      retryAfterSeconds: 7,
    });
    const other = (campaign: string) =>
      failure(mediago.adReport(env, 'mg-token', campaign, SINCE, UNTIL, 'UTC'));
    expect((await other('fail-500')).kind).toBe('server');
    expect((await other('slow')).kind).toBe('timeout');
    expect((await other('malformed')).kind).toBe('malformed');
  });
});

describe('LiveIntent client', () => {
  it('gets a token by client credentials and reads campaigns, line items and the report', async () => {
    const token = await liveintent.accessToken(env, { clientId: 'li-client', secret: 'li-secret' });
    expect(token).toMatch(/^li-/);
    const list = await liveintent.campaigns(env, token, '1000');
    expect(list).toHaveLength(2);
    for (const c of list) {
      expect(c.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Number.isInteger(c.refId)).toBe(true);
    }
    expect((await liveintent.campaign(env, token, 4321)).name).toBe('Campaign 4321');
    const items = await liveintent.lineItems(env, token, list[0].id);
    expect(items.map((l) => [l.name, l.campaign])).toEqual([
      ['Line item 1', list[0].id],
      ['Line item 2', list[0].id],
    ]);
    const rows = await liveintent.report(env, token, '4321', SINCE, UNTIL);
    expect(rows).toEqual(asAdDays(await expectedRows('liveintent', '4321', SINCE, UNTIL)));
  });

  it('sends a personal access token as the bearer token, with no token request', async () => {
    const requests = async (contains: string) =>
      (
        (await (
          await env.PLATFORM_FAKES!.fetch(`http://fakes.test/__requests?contains=${contains}`)
        ).json()) as {
          count: number;
        }
      ).count;
    const tokenRequests = await requests('/liveintent/oauth/token');
    const auth = liveintent.liveIntentAuth('PAT', 'pat-for-contract-77');
    expect(auth).toEqual({ clientId: '', secret: 'pat-for-contract-77' });
    const token = await liveintent.accessToken(env, auth);
    const rows = await liveintent.report(env, token, '4321', SINCE, SINCE);
    expect(rows).toHaveLength(3);
    expect(await requests('Bearer%20pat-for-contract-77')).toBe(1);
    expect(await requests('/liveintent/oauth/token')).toBe(tokenRequests);
  });

  it('maps a refused client and its errors', async () => {
    expect(
      await failure(liveintent.accessToken(env, { clientId: 'li-client', secret: 'bad-secret' })),
    ).toMatchObject({ kind: 'auth', status: 401 });
    expect(await failure(liveintent.report(env, 'tok', 'fail-429', SINCE, UNTIL))).toMatchObject({
      kind: 'rate_limit',
      retryAfterSeconds: 7,
      detail: 'E0429 RATE: requests',
    });
    expect((await failure(liveintent.report(env, 'tok', 'fail-500', SINCE, UNTIL))).kind).toBe('server');
    expect((await failure(liveintent.report(env, 'fail-401', 'c', SINCE, UNTIL))).kind).toBe('auth');
    expect((await failure(liveintent.report(env, 'tok', 'slow', SINCE, UNTIL))).kind).toBe('timeout');
    expect((await failure(liveintent.report(env, 'tok', 'malformed', SINCE, UNTIL))).kind).toBe('malformed');
  });
});
