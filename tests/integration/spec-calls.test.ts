import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrackEvent } from '../../schema/tracking';
import { ingestEvents } from '../../worker/services/ingest/ingest';
import { enqueueDueSyncs, SYNC_INTERVAL_MS } from '../../worker/services/integrations/cost-sync';
import { setCredential } from '../../worker/services/integrations/credentials';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer } from '../factories/campaigns';
import { setupInstallation, studentOf, userWithRole } from '../factories/install';
import { conversionEvent, lpClickEvent, visitEvent } from '../support/events';

// The calls of issue 30 part C: POST api/reports and the linkpixel resource paths (spec 1 §7),
// the user lookup getUser (spec 2 §7, spec 4 §7) and the settings' LiveIntent fetch switch read
// by the scheduled import (spec 2 §3). The installation's time zone is America/New_York.

let admin: string;
let campaignId: number;
let student: { id: number; token: string; username: string };
let studentCampaign: number;

// 15:00 UTC is 10:00 in New York, the same calendar day.
const NOV_10 = Date.UTC(2026, 10, 10, 15, 0);
const NOV_12 = Date.UTC(2026, 10, 12, 15, 0);

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

beforeAll(async () => {
  admin = await setupInstallation();
  campaignId = await makeCampaign(admin, { name: 'Reported', campaignType: 'landing_page', cpc: '0.50' });
  const l = await makeLanding(admin, campaignId, { name: 'L' });
  const o = await makeOffer(admin, campaignId, { name: 'O', payout: '10' });
  const events: TrackEvent[] = [];
  for (let i = 0; i < 4; i++)
    events.push(visitEvent({ id: `r${i}`, c: campaignId, l, at: NOV_10, tgt: 'A' }));
  for (let i = 0; i < 2; i++)
    events.push(lpClickEvent({ id: `r${i}`, c: campaignId, l, o, at: NOV_10 + 1000 }));
  events.push(conversionEvent({ id: 'r0', c: campaignId, l, o, at: NOV_10 + 2000 }));
  events.push(visitEvent({ id: 's0', c: campaignId, l, at: NOV_12, tgt: 'B' }));
  await ingestEvents(env, events);
  const coach = await userWithRole(admin, 'coach');
  student = await studentOf(admin, coach);
  studentCampaign = await makeCampaign(student.token, { name: 'Mine', campaignType: 'landing_page' });
});

describe('POST /api/reports (spec 1 §7)', () => {
  it('answers every day of the range and the total from form data, money in micros', async () => {
    const res = await api('/api/reports', {
      token: admin,
      body: form({ start_date: '2026-11-10', end_date: '2026-11-12', campaignId: String(campaignId) }),
    });
    expect(res.status).toBe(200);
    const zero = {
      visits: 0,
      lpClicks: 0,
      conversions: 0,
      impressions: 0,
      adClicks: 0,
      revenueMicros: 0,
      spendMicros: 0,
    };
    expect(res.body.data).toEqual({
      campaignId,
      start_date: '2026-11-10',
      end_date: '2026-11-12',
      reports: [
        // 4 visits at the campaign's CPC of $0.50 cost $2; one conversion at the offer's $10.
        {
          date: '2026-11-10',
          ...zero,
          visits: 4,
          lpClicks: 2,
          conversions: 1,
          revenueMicros: 10_000_000,
          spendMicros: 2_000_000,
        },
        { date: '2026-11-11', ...zero },
        { date: '2026-11-12', ...zero, visits: 1, spendMicros: 500_000 },
      ],
      total: {
        ...zero,
        visits: 5,
        lpClicks: 2,
        conversions: 1,
        revenueMicros: 10_000_000,
        spendMicros: 2_500_000,
      },
    });
  });

  it('lets a student report only their own campaigns', async () => {
    const own = await api('/api/reports', {
      token: student.token,
      body: { campaignId: studentCampaign, start_date: '2026-11-10', end_date: '2026-11-10' },
    });
    expect(own.status).toBe(200);
    expect(own.body.data.total.visits).toBe(0);
    const other = await api('/api/reports', {
      token: student.token,
      body: { campaignId, start_date: '2026-11-10', end_date: '2026-11-10' },
    });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Campaign not found.');
    expect((await api('/api/reports', { body: { campaignId } })).status).toBe(401);
  });

  it('refuses bad input with the field’s message, never a 500', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ start_date: '2026-11-10', end_date: '2026-11-10' }, 'campaignId', 'Select campaign first.'],
      [
        { campaignId, start_date: '10-11-2026', end_date: '2026-11-10' },
        'start_date',
        'Dates must be real days written yyyy-MM-dd.',
      ],
      [
        { campaignId, start_date: '2026-11-12', end_date: '2026-11-10' },
        'end_date',
        'End date should be greater than start date.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await api('/api/reports', { token: admin, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(message);
      expect(res.body.errors[field]).toEqual([message]);
    }
    const broken = await api('/api/reports', { token: admin, body: '{"campaignId":' });
    expect(broken.status).toBe(400);
  });
});

