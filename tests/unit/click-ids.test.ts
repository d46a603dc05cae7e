import { describe, expect, it } from 'vitest';
import { mintClickId, parseClickId, signText, verifyText } from '../../worker/services/hot-path/click-ids';

const env = { CLICK_ID_SECRET: 'unit-test-click-id-secret-0123456789', JWT_SECRET: '' };
const other = { CLICK_ID_SECRET: 'another-secret-of-another-install-000', JWT_SECRET: '' };
const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);
const FIELDS = { campaignId: 123, pathId: 4, landingId: 56789, offerId: 0 };

function flip(id: string, index: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const ch = id[index];
  const next = alphabet[(alphabet.indexOf(ch) + 1) % 32];
  return id.slice(0, index) + next + id.slice(index + 1);
}

describe('click ids', () => {
  it('carry campaign, path, landing, offer and time, and verify', async () => {
    const id = await mintClickId(env, FIELDS, NOW, new Uint8Array([1, 2, 3, 4, 5, 6, 7]));
    expect(id).toMatch(/^[a-z2-7]{30,45}$/);
    const parsed = await parseClickId(env, id, NOW);
    expect(parsed).toEqual({
      clickId: id,
      ...FIELDS,
      issuedAt: NOW,
      seed: ((1 << 24) | (2 << 16) | (3 << 8) | 4) >>> 0,
    });
  });

  it('are unique per mint and survive upper-casing by a network', async () => {
    const a = await mintClickId(env, FIELDS, NOW);
    const b = await mintClickId(env, FIELDS, NOW);
    expect(a).not.toBe(b);
    expect((await parseClickId(env, a.toUpperCase(), NOW))?.clickId).toBe(a);
  });

  it('refuse a forged or altered id', async () => {
    const id = await mintClickId(env, FIELDS, NOW);
    // Signed by another installation's secret.
    expect(await parseClickId(other, id, NOW)).toBeNull();
    // Any single character changed, in the payload or in the tag.
    for (const index of [0, 3, 8, 15, id.length - 2]) {
      expect(await parseClickId(env, flip(id, index), NOW)).toBeNull();
    }
    // A made-up id for another campaign built by someone without the secret.
    const forged = await mintClickId(other, { ...FIELDS, campaignId: 1 }, NOW);
    expect(await parseClickId(env, forged, NOW)).toBeNull();
  });

  it('refuse malformed input without throwing', async () => {
    for (const raw of [
      null,
      undefined,
      '',
      'abc',
      'x'.repeat(200),
      'not-a-click-id-!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '{clickid}',
      '11111111111111111111111111111111111111',
    ]) {
      expect(await parseClickId(env, raw as string, NOW)).toBeNull();
    }
    const id = await mintClickId(env, FIELDS, NOW);
    expect(await parseClickId(env, id.slice(0, -1), NOW)).toBeNull();
    expect(await parseClickId(env, `${id}a`, NOW)).toBeNull();
  });

  it('refuse an id minted far in the future', async () => {
    const id = await mintClickId(env, FIELDS, NOW + 60 * 60 * 1000);
    expect(await parseClickId(env, id, NOW)).toBeNull();
    expect(await parseClickId(env, id, NOW + 60 * 60 * 1000)).not.toBeNull();
  });

  it('sign and verify hop destinations', async () => {
    const sig = await signText(env, 'https://lp.example/a');
    expect(await verifyText(env, 'https://lp.example/a', sig)).toBe(true);
    expect(await verifyText(env, 'https://evil.example/a', sig)).toBe(false);
    expect(await verifyText(other, 'https://lp.example/a', sig)).toBe(false);
  });
});
