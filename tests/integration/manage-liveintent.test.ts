import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { LIVEINTENT_MESSAGES as M } from '../../schema/liveintent-api';
import { encryptSecret } from '../../worker/lib/secrets';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { liCampaignForm, liLineItemForm } from '../support/liveintent-forms.mjs';
import { freshLiveIntentAdvertiser } from '../support/platform-fakes';

// The manage-liveintent calls against the LiveIntent fake (issue 13, spec 4 §2, §5, §7, §8):
// the access rules, every call's success, the spec's validation messages and the platform's errors.

const token = await setupInstallation();
let advertiser = 0;

// The platform campaign's dates in liCampaignForm (tests/support/liveintent-forms.mjs).
const START = '2027-01-10 00:00:00';
const END = '2027-01-20 23:59:00';

beforeEach(async () => {
  advertiser += 1;
  await freshLiveIntentAdvertiser(`adv-${advertiser}`);
});

const liCampaign = () => makeCampaign(token, { name: 'Native push', trafficSource: 'liveintent' });
const post = (verb: string, body: Record<string, unknown>, as = token) =>
  api(`/api/manage-liveintent/${verb}`, { token: as, body });
const get = (verb: string, query: Record<string, string | number>, as = token) =>
  api(
    `/api/manage-liveintent/${verb}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    {
      token: as,
    },
  );

async function createLiCampaign(campaignId: number, over: Record<string, unknown> = {}) {
  const res = await post('create-campaign', liCampaignForm(campaignId, over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.liCampaign.li_refid as string;
}

/** The line items of these tests carry a segment and age and gender targeting. */
const lineItemForm = (campaignId: number, liCampaignId: string, over: Record<string, unknown> = {}) =>
  liLineItemForm(campaignId, liCampaignId, {
    dataProviderSegments: [{ type: 'bluekai', id: '771' }],
    ageTarget: [3, 4, 99],
    genderTargetType: 'exclude',
    genderTarget: [8],
    ...over,
  });

async function createLineItem(campaignId: number, liCampaignId: string) {
  const res = await post('create-lineitem', lineItemForm(campaignId, liCampaignId));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.lineItem.li_refid as string;
}

/** A PNG of exactly `size` bytes (its signature, then padding) as a data URL. */
function png(size: number) {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return `data:image/png;base64,${btoa(text)}`;
}

async function adImages(campaignId: number) {
  return (await env.BUCKET.list({ prefix: `public/liveintent-ads/${campaignId}/` })).objects.map(
    (o) => o.key,
  );
}

describe('access rules', () => {
  it('answers the campaign its traffic source and hasLiveIntentAccount', async () => {
    const id = await liCampaign();
    const res = await api(`/api/campaign?campaignId=${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.campaign).toEqual({
      campaignId: id,
      name: 'Native push',
      trafficSource: 'liveintent',
    });
    expect(res.body.data.hasLiveIntentAccount).toBe(false);
  });

  it('refuses a campaign whose traffic source is not liveintent, on reads and writes', async () => {
    const id = await makeCampaign(token, { name: 'Search traffic', trafficSource: 'taboola' });
    const list = await get('licampaigns', { id });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: M.notLiveIntent, errors: { message: [M.notLiveIntent] } });
    const create = await post('create-campaign', liCampaignForm(id));
    expect(create.status).toBe(403);
    expect(create.body.message).toBe(M.notLiveIntent);
    expect(
      (
        await env.DB.prepare('SELECT COUNT(*) AS n FROM liveintent_objects WHERE campaign_id = ?')
          .bind(id)
          .first()
      )?.n,
    ).toBe(0);
  });

  it('refuses everything when the installation has its own LiveIntent account', async () => {
    const id = await liCampaign();
    const username = await encryptSecret(env, 'pli_username', 'student@acme.test');
    await env.DB.prepare(
      "INSERT INTO settings (key, value) VALUES ('pli_advertiser_id', 'own-adv'), ('pli_username', ?)",
    )
      .bind(username)
      .run();
    const detail = await api(`/api/campaign?campaignId=${id}`, { token });
    expect(detail.body.data.hasLiveIntentAccount).toBe(true);
    for (const res of [await get('licampaigns', { id }), await get('access', { campaignId: id })]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(M.hasOwnAccount);
    }
  });

  it("hides another user's campaign from a student (404) and needs a token (401)", async () => {
    const id = await liCampaign();
    const student = await userWithRole(token, 'student');
    expect((await get('licampaigns', { id }, student.token)).status).toBe(404);
    expect((await get('licampaigns', { id }, null as unknown as string)).status).toBe(401);
  });
});