describe('linkpixel and add-linkpixel (spec 1 §7)', () => {
  it('answers the campaign’s links as the campaign detail carries them', async () => {
    const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token: admin });
    const res = await api(`/api/linkpixel?campaignId=${campaignId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ campaignId, linkpixel: detail.body.data.linkpixel });
    expect(res.body.data.linkpixel.campaignURL).toMatch(new RegExp(`/${campaignId}\\?`));
    expect(res.body.data.linkpixel.lpofferlink_simple).toMatch(new RegExp(`/${campaignId}$`));
  });

  it('add-linkpixel answers the links as they stand, with what it did', async () => {
    const res = await api('/api/add-linkpixel', {
      token: admin,
      body: form({ campaignId: String(campaignId) }),
    });
    expect(res.status).toBe(200);
    const read = await api(`/api/linkpixel?campaignId=${campaignId}`, { token: admin });
    expect(res.body.data).toEqual({
      campaignId,
      linkpixel: read.body.data.linkpixel,
      message: 'Links and pixels come from the settings: they are up to date.',
    });
  });

  it('keeps a student to their own campaigns and refuses a missing id', async () => {
    expect((await api(`/api/linkpixel?campaignId=${studentCampaign}`, { token: student.token })).status).toBe(
      200,
    );
    const other = await api(`/api/linkpixel?campaignId=${campaignId}`, { token: student.token });
    expect(other.status).toBe(404);
    const add = await api('/api/add-linkpixel', { token: student.token, body: { campaignId } });
    expect(add.status).toBe(404);
    const none = await api('/api/linkpixel', { token: admin });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Select campaign first.');
    expect((await api(`/api/linkpixel?campaignId=${campaignId}`)).status).toBe(401);
  });
});

describe('POST /api/auth/getUser (spec 2 §7, spec 4 §7)', () => {
  it('answers an admin every user whose username holds the text, as a list', async () => {
    const res = await api('/api/auth/getUser', {
      token: admin,
      body: { username: student.username.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual([
      expect.objectContaining({ id: student.id, username: student.username, role: 'student|Student' }),
    ]);
    const all = await api('/api/auth/getUser', { token: admin, body: { username: 'student' } });
    expect(all.body.data.user.map((u: { username: string }) => u.username)).toContain(student.username);
    const nobody = await api('/api/auth/getUser', { token: admin, body: { username: 'no-such-user' } });
    expect(nobody.body.data).toEqual({ user: [] });
  });

  it('answers a coach only themselves and their own students', async () => {
    const coach = await userWithRole(admin, 'coach');
    const mine = await studentOf(admin, coach);
    const res = await api('/api/auth/getUser', { token: coach.token, body: { username: 'student' } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.map((u: { id: number }) => u.id)).toEqual([mine.id]);
    const self = await api('/api/auth/getUser', { token: coach.token, body: { username: coach.username } });
    expect(self.body.data.user.map((u: { id: number }) => u.id)).toEqual([coach.id]);
    const admins = await api('/api/auth/getUser', { token: coach.token, body: { username: 'owner' } });
    expect(admins.body.data.user).toEqual([]);
  });

  it('refuses a student (403) and nobody (401), and asks for a username (422)', async () => {
    const asStudent = await api('/api/auth/getUser', { token: student.token, body: { username: 'a' } });
    expect(asStudent.status).toBe(403);
    expect((await api('/api/auth/getUser', { body: { username: 'a' } })).status).toBe(401);
    const empty = await api('/api/auth/getUser', { token: admin, body: { username: '  ' } });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Username field is required.');
  });
});

describe('liFetchEnable governs the scheduled LiveIntent import (spec 2 §3)', () => {
  const queuedAt = async (id: number) =>
    (
      await env.DB.prepare(
        "SELECT queued_at FROM platform_sync WHERE campaign_id = ?1 AND platform = 'liveintent'",
      )
        .bind(id)
        .first<{ queued_at: number | null }>()
    )?.queued_at ?? null;
  const setFetch = (value: string) =>
    env.DB.prepare(
      "INSERT INTO settings (key, value) VALUES ('li_fetch_enable', ?1) ON CONFLICT(key) DO UPDATE SET value = ?1",
    )
      .bind(value)
      .run();

  it('skips a link read with the settings’ account while the switch is off, queues it when on', async () => {
    const id = await makeCampaign(admin, { name: 'LiveIntent import' });
    const link = await api('/api/integrations/campaign-link', {
      token: admin,
      body: { campaignId: id, platform: 'liveintent', externalCampaignId: 'li-77' },
    });
    expect(link.status).toBe(200);
    await env.DB.prepare("DELETE FROM platform_credentials WHERE platform = 'liveintent'").run();
    const now = Date.now();
    await setFetch('0');
    expect(await enqueueDueSyncs(env, now)).toBe(0);
    expect(await queuedAt(id)).toBeNull();
    await setFetch('1');
    expect(await enqueueDueSyncs(env, now)).toBe(1);
    expect(await queuedAt(id)).toBe(now);
  });

  it('still queues a link whose owner has a LiveIntent credential of their own', async () => {
    await setFetch('0');
    const id = await makeCampaign(student.token, { name: 'Own LiveIntent' });
    await api('/api/integrations/campaign-link', {
      token: student.token,
      body: { campaignId: id, platform: 'liveintent', externalCampaignId: 'li-78' },
    });
    const later = Date.now() + SYNC_INTERVAL_MS + 1;
    expect(await enqueueDueSyncs(env, later)).toBe(0);
    await setCredential(env, 'liveintent', student.id, { clientId: 'li-user', token: 'li-pass' });
    expect(await enqueueDueSyncs(env, later)).toBe(1);
    expect(await queuedAt(id)).toBe(later);
  });
});
