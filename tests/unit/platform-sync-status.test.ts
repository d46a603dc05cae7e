import { describe, expect, it } from 'vitest';
import type { PlatformSyncStatus } from '../../schema/integrations-api';
import { syncLine } from '../../web/src/routes/stats/sync-line';

// The statistics screen's line about each linked platform's cost import.

const link = (over: Partial<PlatformSyncStatus>): PlatformSyncStatus => ({
  platform: 'facebook',
  externalCampaignId: '1234567',
  externalAccountId: '',
  enabled: true,
  lastSyncAt: null,
  lastSuccessAt: null,
  lastError: '',
  syncedFrom: '',
  syncedTo: '',
  rowsImported: 0,
  accountCurrency: '',
  accountTimeZone: '',
  usdRate: '',
  ...over,
});

describe('syncLine', () => {
  it('says a new link waits for its first sync', () => {
    expect(syncLine(link({}))).toBe('Facebook cost import: waiting for its first sync.');
  });

  it('says when the last sync ran, how many rows it brought and for which days', () => {
    const at = Date.UTC(2026, 10, 20, 15, 4);
    const line = syncLine(
      link({
        platform: 'tiktok',
        lastSyncAt: at,
        syncedFrom: '2026-11-18',
        syncedTo: '2026-11-20',
        rowsImported: 1234,
      }),
    );
    expect(line).toMatch(/^TikTok cost import: last synced .+, 1,234 rows for 2026-11-18 to 2026-11-20\.$/);
    expect(line).toContain('2026');
  });

  it("gives the platform's message when the last sync failed", () => {
    const line = syncLine(link({ platform: 'taboola', lastSyncAt: Date.now(), lastError: 'Token expired.' }));
    expect(line).toMatch(/^Taboola cost import failed at .+: Token expired\.$/);
  });
});