describe('platform campaigns', () => {
  it('creates, reads, edits and deletes a campaign of this tracker campaign only', async () => {
    const id = await liCampaign();
    const other = await liCampaign();
    const created = await post(
      'create-campaign',
      liCampaignForm(id, { strategyType: 'max_click', bidAmount: '2.5' }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.message).toBe('Campaign Created!');
    const refId = created.body.data.liCampaign.li_refid;
    const list = await get('licampaigns', { id });
    expect(list.body.data.liCampaigns).toEqual([
      {
        li_refid: refId,
        li_name: 'Spring sale',
        li_start_date: START,
        li_end_date: END,
        perf_goal: 'max_click',
        bidAmount: 2.5,
        category: 1,
        conversionPixel: '',
        li_status: 'active',
      },
    ]);
    expect((await get('licampaigns', { id: other })).body.data.liCampaigns).toEqual([]);
    const foreign = await post('campaign', { campaignId: other, refId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(M.campaignNotFound);

    const edited = await post(
      'edit-campaign',
      liCampaignForm(id, { refId, name: 'Summer sale', category: 7 }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data.message).toBe('Campaign Updated!');
    const one = await post('campaign', { campaignId: id, refId });
    expect(one.body.data.liCampaign).toMatchObject({
      li_name: 'Summer sale',
      category: 7,
      perf_goal: 'deliver_impression',
    });

    const deleted = await post('delete-campaign', { campaignId: id, refId });
    expect(deleted.body.data.message).toBe('Campaign deleted successfully');
    expect((await get('licampaigns', { id })).body.data.liCampaigns).toEqual([]);
  });

  it('answers the IAB categories and the advertiser trackers for the campaign form', async () => {
    const categories = await get('iab-categories', {});
    expect(categories.body.data).toHaveLength(26);
    expect(categories.body.data[0]).toEqual({ id: 1, code: 'IAB1', name: 'Arts & Entertainment' });
  });

  it.each([
    [{ startDate: '2020-01-01 00:00:00' }, 'startDate', "Can't start from the past."],
    [{ endDate: '2027-01-09 23:00:00' }, 'endDate', "End Date can't be older than Start Date"],
    [{ endDate: START }, 'endDate', "End Date can't be the same as Start Date"],
    [{ bidAmount: 0 }, 'bidAmount', 'Must be greater than 0'],
    [{ strategyType: 'achieve_cpa' }, 'conversionPixel', 'This field is required.'],
    [{ strategyType: 'max_conversion', conversionPixel: '' }, 'conversionPixel', 'This field is required.'],
    [{ name: '  ' }, 'name', 'This field is required.'],
    [{ startDate: '2027-02-30 00:00:00' }, 'startDate', 'Start Date is invalid.'],
  ])('refuses %j with the spec message', async (over, field, message) => {
    const id = await liCampaign();
    const res = await post('create-campaign', liCampaignForm(id, over));
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM liveintent_objects WHERE campaign_id = ?')
        .bind(id)
        .first('n'),
    ).toBe(0);
  });

  it("turns the platform's failures into clear answers, never a 401 or a 500", async () => {
    const id = await liCampaign();
    const refused = await post('create-campaign', liCampaignForm(id, { name: 'rejected name' }));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('E1000 INV: name');
    const down = await post('create-campaign', liCampaignForm(id, { name: 'fail-500 campaign' }));
    expect(down.status).toBe(502);
    expect(down.body.errors.message).toEqual([M.platformFailed, 'E0500 SRV: server']);
    const limited = await post('create-campaign', liCampaignForm(id, { name: 'fail-429 campaign' }));
    expect(limited.status).toBe(502);
    const expired = await post('create-campaign', liCampaignForm(id, { name: 'fail-401 campaign' }));
    expect(expired.status).toBe(502);
    expect(expired.body.errors.message).toEqual([M.platformFailed, 'E0401 AUTH: token']);
    const malformed = await post('create-campaign', liCampaignForm(id, { name: 'malformed campaign' }));
    expect(malformed.status).toBe(502);
    expect((await get('licampaigns', { id })).body.data.liCampaigns).toEqual([]);
  });

  it('says LiveIntent is not connected when no account is stored', async () => {
    await env.DB.prepare("DELETE FROM platform_credentials WHERE platform = 'liveintent'").run();
    const id = await liCampaign();
    const res = await get('licampaigns', { id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(M.notConnected);
  });
});

describe('line items', () => {
  it('creates, lists, reads, edits and deletes a line item with its targeting', async () => {
    const id = await liCampaign();
    const parent = await createLiCampaign(id);
    const created = await post('create-lineitem', lineItemForm(id, parent));
    expect(created.status).toBe(201);
    expect(created.body.data.message).toBe('Line Item Created!');
    const refId = created.body.data.lineItem.li_refid;
    const one = await get('lineitem', { campaignId: id, id: refId });
    expect(one.body.data.lineItem).toEqual({
      li_refid: refId,
      li_name: 'Morning line',
      li_status: 'paused',
      li_start_date: '2027-01-11 00:00:00',
      li_end_date: '2027-01-19 23:59:00',
      li_daily_cap: 0,
      li_daily_budget: 25,
      li_campaign_refid: parent,
      age_target_type: 'include',
      gender_target_type: 'exclude',
      age_target: [3, 4],
      gender_target: [8],
      data_provider_segments: [{ type: 'bluekai', id: '771' }],
    });
    const edited = await post(
      'edit-lineitem',
      lineItemForm(id, parent, { lineItemRefId: refId, name: 'Evening line', status: 'active' }),
    );
    expect(edited.body.data.message).toBe('Line Item Updated!');
    const list = await get('lineitems', { id });
    expect(
      list.body.data.lineItems.map((l: { li_name: string; li_status: string }) => [l.li_name, l.li_status]),
    ).toEqual([['Evening line', 'active']]);
    const deleted = await post('delete-lineitem', { campaignId: id, lineItemRefId: refId });
    expect(deleted.body.data.message).toBe('Line Item deleted successfully');
    const gone = await get('lineitem', { campaignId: id, id: refId });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('No record found for this Line Item.');
  });

  it('checks the required fields and dates in the spec words', async () => {
    const id = await liCampaign();
    const res = await post('create-lineitem', {
      campaignId: id,
      liCampaignId: '',
      name: '',
      status: 'sleeping',
      startDate: 'soon',
      endDate: '',
      dailyCap: '',
      dailyBudget: '',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      liCampaignId: ['This field is required.'],
      name: ['This field is required.'],
      status: ['This field is required.'],
      dailyCap: ['This field is required.'],
      dailyBudget: ['This field is required.'],
      startDate: ['Start Date is invalid.'],
      endDate: ['End Date is invalid.'],
    });
    const parent = await createLiCampaign(id);
    const backwards = await post(
      'create-lineitem',
      lineItemForm(id, parent, { startDate: '2027-01-15 00:00:00', endDate: '2027-01-12 00:00:00' }),
    );
    expect(backwards.body.errors.endDate).toEqual(['Ensure that End Date is not set prior to Start Date.']);
  });

  it("keeps a line item inside its campaign's dates and asks for a positive amount per goal", async () => {
    const id = await liCampaign();
    const parent = await createLiCampaign(id);
    const outside = await post(
      'create-lineitem',
      lineItemForm(id, parent, {
        startDate: '2027-01-09 00:00:00',
        endDate: '2027-01-21 00:00:00',
        dailyBudget: 0,
      }),
    );
    expect(outside.status).toBe(422);
    expect(outside.body.errors).toEqual({
      dailyBudget: ['Amount should be greater than zero.'],
      startDate: ['Ensure that Start Date is not set prior to Campaign Start Date.'],
      endDate: ['Ensure that End Date does not extend beyond Campaign End Date.'],
    });
    const tracker = await post('create-conversiontracker', {
      campaignId: id,
      termRegex: 'thank-you',
      segmentName: 'Buyers',
    });
    const cpa = await createLiCampaign(id, {
      strategyType: 'achieve_cpa',
      conversionPixel: tracker.body.data.conversionTracker.li_conversion_refid,
    });
    const noCap = await post('create-lineitem', lineItemForm(id, cpa, { dailyCap: 0, dailyBudget: 0 }));
    expect(noCap.body.errors).toEqual({ dailyCap: ['Amount should be greater than zero.'] });
    expect(
      (await post('create-lineitem', lineItemForm(id, cpa, { dailyCap: 40, dailyBudget: 0 }))).status,
    ).toBe(201);
  });

  it("refuses a line item under another campaign's platform campaign", async () => {
    const id = await liCampaign();
    const other = await liCampaign();
    const foreign = await createLiCampaign(other);
    const res = await post('create-lineitem', lineItemForm(id, foreign));
    expect(res.status).toBe(422);
    expect(res.body.errors.liCampaignId).toEqual([M.campaignNotFound]);
    const item = await createLineItem(other, foreign);
    expect((await get('lineitem', { campaignId: id, id: item })).status).toBe(404);
  });

  it("answers 'Error getting lineitems' when the platform fails the list", async () => {
    const id = await liCampaign();
    await createLiCampaign(id, { name: 'Will fail later' });
    await env.DB.prepare("UPDATE liveintent_objects SET ref_id = 'fail-500-ref' WHERE campaign_id = ?")
      .bind(id)
      .run();
    const res = await get('lineitems', { id });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Error getting lineitems');
  });
});

describe('conversion trackers', () => {
  it('creates a tracker with its pixel, reads its status, edits and deletes it', async () => {
    const id = await liCampaign();
    const created = await post('create-conversiontracker', {
      campaignId: id,
      termRegex: '/thanks',
      segmentName: 'Buyers',
    });
    expect(created.status).toBe(201);
    expect(created.body.data.message).toBe('Conversion Tracker Created!');
    const t = created.body.data.conversionTracker;
    expect(t).toMatchObject({ li_segment_name: 'Buyers', li_term_regex: '/thanks', li_status: 'active' });
    expect(t.li_conversion_refid).not.toBe('0');
    const list = await get('conversiontrackers', { campaignId: id });
    expect(list.body.data.conversionTrackers).toEqual([t]);
    expect(
      (await get('get-conversion-tracker-status', { campaignId: id, id: t.li_segment_id })).body.data,
    ).toEqual({
      active: true,
    });
    const edited = await post('edit-conversiontracker', {
      campaignId: id,
      segmentId: t.li_segment_id,
      termRegex: '/thank-you',
      segmentName: 'Customers',
    });
    expect(edited.body.data.message).toBe('Conversion Tracker Updated!');
    expect(
      (await get('conversiontracker', { campaignId: id, id: t.li_segment_id })).body.data.conversionTracker,
    ).toMatchObject({
      li_segment_name: 'Customers',
      li_term_regex: '/thank-you',
    });
    const deleted = await post('delete-conversiontracker', {
      campaignId: id,
      conversionRefId: t.li_conversion_refid,
    });
    expect(deleted.body.data.message).toBe('Conversion Tracker deleted successfully');
    const gone = await get('conversiontracker', { campaignId: id, id: t.li_segment_id });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('No record found for this Conversion Tracker.');
  });

  it('creates the pixel of a tracker whose conversion reference is 0', async () => {
    const id = await liCampaign();
    // A segment made on the platform without its pixel.
    const login = await env.PLATFORM_FAKES!.fetch('http://fakes.test/liveintent/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'li-manager', password: 'li-pass' }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    await env.PLATFORM_FAKES!.fetch('http://fakes.test/liveintent/segment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ name: 'Legacy', termRegex: '/old', advertiser: `adv-${advertiser}` }),
    });
    const [legacy] = (await get('conversiontrackers', { campaignId: id })).body.data.conversionTrackers;
    expect(legacy).toMatchObject({
      li_segment_name: 'Legacy',
      li_conversion_refid: '0',
      li_conversion_id: 0,
    });
    expect(
      (await get('get-conversion-tracker-status', { campaignId: id, id: legacy.li_segment_id })).body.data
        .active,
    ).toBe(false);
    const pixel = await post('edit-conversiontracker-pixel', {
      campaignId: id,
      segmentId: legacy.li_segment_id,
    });
    expect(pixel.status).toBe(200);
    expect(pixel.body.data.conversionTracker.li_conversion_refid).toMatch(/^\d+$/);
    expect(
      (await get('get-conversion-tracker-status', { campaignId: id, id: legacy.li_segment_id })).body.data
        .active,
    ).toBe(true);
  });

  it('requires the term regex and the segment name, not blank', async () => {
    const id = await liCampaign();
    const res = await post('create-conversiontracker', { campaignId: id, termRegex: '   ', segmentName: '' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      termRegex: ['This field is required.'],
      segmentName: ['This field is required.'],
    });
  });
});

describe('ads', () => {
  async function adSetup() {
    const id = await liCampaign();
    const parent = await createLiCampaign(id);
    const line = await createLineItem(id, parent);
    return { id, line };
  }
  const adForm = (id: number, line: string, over: Record<string, unknown> = {}) => ({
    campaignId: id,
    lineitem_ref_id: line,
    adName: 'Blue banner',
    clickUrl: 'https://shop.example/offer',
    mediaUrl: png(2048),
    width: 300,
    height: 250,
    ...over,
  });

  it('creates an ad with its image in R2, lists, edits, toggles and deletes it', async () => {
    const { id, line } = await adSetup();
    const created = await post('create-ad', adForm(id, line));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ad = created.body.data.ad;
    const [key] = await adImages(id);
    expect(ad).toMatchObject({
      li_name: 'Blue banner',
      li_click_url: 'https://shop.example/offer',
      li_status: true,
      li_lineitem_refid: line,
    });
    expect(ad.li_media_url).toBe(`https://tracker.example.com/files/${key}`);
    const stored = await env.BUCKET.get(key);
    expect(stored?.size).toBe(2048);
    expect(stored?.httpMetadata?.contentType).toBe('image/png');
    const served = await api(`/files/${key}`);
    expect(served.status).toBe(200);

    expect((await get('liads', { id })).body.data.ads).toEqual([ad]);
    const edited = await post('edit-ad', {
      campaignId: id,
      refId: ad.li_refid,
      adName: 'Green banner',
      clickUrl: 'https://shop.example/b',
      mediaUrl: ad.li_media_url,
    });
    expect(edited.body.data.message).toBe('Ad updated!');
    expect((await get('liad', { campaignId: id, id: ad.li_refid })).body.data.ad).toMatchObject({
      li_name: 'Green banner',
      li_media_url: ad.li_media_url,
    });

    const off = await post('toggle-ad-status', { campaignId: id, refId: ad.li_refid, status: false });
    expect(off.body.data.message).toBe('Ad status changed successfully');
    expect((await get('liad', { campaignId: id, id: ad.li_refid })).body.data.ad.li_status).toBe(false);

    const deleted = await post('delete-ad', { campaignId: id, refId: ad.li_refid });
    expect(deleted.body.data.message).toBe('Ad deleted successfully');
    expect((await get('liads', { id })).body.data.ads).toEqual([]);
    expect(await adImages(id)).toEqual([]);
  });

  it('checks the image by its bytes and its size, and stores nothing refused', async () => {
    const { id, line } = await adSetup();
    const text = await post(
      'create-ad',
      adForm(id, line, { mediaUrl: `data:image/png;base64,${btoa('<svg></svg>')}` }),
    );
    expect(text.status).toBe(422);
    expect(text.body.errors.mediaUrl).toEqual(['Must be an image file']);
    const big = await post('create-ad', adForm(id, line, { mediaUrl: png(250_000) }));
    expect(big.status).toBe(422);
    expect(big.body.errors.mediaUrl).toEqual(['File size must be less than 250kb']);
    expect(await adImages(id)).toEqual([]);
    expect((await post('create-ad', adForm(id, line, { mediaUrl: png(249_999) }))).status).toBe(201);
    const missing = await post('create-ad', adForm(id, line, { adName: '', clickUrl: '' }));
    expect(missing.body.errors).toMatchObject({
      adName: ['This field is required.'],
      clickUrl: ['This field is required.'],
    });
  });

  it('asks for an image on edit, and keeps no image of an ad the platform refused', async () => {
    const { id, line } = await adSetup();
    const refused = await post('create-ad', adForm(id, line, { adName: 'fail-500 ad' }));
    expect(refused.status).toBe(502);
    expect(await adImages(id)).toEqual([]);
    const created = await post('create-ad', adForm(id, line));
    const noImage = await post('edit-ad', {
      campaignId: id,
      refId: created.body.data.ad.li_refid,
      adName: 'x',
      clickUrl: 'https://a.example',
      mediaUrl: '',
    });
    expect(noImage.status).toBe(422);
    expect(noImage.body.errors.mediaUrl).toEqual(['Please select an image']);
    const unknown = await post('delete-ad', { campaignId: id, refId: 'creative-1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(M.adNotFound);
  });
});
