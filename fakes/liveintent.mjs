// The LiveIntent fake (docs/decisions/150), on the shapes of LiveIntent/sdk-php and its recorded
// answers (tests/fixtures/platforms/liveintent.json): a token by client credentials (the password
// grant is refused; a personal access token is any other bearer token), objects with `id` (32 hex
// characters) and `refId` (an integer), found by either; a line item's `campaign` is the
// campaign's hex id; lists by POST /search/<resource> {conditions, page, n} answering {output,
// total}; errors {requestId, errors:[{id, code, details}]}. The report (POST /report) is ours: no
// public source shows LiveIntent's. Management (issue 13): campaigns, line items (`strategy`),
// conversion trackers (`segment` plus its `conversion` pixel) and creatives, kept in memory; a
// name starting with `reject` is refused as the platform refuses a field.

/** @param {Record<string, any>} h the shared helpers of fakes/platforms.js */
export function liveintentFake(h) {
  const { json, hash, numericId, fail, failureFor, readBody, bearer, seededRows, money } = h;

  const requestId = () => (Date.now() / 1000).toFixed(6);
  const liError = (status, errors, headers = {}) => json({ requestId: requestId(), errors }, status, headers);
  const shapes = {
    unauthorized: () => liError(401, [{ id: 'E0401', code: 'AUTH', details: 'token' }]),
    rateLimited: (retryAfter) =>
      liError(429, [{ id: 'E0429', code: 'RATE', details: 'requests' }], {
        'retry-after': String(retryAfter),
      }),
    serverError: () => liError(500, [{ id: 'E0500', code: 'SRV', details: 'server' }]),
  };
  const hexId = (seed) =>
    [1, 2, 3, 4].map((i) => hash(`${i}:${seed}`).toString(16).padStart(8, '0')).join('');

  // ---- objects ---------------------------------------------------------------------------------
  const store = { campaign: new Map(), strategy: new Map(), segment: new Map(), creative: new Map() };
  let seq = 700000;
  const FIELDS = {
    campaign: ['name', 'advertiser', 'strategy', 'bid', 'category', 'conversion', 'startDate', 'endDate'],
    strategy: [
      'name',
      'campaign',
      'status',
      'startDate',
      'endDate',
      'dailyCap',
      'dailyBudget',
      'segments',
      'ageTargetType',
      'ageTarget',
      'genderTargetType',
      'genderTarget',
    ],
    segment: ['name', 'termRegex', 'advertiser'],
    creative: ['name', 'clickUrl', 'mediaUrl', 'strategy', 'width', 'height', 'advertiser', 'active'],
  };
  const REQUIRED = {
    strategy: ['name', 'status', 'campaign'],
    campaign: ['name'],
    segment: ['name'],
    creative: [],
  };
  const pick = (kind, from) =>
    Object.fromEntries(FIELDS[kind].filter((f) => f in from).map((f) => [f, from[f]]));
  /** An object by its refId or its id. */
  const find = (kind, key) =>
    store[kind].get(String(key)) ?? [...store[kind].values()].find((o) => o.id === key) ?? null;

  // Seeded campaigns (the cost sync's): any refId not made here answers as one, with 2 line items.
  const seededCampaign = (refId, advertiser = '1000') => ({
    id: hexId(`li-campaign:${refId}`),
    refId: Number(refId),
    version: 1,
    advertiser,
    name: `Campaign ${refId}`,
    status: 'active',
  });
  const seededHex = new Map();
  const seeded = (refId, advertiser) => {
    const c = seededCampaign(refId, advertiser);
    seededHex.set(c.id, c);
    return c;
  };
  const seededLineItems = (campaign) =>
    [1, 2].map((i) => {
      const refId = Number(numericId(`li-strategy:${campaign.refId}:${i}`, 7));
      return {
        id: hexId(`li-strategy:${refId}`),
        refId,
        version: 1,
        campaign: campaign.id,
        advertiser: campaign.advertiser,
        name: `Line item ${i}`,
        status: 'paused',
      };
    });
  const campaignByKey = (key) => {
    const made = find('campaign', key);
    if (made) return made.deleted ? null : made;
    if (/^\d+$/.test(String(key))) return seeded(String(key));
    return seededHex.get(String(key)) ?? null;
  };

  const condition = (conditions, field) =>
    (Array.isArray(conditions) ? conditions : []).find(
      (c) => c?.field === field && (c.operator ?? 'eq') === 'eq',
    )?.value;

  function searchAnswer(kind, body) {
    const advertiser = condition(body.conditions, 'advertiser');
    const campaign = condition(body.conditions, 'campaign');
    let list = [...(store[kind]?.values() ?? [])].filter((o) => !o.deleted);
    if (advertiser !== undefined) list = list.filter((o) => o.advertiser === String(advertiser));
    if (campaign !== undefined) list = list.filter((o) => o.campaign === campaign);
    if (kind === 'campaign' && advertiser !== undefined) {
      list = [
        ...[1, 2].map((i) => seeded(numericId(`li-campaign:${advertiser}:${i}`, 7), String(advertiser))),
        ...list,
      ];
    }
    if (kind === 'strategy' && campaign !== undefined && !list.length && seededHex.has(campaign)) {
      list = seededLineItems(seededHex.get(campaign));
    }
    const n = Math.min(Math.max(Number(body.n) || 50, 5), 500);
    const page = Math.max(Number(body.page) || 1, 1);
    return json({ requestId: requestId(), output: list.slice((page - 1) * n, page * n), total: list.length });
  }

  function create(kind, body) {
    const missing = REQUIRED[kind].filter((f) => body[f] === undefined || body[f] === '');
    if (missing.length)
      return liError(
        400,
        missing.map((f) => ({ id: 'E1001', code: 'REQ', details: f })),
      );
    if (kind === 'strategy' && !/^[0-9a-f]{32}$/.test(String(body.campaign))) {
      return liError(400, [{ id: 'E1000', code: 'INV', details: 'campaign' }]);
    }
    if (kind === 'strategy' && !campaignByKey(body.campaign)) {
      return liError(400, [{ id: 'E1000', code: 'INV', details: 'campaign' }]);
    }
    seq += 1;
    const obj = { id: hexId(`li-${kind}:${seq}`), refId: seq, version: 1, ...pick(kind, body) };
    if (kind === 'campaign') obj.status = 'active';
    if (kind === 'segment') obj.conversion = null;
    if (kind === 'creative') {
      obj.active = obj.active ?? true;
      obj.strategies = obj.strategy ? [String(obj.strategy)] : [];
    }
    store[kind].set(String(obj.refId), obj);
    return json({ requestId: requestId(), output: obj }, 201);
  }

  /** One object's calls; null when the path is not one. */
  function object(request, kind, key, action, body) {
    const ok = (output) => json({ requestId: requestId(), output });
    const obj = find(kind, key);
    if (!obj || obj.deleted) {
      if (kind === 'campaign' && request.method === 'GET') {
        const c = campaignByKey(key);
        if (c) return ok(c);
      }
      if (kind === 'strategy' && request.method === 'GET') {
        const s = [...seededHex.values()]
          .flatMap(seededLineItems)
          .find((l) => l.id === key || String(l.refId) === key);
        if (s) return ok(s);
      }
      return liError(404, [{ id: 'E0404', code: 'NF', details: kind }]);
    }
    if (kind === 'segment' && action === 'conversion' && request.method === 'POST') {
      seq += 1;
      obj.conversion = { id: hexId(`li-conversion:${seq}`), refId: seq, status: 'active' };
      return ok(obj);
    }
    // Linking a creative to a line item: no public source shows the call; ours (decision 093).
    if (kind === 'creative' && action === 'link' && request.method === 'POST') {
      const strategy = find('strategy', String(body.strategy ?? ''));
      if (!strategy) return liError(400, [{ id: 'E1000', code: 'INV', details: 'strategy' }]);
      if (strategy.deleted) return liError(400, [{ id: 'E1002', code: 'DEL', details: 'strategy' }]);
      const ref = String(strategy.refId);
      const others = (obj.strategies ?? []).filter((s) => s !== ref);
      obj.strategies = body.linked === true || body.linked === 'true' ? [...others, ref] : others;
      obj.version += 1;
      return ok(obj);
    }
    if (kind === 'segment' && action === 'status') return ok({ active: obj.conversion?.status === 'active' });
    if (action) return liError(404, [{ id: 'E0404', code: 'NF', details: action }]);
    if (request.method === 'GET') return ok(obj);
    if (request.method === 'DELETE') {
      obj.deleted = true;
      obj.version += 1;
      return json({ requestId: requestId() });
    }
    if (request.method === 'POST') {
      if (Number(body.version) !== obj.version)
        return liError(409, [{ id: 'E1009', code: 'VER', details: 'version' }]);
      if (kind === 'strategy' && 'campaign' in body && body.campaign !== obj.campaign) {
        return liError(400, [{ id: 'E1000', code: 'INV', details: 'campaign' }]);
      }
      Object.assign(obj, pick(kind, body));
      obj.version += 1;
      return ok(obj);
    }
    return null;
  }

  async function token(request) {
    const body = await readBody(request);
    const failed = await fail(failureFor([body.client_id, body.client_secret]), shapes);
    if (failed) return failed;
    if (body.grant_type !== 'client_credentials') {
      return json(
        { error: 'unsupported_grant_type', message: 'The authorization grant type is not supported.' },
        400,
      );
    }
    if (!body.client_id || !body.client_secret || String(body.client_secret).startsWith('bad')) {
      return json({ error: 'invalid_client', message: 'Client authentication failed' }, 401);
    }
    return json({
      token_type: 'Bearer',
      expires_in: 1800,
      access_token: `li-${hash(`${body.client_id}:${body.client_secret}:${Date.now()}`).toString(36)}`,
    });
  }

  return async function liveintent(request, path) {
    if (path === '/oauth/token' && request.method === 'POST') return token(request);
    const auth = bearer(request);
    const body = request.method === 'POST' ? await readBody(request) : {};
    const parts = path.split('/').filter(Boolean);
    const campaign =
      body.campaign ?? condition(body.conditions, 'campaign') ?? (parts[0] === 'campaign' ? parts[1] : '');
    const advertiser = body.advertiser ?? condition(body.conditions, 'advertiser');
    const failed = await fail(failureFor([auth, campaign, advertiser, body.name]), shapes);
    if (failed) return failed;
    if (!auth || auth.startsWith('expired')) return shapes.unauthorized();
    if (typeof body.name === 'string' && body.name.startsWith('reject')) {
      return liError(400, [{ id: 'E1000', code: 'INV', details: 'name' }]);
    }
    if (parts[0] === 'search' && store[parts[1]] && request.method === 'POST')
      return searchAnswer(parts[1], body);
    if (parts[0] === 'report' && request.method === 'POST') {
      if (!campaign || !body.start || !body.end) {
        return liError(
          400,
          ['campaign', 'start', 'end']
            .filter((f) => !body[f])
            .map((f) => ({ id: 'E1001', code: 'REQ', details: f })),
        );
      }
      const rows = seededRows('liveintent', campaign, body.start, body.end);
      return json({
        requestId: requestId(),
        output: {
          rows: rows.map((r) => ({
            date: r.day,
            creative_id: r.ad_id,
            creative_name: r.ad_name,
            impressions: r.impressions,
            clicks: r.clicks,
            advertiserSpent: Number(money(r.spend_cents)),
          })),
        },
      });
    }
    const kind = parts[0];
    if (store[kind]) {
      if (!parts[1] && request.method === 'POST') return create(kind, body);
      if (parts[1]) {
        const answer = object(request, kind, parts[1], parts[2], body);
        if (answer) return answer;
      }
    }
    return liError(404, [{ id: 'E0404', code: 'NF', details: path }]);
  };
}
