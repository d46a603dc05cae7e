import { env } from 'cloudflare:workers';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { mintClickId } from '../../worker/services/hot-path/click-ids';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { isBlockedAddress } from '../../worker/services/outbound/postback-dns';
import { deliverPostback } from '../../worker/services/postbacks/postbacks';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { dbValue } from '../factories/db';
import { registerUser, setupInstallation, userWithRole } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// The smaller findings of issue 10, each against the behaviour that let it through.

const admin = await setupInstallation();

describe('new passwords', () => {
  const create = (password: string) =>
    registerUser(admin, {
      username: `pw${Math.random().toString(36).slice(2, 8)}`,
      email: 'pw@example.com',
      password,
      role: 'student',
    });

  it('need at least 8 characters: a one-character password is refused', async () => {
    const one = await create('x');
    expect(one.status).toBe(422);
    expect(one.body.errors.password).toEqual(['The password must be at least 8 characters.']);
    const seven = await create('Abc-123');
    expect(seven.body.errors.password).toEqual(['The password must be at least 8 characters.']);
    expect((await create('Abc-1234')).status).toBe(201);
  });

  it('refuse the commonest passwords, whatever their case', async () => {
    for (const common of ['password1', 'Iloveyou', 'QWERTYUIOP', 'sunshine']) {
      const res = await create(common);
      expect(res.status, common).toBe(422);
      expect(res.body.errors.password).toEqual([
        'This password is too common. Please choose a less common one.',
      ]);
    }
  });

  it('keep the spec: whitespace stripped first, "Password field is required." when blank', async () => {
    const blank = await create('   ');
    expect(blank.body.errors.password).toEqual(['Password field is required.']);
    // ' ab cd ef ' is 'abcdef' after stripping: too short.
    expect((await create(' ab cd ef ')).body.errors.password).toEqual([
      'The password must be at least 8 characters.',
    ]);
    expect((await create(' Long enough 9 ')).status).toBe(201);
  });

  it('apply to registration, reset and the settings password change as well', async () => {
    const reset = await api('/api/auth/password/reset', {
      body: { email: 'a@example.com', token: 't', password: 'short', password_confirmation: 'short' },
    });
    expect(reset.status).toBe(422);
    expect(reset.body.errors.password).toEqual(['The password must be at least 8 characters.']);
    const user = await userWithRole(admin, 'coach');
    const body = new FormData();
    body.set('oldPassword', user.password);
    body.set('newPassword', 'baseball');
    body.set('confirmPassword', 'baseball');
    const change = await api('/api/update-setting', { token: user.token, body });
    expect(change.status).toBe(422);
    expect(change.body.errors.newPassword).toEqual([
      'This password is too common. Please choose a less common one.',
    ]);
  });
});

describe('bearer tokens', () => {
  it('a token without exp is refused', async () => {
    const forever = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuedAt()
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    const res = await api('/api/user', { token: forever });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthenticated.');
  });
});

