import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  blazeDeleteBanners,
  blazeSaveBanner,
  blazeZones,
  cpcOffers,
  cpcSpend,
  cpcStatus,
  cpcSubmit,
  ProviderError,
} from '../../worker/integrations/traffic-provider/client';
import {
  checkImage,
  deleteCampaignFiles,
  putCampaignImage,
  sanitiseFileName,
  sniffImageType,
} from '../../worker/services/traffic/storage';
import { GIF, JPEG, PNG } from '../support/images';

// Storage of banner images and traffic assets (docs/decisions/096) and the traffic providers'
// client against the fake (docs/decisions/097).

const file = (bytes: Uint8Array | string, name: string, type = 'image/png') =>
  new File([bytes], name, { type });

describe('image checks', () => {
  it('knows png, jpeg and gif by their first bytes, nothing else', () => {
    expect(sniffImageType(PNG)).toBe('png');
    expect(sniffImageType(JPEG)).toBe('jpeg');
    expect(sniffImageType(GIF)).toBe('gif');
    expect(sniffImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(new Uint8Array([0x89, 0x50]))).toBeNull();
  });

  it('reduces names to a safe base name', () => {
    // Each name and its safe base name (null: nothing usable is left).
    const cases: [string, string | null][] = [
      ['../../etc/passwd.png', 'passwd.png'],
      ['..\\..\\win.ini.PNG', 'win.ini.png'],
      ['My Banner (1).JPG', 'My-Banner-1.jpg'],
      ['.hidden.png', 'hidden.png'],
      ['Ünïcode ad.gif', 'Unicode-ad.gif'],
      ['../', null],
      // Leading dots go; what is left has no extension, so the type check refuses it.
      ['...png', 'png'],
      [`${'a'.repeat(300)}.png`, `${'a'.repeat(90)}.png`],
    ];
    for (const [name, safe] of cases) expect(sanitiseFileName(name), name).toBe(safe);
  });

  it('refuses a wrong type behind an image extension, a wrong extension and an oversized file', async () => {
    expect(await checkImage(file('<html>hi</html>', 'ad.png'), ['png'], 1000)).toEqual({
      problem: 'type',
      name: 'ad.png',
    });
    // A real png called .jpg is refused too: the bytes must be what the name says.
    expect(await checkImage(file(PNG, 'ad.jpg'), ['png', 'jpg'], 1000)).toEqual({
      problem: 'type',
      name: 'ad.jpg',
    });
    expect(await checkImage(file(GIF, 'ad.gif'), ['png', 'jpg', 'jpeg'], 1000)).toEqual({
      problem: 'type',
      name: 'ad.gif',
    });
    expect(await checkImage(file(PNG, 'big.png'), ['png'], PNG.length - 1)).toEqual({
      problem: 'size',
      name: 'big.png',
    });
    const good = await checkImage(file(JPEG, '../x/Sale Ad.jpeg'), ['jpeg'], 1000);
    expect(good).toMatchObject({ name: 'Sale-Ad.jpeg', type: 'jpeg', contentType: 'image/jpeg' });
  });

  it('stores under the campaign prefix and deletes only inside it', async () => {
    const image = await checkImage(file(PNG, 'a.png'), ['png'], 1000);
    if ('problem' in image) throw new Error('expected a good image');
    const key = await putCampaignImage(env, 'traffic', 41, 'a.png', image);
    expect(key).toBe('traffic/41/a.png');
    const stored = await env.BUCKET.get(key);
    expect(stored?.httpMetadata?.contentType).toBe('image/png');
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(PNG);
    await env.BUCKET.put('traffic/42/a.png', PNG);
    await deleteCampaignFiles(env, 'traffic', 41, ['traffic/42/a.png', key]);
    expect(await env.BUCKET.head(key)).toBeNull();
    expect(await env.BUCKET.head('traffic/42/a.png')).not.toBeNull();
  });
});

describe('traffic provider client against the fake', () => {
  it('reads zones, status and offers', async () => {
    const zones = await blazeZones(env, 9);
    expect(zones.map((z) => z.name)).toEqual([
      'Publisher 9 zone 1',
      'Publisher 9 zone 2',
      'Publisher 9 zone 3',
    ]);
    expect(zones[0].placements).toEqual(['EMAIL_PLACEMENT']);
    expect(await cpcStatus(env)).toEqual({ trrcpc: 'online', crane: 'online' });
    expect((await cpcOffers(env)).map((o) => o.name)).toEqual(['Keto Burn', 'Joint Relief', 'Sleep Well']);
  });

  it('saves and deletes banners, submits a campaign and reads its spend', async () => {
    const id = await blazeSaveBanner(env, {
      campaignRef: 'c-1',
      name: 'Banner',
      url: 'https://offer.example/',
      placementType: 'EMAIL_PLACEMENT',
      width: 300,
      height: 250,
      active: 1,
      image: { name: 'a.png', contentType: 'image/png', bytes: PNG },
    });
    expect(id).toMatch(/^bz-\d+$/);
    await blazeDeleteBanners(env, 'c-1', [id]);
    const campaign = await cpcSubmit(env, {
      campaignRef: 'c-2',
      source: 'trrcpc',
      info: { offer_name: 'Keto Burn' },
      headlines: [],
      lines: [],
      assets: [{ name: 'a.png', contentType: 'image/png', bytes: PNG }],
    });
    expect(campaign).toMatch(/^cpc-c-2-\d+$/);
    expect(await cpcSpend(env, campaign)).toBe(0);
    await env.PLATFORM_FAKES!.fetch('http://fakes.test/__control', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: campaign, spend: '1499.99' }),
    });
    expect(await cpcSpend(env, campaign)).toBe(1_499_990_000);
  });

  it.each([
    ['fail-401', 'auth', 'Invalid API key'],
    ['fail-429', 'rate_limit', 'Too many requests'],
    ['fail-500', 'server', 'Provider internal error'],
    ['malformed', 'malformed', 'The provider sent an answer that could not be read.'],
    ['slow', 'timeout', 'No answer within 1 s.'],
  ])('turns %s into a ProviderError of kind %s', async (magic, kind, detail) => {
    const err = await blazeDeleteBanners(env, `${magic}-campaign`, ['1']).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind, detail });
  });

  it('answers the provider refusal as a request error with its message', async () => {
    const err = await blazeDeleteBanners(env, 'c-3', []).catch((e) => e);
    expect(err).toMatchObject({ kind: 'request', detail: 'ids are required', status: 422 });
  });
});
