import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { toDmy } from '../../schema/dates';
import { api } from '../factories/api';
import { makeCampaign, makeOffer } from '../factories/campaigns';
import { waitForRows } from '../factories/db';
import { setupInstallation } from '../factories/install';
import { exportedFile, targetReport } from '../factories/reports';
import { hit, postback, visitLink } from '../factories/traffic';
import { workerFetch } from '../worker-fetch';

// Issue 27: the export a marketer shares (a named file, the chosen table, money one way), ratios
// without a value (no spend: ROI and CPA are empty, never 0) and the stamp live statistics poll.

const token = await setupInstallation();
let campaignId: number;

beforeAll(async () => {
  // No CPC and no costs: the campaign has no ad spend at all.
  campaignId = await makeCampaign(token, { name: 'Probe LP', campaignType: 'direct_link' });
  await makeOffer(token, campaignId, { payout: '12.5' });
  const first = await visitLink(campaignId, 'ad1');
  await visitLink(campaignId, 'ad1');
  await waitForRows('visits', campaignId, 2);
  expect((await postback(first, 'txid=P-1')).status).toBe(200);
  await waitForRows('conversions', campaignId, 1);
});

const targetRows = () => targetReport(token, { campaignId, startDate: '', endDate: '', part: 'target' });

describe('ratios without a value', () => {
  it('keeps the spec 0 in the answer and says which ratios have no value and why', async () => {
    const result = await targetRows();
    const row = result.targetRecords[0];
    expect(row).toMatchObject({
      target: 'ad1',
      visits: 2,
      conversions: 1,
      ad_spent: 0,
      revenue: 12.5,
      roi: 0,
      cpa: 0,
    });
    expect(row.no_value).toMatchObject({
      roi: 'No value: no ad spend recorded in this range, so there is nothing to divide.',
      cpa: 'No value: no ad spend recorded in this range, so there is nothing to divide.',
      ctr: 'No value: the ad platform reported no impressions in this range.',
    });
    // CR and EPC have visits: they have values.
    expect(row.no_value.cr).toBeUndefined();
    expect(row.no_value.epc).toBeUndefined();
    expect(row.cr).toBe(50);
  });
});

describe('the export a marketer shares', () => {
  it('writes the chosen table in a file named by campaign, range and time zone, empty cells for no value', async () => {
    const today = (await api('/api/stats-today', { token })).body.data;
    const day = toDmy(today.today);
    const body = { campaignId, startDate: day, endDate: day, tables: ['targets'] };
    const name = `Campaign_Probe-LP_${today.today}_to_${today.today}_America-New_York.csv`;
    expect(await exportedFile(token, body, name)).toBe(
      [
        'Targets',
        // The default columns; "Net Profit" as the other money headers read.
        'Target,Visits,Purchase Event,Ad Spend,Revenue,Net Profit,ROI,CPA,CR',
        // No spend: ROI and CPA are empty, not 0 (a 0 reads as break-even).
        'ad1,2,1,0.00,12.50,12.50,,,50.00',
        '',
      ].join('\r\n'),
    );
  });

  it('writes a breakdown by the dimension asked for, with its total', async () => {
    const body = { campaignId, startDate: '', endDate: '', tables: 'breakdown', breakdownBy: 'device' };
    expect((await exportedFile(token, body)).split('\r\n')).toEqual([
      'Breakdown',
      'Device type,Visits,LP Clicks,LP CTR,Conversions,CR,Revenue,Ad Spend,Net Profit,ROI,EPC,CPA',
      'desktop,2,0,0.00,1,50.00,12.50,0.00,12.50,,6.25,',
      'Total,2,0,0.00,1,50.00,12.50,0.00,12.50,,6.25,',
      '',
    ]);
  });

  it('refuses an unknown table or dimension with a 422 naming the field', async () => {
    const table = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', tables: ['targets', 'charts'] },
    });
    expect(table.status).toBe(422);
    expect(table.body.errors).toEqual({
      tables: ['Choose tables among targets, landings, offers, paths, breakdown, costs and filtered.'],
    });
    const by = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', breakdownBy: 'planet' },
    });
    expect(by.status).toBe(422);
    expect(by.body.errors).toEqual({ breakdownBy: ['Choose what the breakdown groups by.'] });
  });
});

