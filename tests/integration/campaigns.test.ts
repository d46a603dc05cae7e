import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signFacebookVerification } from '../../worker/services/campaigns/facebook-verification';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { hit, postbackSecret } from '../factories/traffic';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// The campaign API of spec 2 §7 that the tracking engine needs: add and edit campaigns,
// landing pages, offers, paths and options; lists; the detail with linkpixel; reset-stats.

const admin = await setupInstallation();

const tokens = (n: number, deleted = 0) =>
  Array.from({ length: n }, (_, i) => ({ token_name: `Token ${i}`, parameter: `p${i}`, deleted }));

describe('add-campaign and edit-campaign', () => {
  it('needs a token', async () => {
    expect((await api('/api/add-campaign', { body: { name: 'x' } })).status).toBe(401);
    expect((await api('/api/campaign')).status).toBe(401);
  });

  it('requires a name, with the spec message first', async () => {
    const res = await api('/api/add-campaign', {
      token: admin,
      body: { name: '   ', extratokens: tokens(21) },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Campaign name is required.');
    expect(res.body.errors).toEqual({
      name: ['Campaign name is required.'],
      extratokens: ['You can add up to 20 tokens for a campaign.'],
    });
  });

  it('creates a campaign with the defaults and answers data.campaign.campaignData', async () => {
    const res = await api('/api/add-campaign', { token: admin, body: { name: 'Defaults' } });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Campaign Added Successfully.');
    expect(res.body.data.campaign.campaignData).toEqual({
      campaignId: expect.any(Number),
      name: 'Defaults',
      urlAppendToken: 'tid',
      keywordParameter: 'keyword',
      campaignType: 'direct_link',
      active: 1,
      lpTargetParam: '',
      opTargetParam: '',
    });
  });

  it('stores every field and answers them in the detail', async () => {
    // The fields stored and answered as sent.
    const asSent = {
      urlAppendToken: 'ad_id',
      keywordParameter: 'kw',
      custom_url: 'https://fallback.example/',
      rotator_base_url: 'https://rotator.example/',
      rotator_requires_signed_contract: 1,
      custom_url_result: 'ok',
      offerPromotion: 'affiliate-mentorship',
      trafficSource: 'liveintent',
      affiliate_network: 'sellhealth',
      postback_enabled: 1,
      postback: 'https://ts.example.com/pb?c={clickid}&p={payout}',
    };
    const body = {
      name: 'Every field',
      ...asSent,
      active: '0',
      campaignType: 'landing_page',
      lpTargetParam: 'cid',
      opTargetParam: '',
      cpc: '0.75',
      li_conversion_image_pixel: 'purchase,lead',
      li_conversion_lp: 'lp-name',
      li_conversion_atc1: 'atc1-name',
      li_conversion_atc2: 'atc2-name',
      customConversionGoal: 'Lead',
      li_custom_name_enabled: true,
      landing_pages_auto_optimized: 1,
      enable_lp_test_reporting: 1,
      landing_pages_optimization_goal: 'cr',
      landing_pages_optimization_metric: 'cr',
      landing_pages_optimization_threshold: '1.5',
      landing_pages_optimization_min_visits: 25,
      redirectType: 'double_meta',
      metainfo: { alerts: [], dataset_id: '42' },
      extratokens: [
        {
          token_name: 'Placement',
          parameter: 'placement',
          url_append: '{{placement}}',
          landing_page_enabled: 1,
        },
      ],
      userId: 999, // ignored: the owner is the caller
    };
    const id = (await api('/api/add-campaign', { token: admin, body })).body.data.campaign.campaignData
      .campaignId;
    const detail = await api(`/api/campaign?campaignId=${id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      campaignId: id,
      name: 'Every field',
      is_dir: 0,
      dir: 0,
      ...asSent,
      active: 0,
      campaignType: 'landing_page',
      lpTargetParam: 'cid',
      opTargetParam: 't1',
      cpc: 0.75,
      li_conversion_image_pixel: 'purchase,lead',
      li_conversion_lp: 'lp-name',
      li_conversion_atc1: 'atc1-name',
      li_conversion_atc2: 'atc2-name',
      customConversionGoal: 'lead',
      li_custom_name_enabled: 1,
      landing_pages_auto_optimized: 1,
      enable_lp_test_reporting: 1,
      landing_pages_optimization_goal: 'cr',
      landing_pages_optimization_metric: 'cr',
      landing_pages_optimization_threshold: 1.5,
      landing_pages_optimization_min_visits: 25,
      redirectType: 'double_meta',
      metainfo: { alerts: [], dataset_id: '42' },
      deleted: 0,
      userId: expect.any(Number),
      currentDomain: 'https://tracker.example.com',
      landing: [],
      offer: [],
      path: [],
      option: [],
      agents: [
        { id: 1, agent_name: 'any' },
        { id: 2, agent_name: 'desktop' },
        { id: 3, agent_name: 'mobile' },
        { id: 4, agent_name: 'tablet' },
      ],
      extratokens: [
        {
          extraTokenId: expect.any(Number),
          campaignId: id,
          slot: 1,
          token_name: 'Placement',
          parameter: 'placement',
          url_append: '{{placement}}',
          landing_page_enabled: 1,
          offer_page_enabled: 0,
          deleted: 0,
        },
      ],
    });
    expect(detail.body.data.userId).not.toBe(999);
    const secret = await postbackSecret(id);
    expect(secret).toMatch(/^[\w-]{20,}$/);
    expect(detail.body.data.linkpixel).toMatchObject({
      // LiveIntent's ad-id macro fills the URL token (issue 27, decision 130).
      campaignURL: `https://tracker.example.com/go/${id}?ad_id=\${CREATIVE_ID}&placement={{placement}}`,
      lpofferlink_simple: `https://tracker.example.com/click/${id}`,
      postback: `https://tracker.example.com/postback?clickid={clickid}&payout={payout}&txid={txid}&secret=${secret}`,
      pixel_url: `https://tracker.example.com/pixel.gif?campaign=${id}&secret=${secret}`,
    });
    expect(detail.body.data.linkpixel.pixel).toContain(
      `<img src="https://tracker.example.com/pixel.gif?campaign=${id}&amp;secret=${secret}"`,
    );
    expect(detail.body.data.linkpixel.direct_tracking).toContain(`/script.js?mode=visit&campaign=${id}`);
  });

  it.each([
    [
      { trafficSource: 'facebook' },
      'trafficSource',
      'Please verify the facebook campaign first before saving. Facebook campaign ID must be valid.',
    ],
    [{ li_custom_name_enabled: 1 }, 'li_conversion_image_pixel', 'Conversion image pixel name is required.'],
    [{ extratokens: tokens(21) }, 'extratokens', 'You can add up to 20 tokens for a campaign.'],
    [{ postback_enabled: 1 }, 'postback', 'Postback URL is required when postback is enabled.'],
    [{ campaignType: 'popunder' }, 'campaignType', 'Select a valid campaign type.'],
    [{ custom_url: 'javascript:alert(1)' }, 'custom_url', 'Enter a valid http or https URL.'],
    [
      { urlAppendToken: 'a b' },
      'urlAppendToken',
      'Parameter names may contain only letters, digits, underscore, dash, dot and brackets.',
    ],
    [{ cpc: '-1' }, 'cpc', 'CPC must be a number of at least 0 with up to 6 decimals.'],
    [{ metainfo: '[1,2]' }, 'metainfo', 'Metainfo must be a JSON object.'],
  ])('refuses %j', async (override, field, message) => {
    const res = await api('/api/add-campaign', { token: admin, body: { name: 'Rules', ...override } });
    expect(res.status).toBe(422);
    expect(res.body.errors[field]).toEqual([message]);
  });

  it('accepts 20 live tokens plus deleted ones, and a verified facebook campaign whose target is the ad id', async () => {
    const res = await api('/api/add-campaign', {
      token: admin,
      body: {
        name: 'Twenty',
        extratokens: [...tokens(20), ...tokens(3, 1).map((t) => ({ ...t, parameter: `d${t.parameter}` }))],
      },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.campaign.campaignData.campaignId;
    const list = await api(`/api/extratokens?campaignId=${id}`, { token: admin });
    expect(list.body.data.result.map((t: any) => t.slot)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );

    const fb = await makeCampaign(admin, {
      name: 'Facebook',
      trafficSource: 'facebook',
      urlAppendToken: 'ad_id',
      // The verification the server signed when Facebook knew the campaign (docs/decisions/075).
      metainfo: {
        verified: true,
        facebook_campaign_id: '123',
        verification: signFacebookVerification(env, '123'),
      },
    });
    await makeOffer(admin, fb);
    await hit(`/go/${fb}?ad_id=238490&tid=ignored`);
    await waitForRows('visits', fb, 1);
    const visit = await env.DB.prepare('SELECT target FROM visits WHERE campaign_id = ?1').bind(fb).first();
    expect(visit).toEqual({ target: '238490' });
  });

  it('keeps token slots stable across edits, deletes the tokens left out and reuses free slots', async () => {
    const id = await makeCampaign(admin, { name: 'Slots', extratokens: tokens(3) });
    const before = (await api(`/api/extratokens?campaignId=${id}`, { token: admin })).body.data.result;
    expect(before.map((t: any) => [t.parameter, t.slot])).toEqual([
      ['p0', 1],
      ['p1', 2],
      ['p2', 3],
    ]);
    // Keep p0 and p2 (renamed), drop p1, add q.
    const edit = await api('/api/edit-campaign', {
      method: 'PUT',
      token: admin,
      body: {
        campaignId: id,
        name: 'Slots',
        extratokens: [
          { extraTokenId: before[0].extraTokenId, token_name: 'First', parameter: 'p0' },
          {
            extraTokenId: before[2].extraTokenId,
            token_name: 'Third',
            parameter: 'p2',
            offer_page_enabled: 1,
          },
          { token_name: 'New', parameter: 'q' },
        ],
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.message).toBe('Campaign Updated Successfully.');
    const after = (await api(`/api/extratokens?campaignId=${id}&showDeleted=1`, { token: admin })).body.data
      .result;
    expect(after.map((t: any) => [t.parameter, t.slot, t.token_name, t.deleted])).toEqual([
      ['p0', 1, 'First', 0],
      ['p1', 2, 'Token 1', 1],
      ['q', 2, 'New', 0],
      ['p2', 3, 'Third', 0],
    ]);
  });

  it('moves a campaign into a folder and lists folders first', async () => {
    const { meta } = await env.DB.prepare(
      "INSERT INTO campaigns (name, is_dir, created_by) VALUES ('A folder', 1, (SELECT id FROM users WHERE username = 'owner'))",
    ).run();
    const folder = meta.last_row_id;
    const inside = await makeCampaign(admin, { name: 'Inside', dir: folder });
    const list = await api(`/api/campaign?dir=${folder}`, { token: admin });
    expect(list.body.data.currentDir).toEqual({ campaignId: folder, dir: 0, name: 'A folder' });
    expect(list.body.data.result.map((c: any) => c.campaignId)).toEqual([inside]);
    const root = await api('/api/campaign', { token: admin });
    expect(root.body.data.result[0]).toMatchObject({ campaignId: folder, is_dir: 1 });
    expect(root.body.data.result.some((c: any) => c.campaignId === inside)).toBe(false);
    const flat = await api('/api/campaign?no_dir=1', { token: admin });
    expect(flat.body.data.result.some((c: any) => c.campaignId === inside)).toBe(true);
    expect(flat.body.data.result.some((c: any) => c.campaignId === folder)).toBe(false);

    const bad = await api('/api/add-campaign', { token: admin, body: { name: 'x', dir: inside } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.dir).toEqual(['Select a valid folder.']);
  });
});

describe('landing pages, offers, paths and options', () => {
  it('validates a landing page in field order with clear messages', async () => {
    const id = await makeCampaign(admin, { name: 'Landing rules', campaignType: 'landing_page' });
    const res = await api('/api/add-landing', {
      token: admin,
      body: { campaignId: id, share: 'lots', agents: [99] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name: ['Landing page name is required.'],
      url: ['Landing page URL is required.'],
      share: ['Share must be a whole number from 0 to 100000.'],
    });
    const agents = await api('/api/add-landing', {
      token: admin,
      body: { campaignId: id, name: 'L', url: 'https://lp.example/', agents: [99] },
    });
    expect(agents.body.errors).toEqual({ agents: ['Select at least one valid device.'] });
    const url = await api('/api/add-landing', {
      token: admin,
      body: { campaignId: id, name: 'L', url: 'lp.example' },
    });
    expect(url.body.errors).toEqual({ url: ['Enter a valid http or https URL.'] });
  });

  it('adds and edits a landing page and answers the refreshed list', async () => {
    const id = await makeCampaign(admin, { name: 'Landing CRUD', campaignType: 'landing_page' });
    const add = await api('/api/add-landing', {
      token: admin,
      body: {
        campaignId: id,
        name: 'Hero',
        url: 'https://lp.example/hero?c={clickid}',
        share: 40,
        agents: '2,3',
      },
    });
    expect(add.status).toBe(201);
    expect(add.body.data.message).toBe('Landing Page is successfully added/updated.');
    expect(add.body.data.landing).toEqual({
      landingPageId: expect.any(Number),
      campaignId: id,
      name: 'Hero',
      url: 'https://lp.example/hero?c={clickid}',
      share: 40,
      active: 1,
      pathId: null,
      path: '',
      agents: '2,3',
      deleted: 0,
    });
    const landingId = add.body.data.landing.landingPageId;
    await makeOffer(admin, id);
    // The routing sees the page at once (the edit drops this isolate's cached routing).
    expect(new URL((await hit(`/go/${id}`)).headers.get('location')!).pathname).toBe('/hero');

    const edit = await api('/api/edit-landing', {
      method: 'PUT',
      token: admin,
      body: {
        landingPageId: landingId,
        campaignId: id,
        name: 'Hero 2',
        url: 'https://lp.example/v2',
        share: 0,
        active: 0,
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.result).toEqual([
      expect.objectContaining({ landingPageId: landingId, name: 'Hero 2', share: 0, active: 0, agents: '1' }),
    ]);
    // Inactive now: the campaign has no page to serve.
    expect((await hit(`/go/${id}`)).status).toBe(404);

    const list = await api(`/api/landing?campaignId=${id}`, { token: admin });
    expect(list.body.data.result.length).toBe(1);
    const other = await makeCampaign(admin, { name: 'Other', campaignType: 'landing_page' });
    const wrong = await api('/api/edit-landing', {
      method: 'PUT',
      token: admin,
      body: { landingPageId: landingId, campaignId: other, name: 'x', url: 'https://x.example/' },
    });
    expect(wrong.status).toBe(404);
  });

  it('adds offers with a payout in micro-units and the spec fields', async () => {
    const id = await makeCampaign(admin, { name: 'Offers', campaignType: 'rotator' });
    const res = await api('/api/add-offer', {
      token: admin,
      body: {
        campaignId: id,
        name: 'Participant',
        url: 'https://offer.example/',
        payout: '12.345678',
        postback: 'aff_sub',
        liConversionName: 'sale',
        rotator_participant_email: 'p@example.com',
        agents: [1],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Offer page is successfully added/updated.');
    expect(res.body.data.offer).toMatchObject({
      payout: 12.345678,
      postback: 'aff_sub',
      liConversionName: 'sale',
      rotator_participant_email: 'p@example.com',
      optionId: null,
    });
    const row = await env.DB.prepare('SELECT payout_micros FROM offer_pages WHERE id = ?1')
      .bind(res.body.data.offer.offerPageId)
      .first();
    expect(row).toEqual({ payout_micros: 12_345_678 });
    const bad = await api('/api/add-offer', {
      token: admin,
      body: {
        campaignId: id,
        name: 'x',
        url: 'https://o.example/',
        payout: '-3',
        rotator_participant_email: 'nope',
      },
    });
    expect(bad.body.errors).toEqual({
      payout: ['Payout must be a number of at least 0 with up to 6 decimals.'],
      rotator_participant_email: ['Please enter valid email address.'],
    });
  });

  it('needs a path before pages of a multiple path campaign, and an option before offers of an option campaign', async () => {
    const paths = await makeCampaign(admin, { name: 'Paths', campaignType: 'multiple_path_type' });
    const noPath = await api('/api/add-landing', {
      token: admin,
      body: { campaignId: paths, name: 'L', url: 'https://lp.example/' },
    });
    expect(noPath.status).toBe(422);
    expect(noPath.body.message).toBe(
      'Multiple path campaign type requires at least one path to add landing and offer pages.',
    );
    const pathRes = await api('/api/add-path', {
      token: admin,
      body: { campaignId: paths, name: 'P1', share: 60 },
    });
    expect(pathRes.body.data.message).toBe('Path is successfully added/updated.');
    const pathId = pathRes.body.data.path.pathId;
    const unnamed = await api('/api/add-offer', {
      token: admin,
      body: { campaignId: paths, name: 'O', url: 'https://o.example/' },
    });
    expect(unnamed.body.errors).toEqual({ pathId: ['Select a path of this campaign.'] });
    const landing = await makeLanding(admin, paths, { pathId });
    const listed = await api(`/api/landing?campaignId=${paths}`, { token: admin });
    expect(listed.body.data.result[0]).toMatchObject({ landingPageId: landing, pathId, path: 'P1' });

    const opts = await makeCampaign(admin, { name: 'Options', campaignType: 'multiple_option_type' });
    const noOption = await api('/api/add-offer', {
      token: admin,
      body: { campaignId: opts, name: 'O', url: 'https://o.example/' },
    });
    expect(noOption.body.message).toBe(
      'Multiple options campaign type requires at least one option to add offer pages.',
    );
    const optionRes = await api('/api/add-option', {
      token: admin,
      body: { campaignId: opts, name: 'Blue' },
    });
    expect(optionRes.body.data.message).toBe('Option is successfully added/updated.');
    const optionId = optionRes.body.data.option.optionId;
    const offer = await api('/api/add-offer', {
      token: admin,
      body: { campaignId: opts, name: 'O', url: 'https://o.example/', optionId },
    });
    expect(offer.body.data.offer).toMatchObject({ optionId, option: 'Blue' });
    // Another campaign's option is refused.
    const otherCampaign = await makeCampaign(admin, {
      name: 'Other options',
      campaignType: 'multiple_option_type',
    });
    const other = await makeOption(admin, otherCampaign);
    const cross = await api('/api/add-offer', {
      token: admin,
      body: { campaignId: opts, name: 'O', url: 'https://o.example/', optionId: other },
    });
    expect(cross.body.errors).toEqual({ optionId: ['Select an option of this campaign.'] });
  });

  it('edits paths and options and lists them', async () => {
    const id = await makeCampaign(admin, { name: 'Edit items', campaignType: 'multiple_path_type' });
    const path = await makePath(admin, id, { name: 'P', agents: [3] });
    const edited = await api('/api/edit-path', {
      method: 'PUT',
      token: admin,
      body: { pathId: path, campaignId: id, name: 'P renamed', share: 5, active: 0, agents: [2, 4] },
    });
    expect(edited.body.data.path).toEqual({
      pathId: path,
      campaignId: id,
      name: 'P renamed',
      share: 5,
      active: 0,
      agents: '2,4',
      deleted: 0,
    });
    const option = await makeOption(admin, id, { name: 'O' });
    const editedOption = await api('/api/edit-option', {
      method: 'PUT',
      token: admin,
      body: { optionId: option, campaignId: id, name: 'O2', active: false },
    });
    expect(editedOption.body.data.result).toEqual([
      { optionId: option, campaignId: id, name: 'O2', active: 0, deleted: 0 },
    ]);
    expect((await api(`/api/path?campaignId=${id}`, { token: admin })).body.data.result.length).toBe(1);
    expect((await api(`/api/option?campaignId=${id}`, { token: admin })).body.data.result.length).toBe(1);
  });
});

describe('ownership', () => {
  it('lets a student manage only their own campaigns; coaches and admins manage all', async () => {
    const alice = await userWithRole(admin, 'student');
    const bob = await userWithRole(admin, 'student');
    const coach = await userWithRole(admin, 'coach');
    const mine = await makeCampaign(alice.token, { name: "Alice's", campaignType: 'landing_page' });

    expect((await api(`/api/campaign?campaignId=${mine}`, { token: alice.token })).status).toBe(200);
    const peek = await api(`/api/campaign?campaignId=${mine}`, { token: bob.token });
    expect(peek.status).toBe(404);
    expect(peek.body.errors).toEqual({ message: ['Campaign not found.'] });
    const edit = await api('/api/edit-campaign', {
      method: 'PUT',
      token: bob.token,
      body: { campaignId: mine, name: 'Mine now' },
    });
    expect(edit.status).toBe(404);
    const landing = await api('/api/add-landing', {
      token: bob.token,
      body: { campaignId: mine, name: 'L', url: 'https://lp.example/' },
    });
    expect(landing.status).toBe(404);
    expect((await api('/api/reset-stats', { token: bob.token, body: { campaignId: mine } })).status).toBe(
      404,
    );
    const bobsList = await api('/api/campaign?no_dir=1', { token: bob.token });
    expect(bobsList.body.data.result.some((c: any) => c.campaignId === mine)).toBe(false);

    const coachEdit = await api('/api/edit-campaign', {
      method: 'PUT',
      token: coach.token,
      body: { campaignId: mine, name: 'Reviewed by coach', campaignType: 'landing_page' },
    });
    expect(coachEdit.status).toBe(200);
    const adminList = await api('/api/campaign?no_dir=1', { token: admin });
    expect(adminList.body.data.result.find((c: any) => c.campaignId === mine)?.name).toBe(
      'Reviewed by coach',
    );
  });
});

describe('reset-stats', () => {
  it("removes the campaign's raw events and rollups in one go and leaves other campaigns alone", async () => {
    const make = async () => {
      const campaign = await makeCampaign(admin, { name: 'Reset', campaignType: 'landing_page' });
      const landing = await makeLanding(admin, campaign);
      const offer = await makeOffer(admin, campaign, { payout: '3' });
      const id = await mintClickId(env, { campaignId: campaign, pathId: 0, landingId: landing, offerId: 0 });
      const at = Date.now();
      await ingestEvents(env, [
        visitEvent({ id, c: campaign, l: landing, at, tgt: 't', cc: '', ua: '' }),
        lpClickEvent({ id, c: campaign, l: landing, o: offer, at }),
        conversionEvent({ id, c: campaign, l: landing, at }),
      ]);
      return campaign;
    };
    const reset = await make();
    const kept = await make();
    const counts = async (campaign: number) =>
      env.DB.prepare(
        `SELECT (SELECT count(*) FROM visits WHERE campaign_id = ?1) v, (SELECT count(*) FROM lp_clicks WHERE campaign_id = ?1) l,
          (SELECT count(*) FROM conversions WHERE campaign_id = ?1) c, (SELECT count(*) FROM daily_stats WHERE campaign_id = ?1) s,
          (SELECT count(*) FROM daily_event_stats WHERE campaign_id = ?1) e`,
      )
        .bind(campaign)
        .first();
    expect(await counts(reset)).toEqual({ v: 1, l: 1, c: 1, s: 2, e: 1 });

    const res = await api('/api/reset-stats', { token: admin, body: { campaignId: reset } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: true, message: 'Statistics have been reset.' } });
    expect(await counts(reset)).toEqual({ v: 0, l: 0, c: 0, s: 0, e: 0 });
    expect(await counts(kept)).toEqual({ v: 1, l: 1, c: 1, s: 2, e: 1 });
    const missing = await api('/api/reset-stats', { token: admin, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ campaignId: ['Campaign is required.'] });
  });
});
