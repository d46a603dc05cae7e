import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { CREATIVE_MESSAGES as CM } from '../../schema/creative-status-api';
import { LIVEINTENT_MESSAGES as M } from '../../schema/liveintent-api';
import { encryptSecret } from '../../worker/lib/secrets';
import { api } from '../factories/api';
import { makeCampaign } from '../factories/campaigns';
import { setupInstallation, userWithRole } from '../factories/install';
import { PNG } from '../support/images';
import { liCampaignForm, liLineItemForm } from '../support/liveintent-forms.mjs';
import { connectLiveIntent, freshLiveIntentAdvertiser } from '../support/platform-fakes';

// The statistics screen's creative switch against the fakes (issue 13 item 5; spec 3 §4, §7, §8):
// the statuses of a page of targets, each branch of the LiveIntent flow (no line items, one
// deleted, two and more, link and unlink), the CPC provider's ad status and the failures.

const token = await setupInstallation();
let advertiser = 0;

beforeEach(async () => {
  advertiser += 1;
  await freshLiveIntentAdvertiser(`cs-adv-${advertiser}`);
});

const post = (path: string, body: Record<string, unknown>, as = token) =>
  api(`/api/${path}`, { token: as, body });

function png() {
  const bytes = new Uint8Array(64);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

/** A LiveIntent campaign with a platform campaign, `lines` line items and one ad in the first. */
async function liveIntentSetup(lines: string[]) {
  const id = await makeCampaign(token, { name: 'Native creatives', trafficSource: 'liveintent' });
  const created = await post(
    'manage-liveintent/create-campaign',
    liCampaignForm(id, { name: 'Creative test' }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const liCampaign = created.body.data.liCampaign.li_refid as string;
  const lineItems: string[] = [];
  for (const name of lines) {
    const res = await post('manage-liveintent/create-lineitem', liLineItemForm(id, liCampaign, { name }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    lineItems.push(res.body.data.lineItem.li_refid);
  }
  const ad = await post('manage-liveintent/create-ad', {
    campaignId: id,
    lineitem_ref_id: lineItems[0],
    adName: 'Hero',
    clickUrl: 'https://track.example/c?target=hero',
    mediaUrl: png(),
    width: 300,
    height: 250,
  });
  expect(ad.status, JSON.stringify(ad.body)).toBe(201);
  return { id, liCampaign, lineItems, ad: ad.body.data.ad.li_refid as string };
}

const statuses = async (campaignId: number, targets: string[], as = token) => {
  const res = await post('stats/creative-statuses', { campaignId, targets }, as);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const toggle = (campaignId: number, adRefId: string, liRefId: string, status: boolean) =>
  post('manage-liveintent/toggle-ad-status-stats-page', {
    campaignId,
    adRefId,
    liRefId,
    status,
    currentUuid: 'page-job',
  });

describe('LiveIntent creatives on the target rows', () => {
  it('answers each target its creative, line items and links; other targets have no line items', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Morning line', 'Evening line']);
    const data = await statuses(id, [ad, 'organic-1']);
    expect(data).toMatchObject({ kind: 'liveintent', available: true, message: '' });
    expect(data.creatives).toEqual([
      {
        target: ad,
        creative_status: true,
        creative_id: ad,
        CREATIVEID_exist: true,
        LINEITEM_status: 'paused',
        lineitem_statuses: [
          { refId: lineItems[1], name: 'Evening line', status: 'paused', linked: false },
          { refId: lineItems[0], name: 'Morning line', status: 'paused', linked: true },
        ],
        ad_id: ad,
        ADID: ad,
      },
      {
        target: 'organic-1',
        creative_status: false,
        creative_id: '',
        CREATIVEID_exist: true,
        LINEITEM_status: '',
        lineitem_statuses: [],
      },
    ]);
  });

  it('links the creative to a second line item and unlinks it from the first', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Morning line', 'Evening line']);
    const linked = await toggle(id, ad, lineItems[1], true);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data.message).toBe('Ad status changed successfully');
    expect(linked.body.data.creative.lineitem_statuses.map((l: { linked: boolean }) => l.linked)).toEqual([
      true,
      true,
    ]);
    const unlinked = await toggle(id, ad, lineItems[0], false);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data.creative).toMatchObject({ creative_status: true });
    // Unlinked from both: the creative runs nowhere, so its switch shows Inactive.
    const off = await toggle(id, ad, lineItems[1], false);
    expect(off.body.data.creative.creative_status).toBe(false);
    const after = await statuses(id, [ad]);
    expect(after.creatives[0].lineitem_statuses.map((l: { linked: boolean }) => l.linked)).toEqual([
      false,
      false,
    ]);
    expect(after.creatives[0].creative_status).toBe(false);
  });

  it('switches a creative with one line item off and on, activating it again on the platform', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Only line']);
    // Deactivated on the manage screen: linking from the statistics switch makes it run again.
    expect(
      (await post('manage-liveintent/toggle-ad-status', { campaignId: id, refId: ad, status: false })).status,
    ).toBe(200);
    expect((await statuses(id, [ad])).creatives[0].creative_status).toBe(false);
    const on = await toggle(id, ad, lineItems[0], true);
    expect(on.body.data.creative).toMatchObject({ creative_status: true, LINEITEM_status: 'paused' });
    const ads = await api(`/api/manage-liveintent/liads?id=${id}`, { token });
    expect(ads.body.data.ads[0].li_status).toBe(true);
    const off = await toggle(id, ad, lineItems[0], false);
    expect(off.body.data.creative.creative_status).toBe(false);
  });

  it('shows an active line item unshaded, a deleted one as deleted and refuses to link it', async () => {
    const { id, liCampaign, lineItems, ad } = await liveIntentSetup(['Only line']);
    const edit = await post('manage-liveintent/edit-lineitem', {
      ...liLineItemForm(id, liCampaign, { name: 'Only line', status: 'active' }),
      lineItemRefId: lineItems[0],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await statuses(id, [ad])).creatives[0].LINEITEM_status).toBe('active');
    const del = await post('manage-liveintent/delete-lineitem', {
      campaignId: id,
      lineItemRefId: lineItems[0],
    });
    expect(del.status).toBe(200);
    const after = (await statuses(id, [ad])).creatives[0];
    // The single line item is deleted: the screen answers with the spec's error, and so does the API.
    expect(after.lineitem_statuses).toEqual([
      { refId: lineItems[0], name: lineItems[0], status: 'deleted', linked: true },
    ]);
    expect(after).toMatchObject({
      creative_status: false,
      LINEITEM_status: 'deleted',
      CREATIVEID_exist: true,
    });
    const refused = await toggle(id, ad, lineItems[0], false);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(CM.lineItemDeleted);
    expect(CM.lineItemDeleted.startsWith(CM.unableToLink)).toBe(true);
  });

  it('marks a removed creative and refuses to switch it', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Only line']);
    expect((await post('manage-liveintent/delete-ad', { campaignId: id, refId: ad })).status).toBe(200);
    const after = (await statuses(id, [ad])).creatives[0];
    expect(after).toMatchObject({ CREATIVEID_exist: false, creative_status: false, lineitem_statuses: [] });
    const refused = await toggle(id, ad, lineItems[0], true);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(M.adNotFound);
  });

  it('validates the toggle and refuses a line item outside the creative campaign', async () => {
    const { id, ad } = await liveIntentSetup(['Only line']);
    const missing = await post('manage-liveintent/toggle-ad-status-stats-page', {
      campaignId: id,
      status: true,
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      adRefId: ['Ad is required.'],
      liRefId: ['Line item is required.'],
    });
    const stranger = await toggle(id, ad, 'strategy-999999', true);
    expect(stranger.status).toBe(422);
    expect(stranger.body.message).toBe(CM.lineItemNotOffered);
    const tooMany = await post('stats/creative-statuses', {
      campaignId: id,
      targets: Array.from({ length: 201 }, (_, i) => `t${i}`),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toBe(CM.tooManyTargets);
  });

  it('tells a platform failure with the spec words first and changes nothing', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Morning line', 'Evening line']);
    await connectLiveIntent(`cs-adv-${advertiser}`, 'fail-500-manager');
    const failed = await toggle(id, ad, lineItems[1], true);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe(M.platformFailed);
    const list = await post('stats/creative-statuses', { campaignId: id, targets: [ad] });
    expect(list.status).toBe(502);
    await connectLiveIntent(`cs-adv-${advertiser}`);
    expect(
      (await statuses(id, [ad])).creatives[0].lineitem_statuses.map((l: { linked: boolean }) => l.linked),
    ).toEqual([false, true]);
  });

  it("says 'Unable to link or unlink creative' first when the platform refuses only the link", async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Morning line', 'Evening line']);
    const fakes = env.PLATFORM_FAKES as Fetcher;
    // Every call reaches the fake but the link itself, which LiveIntent refuses in its error shape.
    const refused = Response.json(
      { requestId: '1.0', errors: [{ id: 'E1000', code: 'INV', details: 'strategy' }] },
      { status: 400 },
    );
    Object.assign(env, {
      PLATFORM_FAKES: {
        fetch: (input: RequestInfo, init?: RequestInit) => {
          const request = new Request(input, init);
          return new URL(request.url).pathname.endsWith('/link') ? refused.clone() : fakes.fetch(request);
        },
      },
    });
    let failed: Awaited<ReturnType<typeof toggle>>;
    try {
      failed = await toggle(id, ad, lineItems[1], true);
    } finally {
      Object.assign(env, { PLATFORM_FAKES: fakes });
    }
    expect(failed.status).toBe(422);
    expect(failed.body.message).toBe(CM.unableToLink);
    expect(failed.body.errors.message[0]).toBe(CM.unableToLink);
    expect(
      (await statuses(id, [ad])).creatives[0].lineitem_statuses.map((l: { linked: boolean }) => l.linked),
    ).toEqual([false, true]);
  });

  it('follows the access rules: no switch for a student with an own account, 403 on the toggle', async () => {
    const { id, lineItems, ad } = await liveIntentSetup(['Only line']);
    const username = await encryptSecret(env, 'pli_username', 'student@acme.test');
    await env.DB.prepare(
      "INSERT INTO settings (key, value) VALUES ('pli_advertiser_id', 'own-adv'), ('pli_username', ?)",
    )
      .bind(username)
      .run();
    expect(await statuses(id, [ad])).toEqual({
      kind: 'liveintent',
      available: false,
      message: M.hasOwnAccount,
      creatives: [],
    });
    const refused = await toggle(id, ad, lineItems[0], false);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(M.hasOwnAccount);
  });

  it('keeps another user campaign closed and answers other sources no switch', async () => {
    const { id, ad } = await liveIntentSetup(['Only line']);
    const student = await userWithRole(token, 'student');
    const res = await post('stats/creative-statuses', { campaignId: id, targets: [ad] }, student.token);
    expect(res.status).toBe(404);
    const taboola = await makeCampaign(token, { name: 'Search traffic', trafficSource: 'taboola' });
    expect(await statuses(taboola, ['a1'])).toEqual({
      kind: 'none',
      available: false,
      message: '',
      creatives: [],
    });
  });
});