describe('client address', () => {
  it('comes from CF-Connecting-IP only: a new X-Real-IP per guess does not escape the throttle', async () => {
    const user = await userWithRole(admin, 'student');
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await api('/api/auth/login', {
        body: { username: user.username, password: `guess-${i}` },
        headers: { 'X-Real-IP': `198.18.0.${i}`, 'X-Forwarded-For': `198.18.1.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});

async function conversionSetup(postback: string) {
  const campaign = await makeCampaign(admin, {
    name: 'Hardening',
    campaignType: 'landing_page',
    postback_enabled: 1,
    postback,
  });
  const landing = await makeLanding(admin, campaign);
  const offer = await makeOffer(admin, campaign, { payout: '5' });
  const clickId = await mintClickId(env, { campaignId: campaign, pathId: 0, landingId: landing, offerId: 0 });
  const at = Date.now();
  const visit: TrackEvent[] = [
    visitEvent({ id: clickId, c: campaign, l: landing, at, ua: 'x' }),
    lpClickEvent({ id: clickId, c: campaign, l: landing, o: offer, at }),
  ];
  const conversion = (tx: string): TrackEvent =>
    conversionEvent({ id: clickId, c: campaign, l: landing, at, tx });
  return { campaign, visit, conversion };
}

describe('transaction ids', () => {
  it('dedupe without case: ORDER-7 and order-7 of one click count once', async () => {
    const { campaign, visit, conversion } = await conversionSetup('https://ok.example.com/pb');
    await ingestEvents(env, visit);
    await ingestEvents(env, [conversion('ORDER-7')]);
    await ingestEvents(env, [conversion('order-7'), conversion('Order-7')]);
    expect(await dbValue('SELECT count(*) n FROM conversions WHERE campaign_id = ?', campaign)).toBe(1);
    expect(
      await dbValue<string>('SELECT transaction_id n FROM conversions WHERE campaign_id = ?', campaign),
    ).toBe('ORDER-7');
    expect(await dbValue('SELECT sum(conversions) n FROM daily_stats WHERE campaign_id = ?', campaign)).toBe(
      1,
    );
  });
});

describe('postback hosts at send time', () => {
  /** A fetch that answers 'ok' and records the addresses it was called with. */
  const recordingFetch = () => {
    const called: string[] = [];
    const fetcher = (async (u: string) => {
      called.push(String(u));
      return new Response('ok');
    }) as unknown as typeof fetch;
    return { called, fetcher };
  };

  it('a name that resolves to a private address is blocked, never called', async () => {
    // Passes every check by name, so the campaign saves; the address is what counts.
    const { visit, conversion } = await conversionSetup('http://127.0.0.1.nip.io/pb?c={clickid}');
    await ingestEvents(env, visit);
    const [logId] = (await ingestEvents(env, [conversion('A1')])).postbackIds;
    const { called, fetcher } = recordingFetch();
    const outcome = await deliverPostback(env, logId, fetcher, async () => ['127.0.0.1']);
    expect(outcome).toBe('blocked');
    expect(called).toEqual([]);
    const row = await env.DB.prepare('SELECT status, error FROM postback_log WHERE id = ?')
      .bind(logId)
      .first<{ status: string; error: string }>();
    expect(row).toEqual({ status: 'blocked', error: 'the host resolves to a private address (127.0.0.1)' });
  });

  it('a public answer is called; a resolver failure is retried like a network error', async () => {
    const { visit, conversion } = await conversionSetup('https://pb.partner.example/pb?c={clickid}');
    await ingestEvents(env, visit);
    const [first] = (await ingestEvents(env, [conversion('B1')])).postbackIds;
    const { called, fetcher } = recordingFetch();
    expect(
      await deliverPostback(env, first, fetcher, async () => ['93.184.215.14', '2606:2800:21f::1']),
    ).toBe('sent');
    expect(called.length).toBe(1);
    const [second] = (await ingestEvents(env, [conversion('B2')])).postbackIds;
    const failing = async () => {
      throw new Error('timeout');
    };
    expect(await deliverPostback(env, second, fetcher, failing)).toBe('retry');
    expect(called.length).toBe(1);
  });

  it('refuses private, loopback, link-local, metadata and mapped ranges', () => {
    for (const ip of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      'ff02::1',
      'not-an-ip',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isBlockedAddress(ip), ip).toBe(false);
    }
  });
});

/** A ZIP whose entry `name` declares `declared` bytes, whatever it really holds. */
function lyingZip(files: Record<string, string>, name: string, declared: number): Uint8Array {
  const bytes = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
  const view = new DataView(bytes.buffer);
  const nameBytes = strToU8(name);
  for (let i = 0; i + 46 < bytes.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50 && view.getUint16(i + 26, true) === nameBytes.length) {
      if (strFromU8(bytes.subarray(i + 30, i + 30 + nameBytes.length)) === name)
        view.setUint32(i + 22, declared, true);
    }
    if (sig === 0x02014b50 && view.getUint16(i + 28, true) === nameBytes.length) {
      if (strFromU8(bytes.subarray(i + 46, i + 46 + nameBytes.length)) === name)
        view.setUint32(i + 24, declared, true);
    }
  }
  return bytes;
}

describe('ZIP entries are checked against their real inflated size', () => {
  it('an entry that lies about its size is refused with 422 and nothing is written', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Zip target', campaignType: 'landing_page' });
    const rows = ['Name,URL,Share,Path (optional),Agents (optional)'];
    for (let i = 0; i < 3000; i++) rows.push(`Page ${i},https://lp.example/${i},1,,`);
    const bytes = lyingZip({ 'landings.csv': rows.join('\n') }, 'landings.csv', 200);
    const body = new FormData();
    body.set('campaignId', String(campaignId));
    body.set('uploads', new File([bytes], 'landings.zip'));
    const res = await api('/api/import-landings', { token: admin, body });
    expect(res.status).toBe(422);
    expect(res.body.errors.uploads).toEqual([
      'The ZIP file is damaged: a file in it is larger than its header says.',
    ]);
    expect(await dbValue('SELECT count(*) n FROM landing_pages WHERE campaign_id = ?', campaignId)).toBe(0);
  });
});

describe('campaign ZIP import runs the editor\u2019s checks', () => {
  it('refuses a campaign whose postback URL the editor would refuse', async () => {
    const source = await makeCampaign(admin, {
      name: 'Exported',
      postback_enabled: 1,
      postback: 'https://ads.example/pb?c={clickid}',
    });
    const exported = await api('/api/export-campaigns', { token: admin, body: { campaign_ids: [source] } });
    const link = exported.body.data.downloadLink as string;
    const { SELF } = await import('cloudflare:test');
    const zip = new Uint8Array(await (await SELF.fetch(`http://tracker.test${link}`)).arrayBuffer());
    const files = unzipSync(zip);
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    manifest.campaigns[0].campaign.postback = 'http://localhost:8080/pb?c={clickid}';
    manifest.campaigns[0].name = 'Smuggled';
    files['manifest.json'] = strToU8(JSON.stringify(manifest));
    const body = new FormData();
    body.set('uploads', new File([zipSync(files)], 'campaigns.zip'));
    body.set('dir', '0');
    const res = await api('/api/import-campaigns', { token: admin, body });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('Postback URL must be a public http or https URL.');
    expect(await dbValue("SELECT count(*) n FROM campaigns WHERE name = 'Smuggled'")).toBe(0);
  });
});
