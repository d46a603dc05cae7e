import { beforeAll, describe, expect, it } from 'vitest';
import docs from '../../docs/api.md?raw';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// Every API path listed in docs/api.md, called by an admin with malformed, mistyped and empty
// input: the answer is a clear 4xx (or a 2xx that ignored nothing harmful), never a 500.

const calls = [
  ...new Set([...docs.matchAll(/\| (GET|POST|PUT|DELETE) `(\/api\/[^` ?]+)/g)].map((m) => `${m[1]} ${m[2]}`)),
]
  // These change what the rest of the file relies on (the admin's session and license).
  .filter(
    (c) => !/auth\/logout|license\/deactivate|clean-records|import-install|application_startup/.test(c),
  );

const BODIES: [string, string | FormData][] = [
  ['malformed JSON', '{"campaignId": '],
  ['a JSON array', '[1, 2, 3]'],
  [
    'wrong types',
    JSON.stringify({
      campaignId: { a: 1 },
      status: [],
      landingIds: 'x,y',
      uuid: 5,
      name: 7,
      dir: 'up',
      startDate: 3,
      date: [],
      file: true,
    }),
  ],
  [
    'huge numbers',
    JSON.stringify({
      campaignId: 1e308,
      status: 2 ** 60,
      perPage: -1,
      currentPage: 'NaN',
      spend: '9'.repeat(40),
    }),
  ],
];

let token: string;
let campaignId: number;
beforeAll(async () => {
  token = await setupInstallation();
  campaignId = await makeCampaign(token, { name: 'Target of bad input' });
});

describe('bad input never answers 500', () => {
  it('covers the documented calls', () => {
    expect(calls.length).toBeGreaterThan(60);
  });

  it.each(calls)('%s', async (call) => {
    const [method, template] = call.split(' ');
    const path = template.replace(':id', String(campaignId)).replace(':index', 'abc');
    if (method === 'GET') {
      const res = await api(`${path}?campaignId=abc&startDate=99-99-9999&endDate=x&dir=-1&email=%00&token=`, {
        token,
      });
      expect(res.status, `${call} answered ${res.status}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      return;
    }
    for (const [name, body] of BODIES) {
      const res = await api(path, {
        method,
        token,
        body,
        headers: body instanceof FormData ? {} : { 'content-type': 'application/json' },
      });
      expect(
        res.status,
        `${call} with ${name} answered ${res.status}: ${JSON.stringify(res.body)}`,
      ).toBeLessThan(500);
      if (res.status >= 400) expect(typeof res.body.message, `${call} with ${name}`).toBe('string');
    }
    const form = new FormData();
    form.set('campaignId', 'abc');
    form.set('uploads', new File([new Uint8Array([0, 1, 2, 255])], '../../evil.zip'));
    const res = await api(path, { method, token, body: form });
    expect(
      res.status,
      `${call} with a bad form answered ${res.status}: ${JSON.stringify(res.body)}`,
    ).toBeLessThan(500);
  });
});