/** A worksheet's rows as values: shared strings resolved, numbers as numbers, empty cells as null. */
function sheetRows(xml: string, strings: string[]): (string | number | null)[][] {
  const rows = [...xml.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((row) => {
    const cells: (string | number | null)[] = [];
    for (const c of row[1].matchAll(/<c r="([A-Z]+)\d+"([^>]*)>(?:<v>([^<]*)<\/v>)?<\/c>/g)) {
      const col = [...c[1]].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      while (cells.length < col) cells.push(null);
      cells.push(c[2].includes('t="s"') ? strings[Number(c[3])] : Number(c[3]));
    }
    return cells;
  });
  // Empty cells at a row's end are not written: as wide as the header row.
  for (const r of rows) while (r.length < rows[0].length) r.push(null);
  return rows;
}

describe('the export as an Excel workbook', () => {
  it('writes a sheet a table, numbers as numbers, empty cells for no value', async () => {
    const today = (await api('/api/stats-today', { token })).body.data;
    const res = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', tables: ['targets', 'breakdown'], format: 'xlsx' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.fileName).toBe('Campaign_Probe-LP_all_time_America-New_York.xlsx');
    const file = await workerFetch(`http://tracker.test${res.body.data.downloadLink}`);
    expect(file.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(today.timeZone).toBe('America/New_York');
    const parts = unzipSync(new Uint8Array(await file.arrayBuffer()));
    const text = (name: string) => strFromU8(parts[name]);
    const sheets = [...text('xl/workbook.xml').matchAll(/<sheet [^>]*name="([^"]+)"/g)].map((m) => m[1]);
    expect(sheets).toEqual(['Targets', 'Breakdown']);
    const strings = [...text('xl/sharedStrings.xml').matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map((m) => m[1]);
    expect(sheetRows(text('xl/worksheets/sheet1.xml'), strings)).toEqual([
      ['Target', 'Visits', 'Purchase Event', 'Ad Spend', 'Revenue', 'Net Profit', 'ROI', 'CPA', 'CR'],
      // ROI and CPA have no value (no spend): empty cells, not 0.
      ['ad1', 2, 1, 0, 12.5, 12.5, null, null, 50],
    ]);
    expect(sheetRows(text('xl/worksheets/sheet2.xml'), strings)).toEqual([
      [
        'Country',
        'Visits',
        'LP Clicks',
        'LP CTR',
        'Conversions',
        'CR',
        'Revenue',
        'Ad Spend',
        'Net Profit',
        'ROI',
        'EPC',
        'CPA',
      ],
      [null, 2, 0, 0, 1, 50, 12.5, 0, 12.5, null, 6.25, null],
      ['Total', 2, 0, 0, 1, 50, 12.5, 0, 12.5, null, 6.25, null],
    ]);
    // Money and percentages keep two decimals in Excel too.
    expect(text('xl/styles.xml')).toContain('formatCode="0.00"');
  });

  it('refuses an unknown format with a 422 naming the field', async () => {
    const res = await api('/api/export-statistics', {
      token,
      body: { campaignId, startDate: '', endDate: '', format: 'pdf' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ format: ['Choose CSV or XLSX.'] });
  });
});

describe('live statistics stamp', () => {
  it('answers the data version and the newest event, per role', async () => {
    const res = await api(`/api/stats-reports/stamp?campaignId=${campaignId}`, { token, method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBeGreaterThan(0);
    expect(res.body.data.newestEventAt).toBeGreaterThan(0);
    const before = res.body.data.version;
    await hit(`/go/${campaignId}?tid=ad2`);
    await waitForRows('visits', campaignId, 3);
    const after = await api(`/api/stats-reports/stamp?campaignId=${campaignId}`, { token, method: 'GET' });
    expect(after.body.data.version).toBeGreaterThan(before);
    expect((await api(`/api/stats-reports/stamp?campaignId=${campaignId}`, { method: 'GET' })).status).toBe(
      401,
    );
    expect((await api('/api/stats-reports/stamp?campaignId=999999', { token, method: 'GET' })).status).toBe(
      404,
    );
    const bad = await api('/api/stats-reports/stamp?campaignId=x', { token, method: 'GET' });
    expect(bad.status).toBe(422);
  });
});
