// The MediaGo fake (docs/decisions/150), on MediaGo's API reference (apidoc.mediago.io, read with
// Matatika/tap-baidu; tests/fixtures/platforms/mediago.json): POST /data/v1/authentication with
// `Authorization: Basic <API token>` answers an access token of 3600 s, and a new one cancels the
// one before it; GET /data/v1/report/ad/day/list (start_date, end_date, timezone, campaign_ids,
// current_page, page_size; at most 30 days) answers {results:[...]}, an empty page after the
// last. A refused token is HTTP 401 with {code, msg} (the reference's error body could not be
// read in full).

/** @param {Record<string, any>} h the shared helpers of fakes/platforms.js */
export function mediagoFake(h) {
  const { json, hash, fail, failureFor, bearer, seededRows, money, campaignsOf, numericId } = h;

  const mgError = (status, code, msg, headers = {}) => json({ code, msg }, status, headers);
  const shapes = {
    unauthorized: () => mgError(401, 401, 'Invalid or expired access token'),
    rateLimited: (retryAfter) =>
      mgError(429, 429, 'Too many requests', { 'retry-after': String(retryAfter) }),
    serverError: () => mgError(500, 500, 'Internal error'),
  };
  /** The one valid access token of each API token (a new one cancels the old). */
  const current = new Map();
  const owner = new Map();
  let issued = 0;

  return async function mediago(request, path, url) {
    const q = url.searchParams;
    if (path === '/data/v1/authentication' && request.method === 'POST') {
      const header = request.headers.get('authorization') ?? '';
      const apiToken = header.replace(/^Basic\s+/i, '');
      const failed = await fail(failureFor([apiToken]), shapes);
      if (failed) return failed;
      if (!/^Basic\s+\S+/i.test(header) || apiToken.startsWith('expired') || apiToken.startsWith('bad')) {
        return mgError(401, 401, 'Invalid API token');
      }
      issued += 1;
      const token = `mg-${hash(`${apiToken}:${issued}`).toString(36)}-${issued}`;
      const before = current.get(apiToken);
      if (before) owner.delete(before);
      current.set(apiToken, token);
      owner.set(token, apiToken);
      return json({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    const token = bearer(request);
    const failed = await fail(failureFor([token, owner.get(token), q.get('campaign_ids')]), shapes);
    if (failed) return failed;
    if (!owner.has(token)) return shapes.unauthorized();
    if (path === '/data/v1/report/ad/day/list' && request.method === 'GET') {
      const campaign = q.get('campaign_ids');
      const since = q.get('start_date');
      const until = q.get('end_date');
      if (!campaign || !since || !until || !q.get('timezone')) {
        return mgError(400, 400, 'start_date, end_date, timezone and campaign_ids are required');
      }
      if (Date.parse(until) - Date.parse(since) > 29 * 86_400_000) {
        return mgError(400, 400, 'The date range may not be longer than 30 days');
      }
      const rows = seededRows('mediago', campaign, since, until);
      const page = Math.max(1, Number(q.get('current_page') ?? 1));
      const size = Math.min(1000, Math.max(1, Number(q.get('page_size') ?? 100)));
      return json({
        results: rows.slice((page - 1) * size, page * size).map((r) => ({
          date: r.day,
          campaign_id: campaign,
          campaign_name: `Campaign ${campaign}`,
          ad_id: Number(r.ad_id),
          ad_name: r.ad_name,
          impression: r.impressions,
          click: r.clicks,
          spend: Number(money(r.spend_cents)),
          cpc: r.clicks ? Number((r.spend_cents / 100 / r.clicks).toFixed(4)) : 0,
          conversion: 0,
          status: 1,
        })),
      });
    }
    if (path === '/data/v1/campaign/list' && request.method === 'GET') {
      // No public reference for a campaign list: the path and shape are ours (decision 156).
      const account = numericId(`mg:${owner.get(token)}`, 8);
      return json({
        results: campaignsOf('mediago', account).map((c) => ({ campaign_id: c.id, campaign_name: c.name })),
      });
    }
    return mgError(404, 404, 'Not found');
  };
}
