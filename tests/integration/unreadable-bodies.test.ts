import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_MESSAGES } from '../../worker/lib/body';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit, postbackSecret } from '../factories/traffic';

// Issue 24, item 6 (docs/decisions/125): a body that cannot be read answers 400 with a message
// that says why, on every kind of route (JSON validator, readBody, multipart upload, tracking
// postback), and nothing is written; a body over a limit answers 413 naming the limit; an empty
// JSON body reads as {}.

const UNTERMINATED = '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nHalf a campaign';

let admin: string;
let student: string;
let campaignId: number;

beforeAll(async () => {
  admin = await setupInstallation();
  campaignId = await makeCampaign(admin, { name: 'Body target', campaignType: 'landing_page' });
  await makeOffer(admin, campaignId);
  student = (await userWithRole(admin, 'student')).token;
});

async function send(method: string, path: string, type: string | null, body: BodyInit, token = admin) {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (type) headers['content-type'] = type;
  const res = await SELF.fetch(`http://tracker.test${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

const campaignCount = async () =>
  (await env.DB.prepare('SELECT count(*) AS n FROM campaigns').first<{ n: number }>())!.n;

// One route of each way a body is read: a zod validator, readBody, multipart helpers, uploads.
const ROUTES: [string, string][] = [
  ['POST', '/api/add-campaign'],
  ['POST', '/api/get-balance'],
  ['POST', '/api/update-balance'],
  ['POST', '/api/blaze/save-banner'],
  ['POST', '/api/cpc/save-assets'],
  ['POST', '/api/uploadcsv'],
  ['POST', '/api/lading-pages-csv'],
  ['POST', '/api/update-setting'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/campaigns/1/postback-secret'],
];

describe('unreadable bodies answer 400 with the reason', () => {
  const cases: [string, string, BodyInit, string][] = [
    [
      'an unterminated multipart body',
      'multipart/form-data; boundary=xyz',
      UNTERMINATED,
      BODY_MESSAGES.multipart,
    ],
    ['multipart without a boundary', 'multipart/form-data', UNTERMINATED, BODY_MESSAGES.noBoundary],
    [
      'a broken urlencoded body',
      'application/x-www-form-urlencoded',
      'name=%E0%A4%A&campaignId=%zz',
      BODY_MESSAGES.urlencoded,
    ],
    ['invalid JSON', 'application/json', '{"name": ', BODY_MESSAGES.json],
    ['a JSON array', 'application/json', '[1,2,3]', BODY_MESSAGES.notObject],
    ['JSON null', 'application/json', 'null', BODY_MESSAGES.notObject],
    ['text/plain', 'text/plain', 'name=x', BODY_MESSAGES.contentType],
    ['XML', 'application/xml', '<x/>', BODY_MESSAGES.contentType],
  ];
  for (const [what, type, body, message] of cases) {
    it(`${what}: 400 '${message}' on every kind of route, nothing written`, async () => {
      const before = await campaignCount();
      for (const [method, path] of ROUTES) {
        const res = await send(method, path, type, body);
        expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body).toEqual({ message, errors: { message: [message] } });
      }
      expect(await campaignCount()).toBe(before);
    });
  }

  it('answers a student the same 400 for an unterminated multipart body', async () => {
    const res = await send(
      'POST',
      '/api/add-campaign',
      'multipart/form-data; boundary=xyz',
      UNTERMINATED,
      student,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(BODY_MESSAGES.multipart);
  });

  it('still reads a well-formed form and JSON body', async () => {
    const form = new FormData();
    form.set('perPage', '5');
    const viaForm = await api('/api/get-balance', { token: admin, body: form });
    expect(viaForm.status).toBe(200);
    expect(viaForm.body.data.pagination.perPage).toBe(5);
    for (const [type, body, perPage] of [
      ['application/x-www-form-urlencoded', 'perPage=7', 7],
      ['application/json; charset=utf-8', '{"perPage":3}', 3],
    ] as const) {
      const res = await send('POST', '/api/get-balance', type, body);
      expect(res.status, type).toBe(200);
      expect(res.body.data.pagination.perPage, type).toBe(perPage);
    }
  });

  it('refuses an unterminated multipart postback with 400 and stores nothing', async () => {
    const secret = await postbackSecret(campaignId);
    const before = await env.DB.prepare('SELECT count(*) AS n FROM conversion_rejections').first<{
      n: number;
    }>();
    const res = await hit(`/postback?secret=${secret}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="clickid"\r\n\r\nabc',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: BODY_MESSAGES.multipart,
      errors: { message: [BODY_MESSAGES.multipart] },
    });
    const after = await env.DB.prepare('SELECT count(*) AS n FROM conversion_rejections').first<{
      n: number;
    }>();
    expect(after!.n).toBe(before!.n);
  });
});

describe('get-balance with a JSON content type and an empty body', () => {
  it('answers the caller\u2019s own balance, as docs/api.md allows', async () => {
    const res = await send('POST', '/api/get-balance', 'application/json', '');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user.username).toBe('owner');
    expect(res.body.data.pagination).toEqual({ currentPage: 1, perPage: 10, total: 0, lastPage: 1 });
  });
});

describe('a body over a limit says the limit', () => {
  it('a 50 MB banner upload: 413 naming the upload limit, not the batch-count message', async () => {
    const res = await send(
      'POST',
      '/api/blaze/save-banner',
      'multipart/form-data; boundary=xyz',
      new Uint8Array(50 * 1024 * 1024),
    );
    expect(res.status).toBe(413);
    const message = 'The banner upload is too large: at most 5 images of up to 2 MB each.';
    expect(res.body).toEqual({ message, errors: { uploads: [message] } });
  });

  it('a JSON body over 1 MB: 413 naming the 1 MB limit', async () => {
    const res = await send(
      'POST',
      '/api/add-campaign',
      'application/json',
      `{"name":"${'x'.repeat(1_100_000)}"}`,
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The request body is too large: the limit is 1 MB.');
  });
});