describe('CPC ads (api/jeeng/set-ad-status)', () => {
  async function cpcCampaign(providerId: string) {
    const id = await makeCampaign(token, { name: 'CPC push', trafficSource: 'trrcpc' });
    if (providerId)
      await env.DB.prepare(
        "INSERT INTO traffic_campaigns (campaign_id, provider, provider_campaign_id, offer_name, submitted) VALUES (?1, 'trrcpc', ?2, 'Keto Burn', 1)",
      )
        .bind(id, providerId)
        .run();
    return id;
  }
  const setStatus = (campaignId: number, adId: string, status: string) => {
    const form = new FormData();
    form.set('campaign_id', String(campaignId));
    form.set('ad_id', adId);
    form.set('status', status);
    return api('/api/jeeng/set-ad-status', { token, body: form });
  };

  it('has no switch and refuses a status before the campaign is at the provider', async () => {
    const id = await cpcCampaign('');
    expect(await statuses(id, ['ad-1'])).toEqual({
      kind: 'external',
      available: false,
      message: CM.noProviderCampaign,
      creatives: [],
    });
    const res = await setStatus(id, 'ad-1', '0');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ campaign_id: [CM.noProviderCampaign] });
  });

  it('pauses and runs an ad at the provider and answers the message and the campaign', async () => {
    const id = await cpcCampaign(`cpc-cs-${advertiser}`);
    const before = await statuses(id, ['ad-1', 'ad-2']);
    expect(before.kind).toBe('external');
    expect(before.creatives.map((c: { creative_status: boolean }) => c.creative_status)).toEqual([
      true,
      true,
    ]);
    const paused = await setStatus(id, 'ad-1', '0');
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data.message).toBe('Ad status changed successfully');
    expect(paused.body.data.campaign).toMatchObject({
      campaign_id: id,
      offer_name: 'Keto Burn',
      submitted: 1,
    });
    expect(paused.body.data.creative).toMatchObject({
      target: 'ad-1',
      creative_status: false,
      CREATIVEID_exist: true,
    });
    const after = await statuses(id, ['ad-1', 'ad-2']);
    expect(after.creatives.map((c: { creative_status: boolean }) => c.creative_status)).toEqual([
      false,
      true,
    ]);
    expect((await setStatus(id, 'ad-1', '1')).body.data.creative.creative_status).toBe(true);
  });

  it('validates the status, refuses a non-CPC campaign and tells provider failures', async () => {
    const id = await cpcCampaign(`cpc-cs-${advertiser}`);
    const bad = await setStatus(id, 'ad-1', 'on');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ status: ['Status must be 1 or 0.'] });
    const li = await makeCampaign(token, { name: 'Native', trafficSource: 'liveintent' });
    const notCpc = await setStatus(li, 'ad-1', '1');
    expect(notCpc.status).toBe(422);
    const failing = await setStatus(id, 'fail-500-ad', '0');
    expect(failing.status).toBe(502);
    expect(failing.body.errors.message).toEqual([CM.providerFailed, 'Provider internal error']);
  });

  it('shades a removed ad and keeps it removed', async () => {
    const providerId = `cpc-removed-${advertiser}`;
    const id = await cpcCampaign(providerId);
    // The provider takes an ad down itself (its own API call, as its dashboard would).
    const down = await env.PLATFORM_FAKES!.fetch(
      `http://fakes.test/provider/cpc/campaigns/${providerId}/ads/ad-9/status`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'removed' }),
      },
    );
    expect(down.status).toBe(200);
    expect((await statuses(id, ['ad-9'])).creatives[0]).toMatchObject({
      CREATIVEID_exist: false,
      creative_status: false,
    });
    const refused = await setStatus(id, 'ad-9', '1');
    expect(refused.status).toBe(422);
    expect(refused.body.errors.message).toEqual([
      CM.providerFailed,
      'Ad ad-9 was removed and cannot be changed',
    ]);
  });
});

