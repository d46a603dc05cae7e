// The Facebook Graph / Marketing API fake (docs/decisions/070, 072, 145): the shapes the official
// SDK (facebook-nodejs-business-sdk) reads in tests/contract/facebook-sdk.test.mjs.

/** @param {Record<string, any>} h the shared helpers of fakes/platforms.js */
export function facebookFake(h) {
  const {
    json,
    hash,
    traceId,
    numericId,
    seededRows,
    money,
    accountTerms,
    failureFor,
    fail,
    readBody,
    bearer,
  } = h;

  const fbError = (status, message, code, subcode, type = 'OAuthException', headers = {}) =>
    json(
      { error: { message, type, code, error_subcode: subcode, fbtrace_id: traceId(message) } },
      status,
      headers,
    );

  const fbShapes = {
    unauthorized: () =>
      fbError(
        401,
        'Error validating access token: Session has expired on Monday, 23-Nov-26 10:00:00 PST.',
        190,
        463,
      ),
    // Facebook sends no Retry-After: the wait is in X-Business-Use-Case-Usage, in minutes
    // (a scenario's retryAfter is taken as minutes here).
    rateLimited: (retryAfter) =>
      fbError(400, '(#17) User request limit reached', 17, 2446079, 'OAuthException', {
        'x-business-use-case-usage': JSON.stringify({
          1234567890: [
            {
              type: 'ads_insights',
              call_count: 100,
              total_cputime: 28,
              total_time: 35,
              estimated_time_to_regain_access: retryAfter,
            },
          ],
        }),
      }),
    serverError: () => fbError(500, 'An unknown error has occurred.', 1, 99, 'OAuthException'),
  };

  // Small pages, so a client always has to follow the cursors.
  const FB_PAGE = 4;

  async function facebook(request, path, url) {
    const q = url.searchParams;
    const body = request.method === 'POST' ? await readBody(request) : {};
    const token = q.get('access_token') ?? body.access_token ?? bearer(request);
    const parts = path
      .replace(/^\/v\d+\.\d+/, '')
      .split('/')
      .filter(Boolean);
    const failed = await fail(
      failureFor([token, q.get('code'), q.get('fb_exchange_token'), ...parts]),
      fbShapes,
    );
    if (failed) return failed;

    if (parts[0] === 'dialog' && parts[1] === 'oauth') {
      // The login dialog: a real one asks the user; the fake consents at once and sends them back.
      const back = q.get('redirect_uri');
      if (!back || !q.get('client_id'))
        return fbError(400, 'Missing client_id or redirect_uri parameter.', 100, 0);
      const target = new URL(back);
      if (q.get('deny') === '1') {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_reason', 'user_denied');
      } else {
        target.searchParams.set(
          'code',
          `fake-code-${hash(`${q.get('client_id')}:${Date.now()}`).toString(36)}`,
        );
      }
      if (q.get('state')) target.searchParams.set('state', q.get('state'));
      return new Response(null, { status: 302, headers: { location: target.toString() } });
    }
    if (parts[0] === 'oauth' && parts[1] === 'access_token' && q.get('grant_type') === 'fb_exchange_token') {
      // The long-lived token (about 60 days) for a short-lived one; asked with the app's secret.
      const short = q.get('fb_exchange_token') ?? '';
      if (!q.get('client_id') || !q.get('client_secret') || !short) {
        return fbError(400, 'Missing client_id, client_secret or fb_exchange_token parameter.', 100, 0);
      }
      if (short.startsWith('expired')) return fbShapes.unauthorized();
      return json({
        access_token: `EAAL${hash(short).toString(36)}${hash(`long:${short}`).toString(36)}`,
        token_type: 'bearer',
        expires_in: 5183944,
      });
    }
    if (parts[0] === 'oauth' && parts[1] === 'access_token') {
      const code = q.get('code') ?? '';
      if (!q.get('client_id') || !q.get('redirect_uri')) {
        return fbError(400, 'Missing client_id or redirect_uri parameter.', 100, 0);
      }
      if (!code || code === 'bad-code') {
        return fbError(400, 'Invalid verification code format.', 100, 36007);
      }
      return json({
        access_token: `EAAF${hash(code).toString(36)}${hash(`t:${code}`).toString(36)}`,
        token_type: 'bearer',
        // The login's token lasts hours; the product trades it for a long-lived one at once.
        expires_in: 5400,
      });
    }
    if (!token) return fbError(400, 'An access token is required to request this resource.', 104, 0);
    if (token.startsWith('expired')) return fbShapes.unauthorized();

    if (parts[0] === 'debug_token') {
      const input = q.get('input_token') ?? '';
      const valid = Boolean(input) && !input.startsWith('expired');
      return json({
        data: {
          app_id: q.get('access_token')?.split('|')[0] ?? 'fake-app',
          type: 'USER',
          application: 'Edge Tracker',
          data_access_expires_at: 1_900_000_000,
          expires_at: valid ? 1_900_000_000 : 1_600_000_000,
          is_valid: valid,
          scopes: valid ? ['ads_read', 'ads_management'] : [],
          user_id: numericId(`user:${input}`, 15),
          ...(valid ? {} : { error: { code: 190, message: 'Session has expired', subcode: 463 } }),
        },
      });
    }
    if (parts[0] === 'me' && parts.length === 1) {
      return json({ id: numericId(`user:${token}`, 15), name: 'Fake Marketer' });
    }
    if (parts.length === 2 && parts[1] === 'events' && request.method === 'POST') {
      let events = body.data;
      if (typeof events === 'string') {
        try {
          events = JSON.parse(events);
        } catch {
          events = null;
        }
      }
      if (!Array.isArray(events) || events.length === 0) {
        return fbError(400, '(#100) The parameter data is required', 100, 2804003);
      }
      if (!/^\d+$/.test(parts[0])) {
        return fbError(400, `Unsupported post request. Object with ID '${parts[0]}' does not exist`, 100, 33);
      }
      return json({
        events_received: events.length,
        messages: body.test_event_code ? [] : ['No test_event_code: events counted as live'],
        fbtrace_id: traceId(parts[0]),
      });
    }
    if (parts.length === 2 && parts[1] === 'insights') {
      const range = JSON.parse(q.get('time_range') ?? '{}');
      if (q.get('time_increment') !== '1' || q.get('level') !== 'ad' || !range.since || !range.until) {
        return fbError(400, '(#100) time_range, time_increment=1 and level=ad are required here', 100, 0);
      }
      const object = parts[0].replace(/^act_/, '');
      const rows = seededRows('facebook', object, range.since, range.until);
      const start = Number(q.get('after') ? atob(q.get('after')) : 0);
      const limit = Math.min(Number(q.get('limit') ?? FB_PAGE) || FB_PAGE, FB_PAGE);
      const page = rows.slice(start, start + limit);
      const fields = (q.get('fields') ?? 'ad_id,ad_name,impressions,clicks,spend').split(',');
      const data = page.map((r) => {
        const full = {
          campaign_id: object,
          ad_id: r.ad_id,
          ad_name: r.ad_name,
          impressions: String(r.impressions),
          clicks: String(r.clicks),
          spend: money(r.spend_cents),
          date_start: r.day,
          date_stop: r.day,
        };
        return Object.fromEntries(
          Object.entries(full).filter(([k]) => fields.includes(k) || k === 'date_start' || k === 'date_stop'),
        );
      });
      const paging = { cursors: { before: btoa(String(start)), after: btoa(String(start + page.length)) } };
      if (start + page.length < rows.length) {
        const next = new URL(url);
        next.searchParams.set('after', paging.cursors.after);
        paging.next = next.toString();
      }
      return json({ data, paging });
    }
    if (parts.length === 1 && request.method === 'GET' && parts[0].startsWith('act_')) {
      // An ad account: its currency and time zone (POST /__control {key: 'act_<id>', currency, timezone}).
      const terms = accountTerms(parts[0]);
      return json({
        id: parts[0],
        account_id: parts[0].slice(4),
        currency: terms.currency,
        timezone_name: terms.timezone,
      });
    }
    if (parts.length === 1 && request.method === 'GET') {
      const id = parts[0];
      if (!/^\d{6,}$/.test(id)) {
        return fbError(
          400,
          `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          100,
          33,
          'GraphMethodException',
        );
      }
      return json({
        id,
        name: `Campaign ${id}`,
        status: 'ACTIVE',
        objective: 'OUTCOME_SALES',
        account_id: numericId(`account:${id}`, 15),
      });
    }
    return fbError(400, `Unknown path components: /${parts.join('/')}`, 2500, 0);
  }

  return facebook;
}
