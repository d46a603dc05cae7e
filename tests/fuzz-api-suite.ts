import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import docs from '../docs/api.md?raw';
import { makeCampaign, makeOffer } from './factories/campaigns';
import { setupInstallation, userWithRole } from './factories/install';
import { postbackSecret } from './factories/traffic';
import { FuzzChecker, HOSTILE, invalidUtf8, type Payload, UNREADABLE } from './fuzz-support';

// The fuzz suite, /api/ half (issue 10; the tracking routes are in fuzz-tracking.test.ts):
// malformed, oversized, wrong-typed and hostile input to every /api/ route of docs/api.md, as each
// role and as nobody. Each answer must be below 500 and carry no stack trace; a refused request
// (4xx) must leave the database exactly as it was (tests/fuzz-support.ts). The number of cases is
// printed (docs/operations.md).

const calls = [
  ...new Set([...docs.matchAll(/\| (GET|POST|PUT|DELETE) `(\/api\/[^` ?]+)/g)].map((m) => `${m[1]} ${m[2]}`)),
]
  // These end the session or the installation the rest of the suite runs on.
  .filter(
    (c) => !/auth\/logout|license\/deactivate|clean-records|import-install|application_startup/.test(c),
  );

const enc = new TextEncoder();
const PAYLOADS: Payload[] = [
  { name: 'malformed JSON', body: '{"campaignId": ', type: 'application/json' },
  { name: 'a JSON array', body: '[1,2,3]', type: 'application/json' },
  { name: 'JSON null', body: 'null', type: 'application/json' },
  { name: 'missing fields', body: '{}', type: 'application/json' },
  {
    name: 'duplicated fields',
    body: '{"campaignId": 1, "campaignId": "x", "name": "a", "name": null}',
    type: 'application/json',
  },
  {
    name: 'wrong types',
    body: JSON.stringify({
      campaignId: { $gt: 0 },
      name: 7,
      email: [],
      password: { a: 1 },
      role: 5,
      dir: 'up',
      status: [],
      startDate: true,
      campaign_ids: 'all',
      userId: '1; DROP',
    }),
    type: 'application/json',
  },
  {
    name: 'huge and negative numbers',
    body: JSON.stringify({
      campaignId: -1,
      dir: 1e308,
      share: -5,
      payout: '-99999999999999999999',
      perPage: 2 ** 62,
      currentPage: -3,
      spend: 'NaN',
      landingPageId: Number.MAX_SAFE_INTEGER + 2,
    }),
    type: 'application/json',
  },
  {
    name: 'hostile strings',
    body: JSON.stringify(
      Object.fromEntries(
        ['name', 'email', 'username', 'url', 'postback', 'find', 'replace', 'field', 'token', 'baseUrl'].map(
          (k, i) => [k, HOSTILE[i % HOSTILE.length]],
        ),
      ),
    ),
    type: 'application/json',
  },
  { name: 'invalid UTF-8', body: invalidUtf8, type: 'application/json' },
  { name: 'text/plain', body: 'campaignId=1&name=x', type: 'text/plain' },
  {
    name: 'XML',
    body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    type: 'application/xml',
  },
  {
    name: 'form instead of JSON',
    body: 'campaignId=abc&name=%00',
    type: 'application/x-www-form-urlencoded',
  },
];

const QUERY = `?campaignId=-1&dir=%27%20OR%201%3D1&startDate=99-99-9999&endDate=%FF%FE&email=%00&token=${'x'.repeat(3000)}&perPage=1e9&currentPage=-1&includeDeleted=[]`;

type Identity = { name: string; token: string | null };
let identities: Identity[] = [];
let campaignId = 0;
const fuzz = new FuzzChecker();

/**
 * The suite over one part of the documented calls: every parts-th call from `part`, one part a
 * test file (tests/integration/fuzz-api-*.test.ts), so that the parts run side by side.
 */
export function defineFuzzApi(part: number, parts: number) {
  beforeAll(async () => {
    const admin = await setupInstallation();
    campaignId = await makeCampaign(admin, { name: 'Fuzz target', campaignType: 'landing_page' });
    await makeOffer(admin, campaignId);
    // Made at first need: made here, so that no refused request of the suite is the one to make it.
    await postbackSecret(campaignId);
    const coach = await userWithRole(admin, 'coach');
    const student = await userWithRole(admin, 'student');
    identities = [
      { name: 'admin', token: admin },
      { name: 'coach', token: coach.token },
      { name: 'student', token: student.token },
      { name: 'nobody', token: null },
    ];
  });

  afterAll(() => {
    console.log(`fuzz (api, part ${part + 1} of ${parts}): ${fuzz.cases} cases tried`);
  });

  describe('fuzz: every documented /api/ route, as every role and as nobody', () => {
    it('covers the documented calls', () => {
      expect(calls.length).toBeGreaterThan(70);
    });

    it.each(calls.filter((_, i) => i % parts === part))('%s', { timeout: 120_000 }, async (call) => {
      const [method, template] = call.split(' ');
      const path = template.replace(':id', String(campaignId)).replace(':index', '-1');
      for (const who of identities) {
        await fuzz.checkedGroup(async () => {
          if (method === 'GET') {
            await fuzz.send('GET', `${path}${QUERY}`, who.token);
            return;
          }
          // Every payload as admin; the other roles, refused or limited, get three telling ones.
          const payloads = who.name === 'admin' ? PAYLOADS : [PAYLOADS[0], PAYLOADS[5], PAYLOADS[8]];
          for (const payload of payloads) await fuzz.send(method, path, who.token, payload);
          const form = new FormData();
          form.set('campaignId', "1' OR '1'='1");
          form.append('campaignId', '2');
          form.set('uploads', new File([new Uint8Array([0x50, 0x4b, 3, 4, 0xff, 0xff])], '../../evil.zip'));
          await fuzz.send(method, path, who.token, { name: 'hostile multipart', body: form });
        });
      }
    });

    // The body is read before the sign-in and role checks (decision 125), so one identity that
    // passes every sign-in check reaches the reader on every route; tests/integration/
    // unreadable-bodies.test.ts checks a student and nobody get the same 400.
    it.each(calls.filter((c, i) => i % parts === part && !c.startsWith('GET ')))(
      '%s: an unreadable body answers 400 with the reason and writes nothing',
      async (call) => {
        const [method, template] = call.split(' ');
        const path = template.replace(':id', String(campaignId)).replace(':index', '-1');
        await fuzz.checkedGroup(async () => {
          for (const payload of UNREADABLE) {
            const status = await fuzz.send(method, path, identities[0].token, payload);
            expect(status, `${call} with ${payload.name}: ${fuzz.lastText}`).toBe(400);
            expect(JSON.parse(fuzz.lastText)).toEqual({
              message: payload.message,
              errors: { message: [payload.message] },
            });
          }
        });
      },
    );

    // Once, in the first part.
    if (part === 0) {
      it('refuses a body over the limit with 413 and writes nothing', async () => {
        await fuzz.checkedGroup(async () => {
          await fuzz.send('POST', '/api/add-campaign', identities[0].token, {
            name: 'oversized',
            body: enc.encode(`{"name":"${'x'.repeat(1_100_000)}"}`),
            type: 'application/json',
          });
        });
        expect(fuzz.statuses).toEqual([413]);
      });
    }
  });
}