describe('Blaze banners on the target rows (issue 30: spec 3 §3, §4, §7)', () => {
  /** A blaze campaign with two banners made through api/blaze/save-banner; answers their rows. */
  async function blazeCampaign() {
    const id = await makeCampaign(token, { name: 'Blaze stats', trafficSource: 'blaze' });
    const form = new FormData();
    form.set('campaign_id', String(id));
    for (const [k, v] of Object.entries({
      name: 'Spring',
      url: 'https://offer.example/spring',
      type: 'EMAIL_PLACEMENT',
      width: '300',
      height: '250',
      active: '1',
    }))
      form.set(k, v);
    form.append('images[]', new File([PNG], 'one.png', { type: 'image/png' }));
    form.append('images[]', new File([PNG], 'two.png', { type: 'image/png' }));
    const saved = await api('/api/blaze/save-banner', { token, body: form });
    expect(saved.status).toBe(201);
    return { id, banners: saved.body.data.banners as { id: number; provider_banner_id: string }[] };
  }

  it("answers each target its banner (by our id or Blaze's), with banner_url, BANNER, ADID and ad_id", async () => {
    const { id, banners } = await blazeCampaign();
    const [one, two] = banners;
    const data = await statuses(id, [String(one.id), two.provider_banner_id, 'organic']);
    expect(data).toMatchObject({ kind: 'blaze', available: true, message: '' });
    expect(
      data.creatives.map((c: Record<string, unknown>) => [
        c.target,
        c.creative_status,
        c.BANNER,
        c.ADID,
        c.ad_id,
      ]),
    ).toEqual([
      [String(one.id), true, String(one.id), one.provider_banner_id, one.provider_banner_id],
      [two.provider_banner_id, true, String(two.id), two.provider_banner_id, two.provider_banner_id],
      ['organic', false, '', '', ''],
    ]);
    expect(data.creatives[0].banner_url).toMatch(/one\.png/);
    expect(data.creatives[2].banner_url).toBe('');
  });

  it('follows the bulk activation of save-banner: the switch shows the banner inactive, then active', async () => {
    const { id, banners } = await blazeCampaign();
    const targets = banners.map((b) => String(b.id));
    const form = new FormData();
    form.set('campaign_id', String(id));
    form.set('active', '0');
    for (const t of targets) form.append('ids[]', t);
    const off = await api('/api/blaze/save-banner', { token, body: form });
    expect(off.status).toBe(200);
    expect(off.body.data.message).toBe('Banner(s) updated successfully');
    expect(
      (await statuses(id, targets)).creatives.map((c: { creative_status: boolean }) => c.creative_status),
    ).toEqual([false, false]);
    form.set('active', '1');
    expect((await api('/api/blaze/save-banner', { token, body: form })).status).toBe(200);
    expect(
      (await statuses(id, targets)).creatives.map((c: { creative_status: boolean }) => c.creative_status),
    ).toEqual([true, true]);
  });
});
