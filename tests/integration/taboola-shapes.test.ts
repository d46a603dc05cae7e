import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import * as taboola from '../../worker/integrations/taboola/client';
import fixture from '../fixtures/platforms/taboola.json';

// Taboola has no JavaScript SDK: the request and answer shapes of its official Java client are
// recorded in tests/fixtures/platforms/taboola.json (source named there). The fake must answer
// those shapes and nothing else (a field the real API does not send fails here), and the client
// must send the recorded requests and read a recorded answer (docs/decisions/145).

type Shape = { required: Record<string, string>; optional?: Record<string, string> };
const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

/** What is wrong with `value` against a recorded shape: missing, unknown or mistyped fields. */
function shapeErrors(value: unknown, shape: Shape, where: string): string[] {
  if (jsonType(value) !== 'object') return [`${where} is ${jsonType(value)}, not an object`];
  const v = value as Record<string, unknown>;
  const all = { ...shape.required, ...shape.optional };
  const errors = Object.keys(shape.required)
    .filter((k) => !(k in v))
    .map((k) => `${where}.${k} is missing`);
  for (const [k, field] of Object.entries(v)) {
    if (!(k in all)) errors.push(`${where}.${k} is not in Taboola's answer`);
    else if (jsonType(field) !== all[k]) errors.push(`${where}.${k} is ${jsonType(field)}, not ${all[k]}`);
  }
  return errors;
}

function reportErrors(body: unknown): string[] {
  const call = fixture.calls.itemReport;
  const errors = shapeErrors(body, call.answer, 'report');
  const b = body as { results?: unknown[]; metadata?: unknown };
  if (b.metadata !== undefined)
    errors.push(...shapeErrors(b.metadata, { required: {}, ...call.metadata }, 'metadata'));
  (b.results ?? []).forEach((row, i) => {
    errors.push(...shapeErrors(row, call.row, `results[${i}]`));
  });
  return errors;
}

const fake = (path: string, init?: RequestInit) =>
  env.PLATFORM_FAKES!.fetch(`http://fakes.test/taboola/backstage${path}`, init);
const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe('Taboola fake against the recorded shapes', () => {
  it('the recorded samples have the recorded shapes', () => {
    expect(shapeErrors(fixture.calls.token.sample, fixture.calls.token.answer, 'token')).toEqual([]);
    expect(
      shapeErrors(fixture.calls.currentAccount.sample, fixture.calls.currentAccount.answer, 'account'),
    ).toEqual([]);
    expect(reportErrors(fixture.calls.itemReport.sample)).toEqual([]);
  });

  it('answers the token, the current account and the item report in those shapes', async () => {
    const tokenAnswer = await fake('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'c-1', client_secret: 's-1', grant_type: 'client_credentials' }),
    });
    const token = (await tokenAnswer.json()) as { access_token: string };
    expect(shapeErrors(token, fixture.calls.token.answer, 'token')).toEqual([]);
    const account = await (await fake('/api/1.0/users/current/account', bearer(token.access_token))).json();
    expect(shapeErrors(account, fixture.calls.currentAccount.answer, 'account')).toEqual([]);
    const report = await (
      await fake(
        '/api/1.0/acct-1/reports/top-campaign-content/dimensions/item_breakdown?start_date=2026-11-18&end_date=2026-11-18&campaign=4400001',
        bearer(token.access_token),
      )
    ).json();
    expect((report as { results: unknown[] }).results).toHaveLength(3);
    expect(reportErrors(report)).toEqual([]);
  });
});

describe('Taboola client against the recorded shapes', () => {
  /** The client's env with a platform that records each request and answers `answer`. */
  function platform(answer: unknown) {
    const seen: Request[] = [];
    const fetcher = {
      fetch: async (input: Request) => {
        seen.push(input.clone());
        return Response.json(answer);
      },
    } as unknown as Fetcher;
    return {
      seen,
      env: { ...env, TABOOLA_API_URL: 'https://backstage.test/backstage', PLATFORM_FAKES: fetcher },
    };
  }

  it('asks for a token with the recorded form and reads the recorded answer', async () => {
    const { seen, env: e } = platform(fixture.calls.token.sample);
    expect(await taboola.clientToken(e, 'c-1', 's-1')).toBe('sample-access-token');
    const call = fixture.calls.token.request;
    expect(seen[0].method).toBe(call.method);
    expect(new URL(seen[0].url).pathname).toBe(`/backstage${call.path}`);
    const form = new URLSearchParams(await seen[0].text());
    expect([...form.keys()].sort()).toEqual([...call.form].sort());
    expect(form.get('grant_type')).toBe(call.grantType);
  });

  it('reads the recorded current account', async () => {
    const { seen, env: e } = platform(fixture.calls.currentAccount.sample);
    expect(await taboola.currentAccount(e, 'tok')).toEqual({
      accountId: 'sample-advertiser',
      name: 'Sample Advertiser',
    });
    expect(new URL(seen[0].url).pathname).toBe(`/backstage${fixture.calls.currentAccount.request.path}`);
    expect(seen[0].headers.get('authorization')).toBe('Bearer tok');
  });

  it('asks for the item report as recorded and reads its rows, currency and time zone', async () => {
    const { seen, env: e } = platform(fixture.calls.itemReport.sample);
    const report = await taboola.itemDayReport(
      e,
      'tok',
      'sample-advertiser',
      '4400001',
      '2026-11-18',
      '2026-11-18',
    );
    expect(report).toEqual({
      rows: [
        {
          date: '2026-11-18',
          adId: '3100000001',
          adName: 'Sample headline',
          impressions: 12000,
          clicks: 96,
          spendMicros: 41_250_000,
        },
      ],
      currency: 'EUR',
      timeZone: 'America/New_York',
    });
    const url = new URL(seen[0].url);
    const call = fixture.calls.itemReport.request;
    expect(url.pathname).toBe(`/backstage${call.path.replace('{account_id}', 'sample-advertiser')}`);
    expect([...url.searchParams.keys()].sort()).toEqual([...call.query, ...call.filters].sort());
    expect(seen[0].headers.get('authorization')).toBe('Bearer tok');
  });
});
