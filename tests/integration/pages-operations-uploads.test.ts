import { SELF } from 'cloudflare:test';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeCampaign, makeLanding, makeOffer, makeOption, makePath } from '../factories/campaigns';
import { setupInstallation } from '../factories/install';

// The landing-page CSV upload (POST /api/lading-pages-csv) and the landing and offer ZIP
// imports (POST /api/import-landings, /api/import-offers): the file checks before anything is
// read, all-or-nothing rows, overwrite, and the export -> import round trip.

const admin = await setupInstallation();

function form(fields: Record<string, string | number>, file?: File) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, String(v));
  if (file) body.set('uploads', file);
  return body;
}
const csv = (text: string, name = 'pages.csv') => new File([text], name, { type: 'text/csv' });
const zip = (files: Record<string, string | Uint8Array>, name = 'pages.zip') =>
  new File(
    [
      zipSync(
        Object.fromEntries(
          Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v]),
        ),
      ),
    ],
    name,
    { type: 'application/zip' },
  );
const upload = (path: string, body: FormData) => api(path, { token: admin, body });

async function landings(campaignId: number, showDeleted = 0) {
  return (await api(`/api/landing?campaignId=${campaignId}&showDeleted=${showDeleted}`, { token: admin }))
    .body.data.result;
}

describe('POST /api/lading-pages-csv', () => {
  it('adds the rows of a CSV with a header, keeping the pages already there', async () => {
    const campaignId = await makeCampaign(admin, { name: 'CSV', campaignType: 'landing_page' });
    await makeLanding(admin, campaignId, { name: 'Existing' });
    const text = [
      'Name,URL,Share,Path (optional),Agents (optional)',
      'Alpha,https://lp.example/a,60,,desktop|mobile',
      '"Beta, the second",https://lp.example/b?c={clickid},40,,',
      'Gamma,https://lp.example/g,,,3',
    ].join('\n');
    const res = await upload('/api/lading-pages-csv', form({ campaignId, overwrite: 0 }, csv(text)));
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Landing pages data have been uploaded.');
    expect(res.body.data.uploaded).toBe(3);
    const rows = await landings(campaignId);
    expect(
      rows.map((r: { name: string; url: string; share: number; agents: string }) => [
        r.name,
        r.url,
        r.share,
        r.agents,
      ]),
    ).toEqual([
      ['Existing', 'https://lp.example/page', 100, '1'],
      ['Alpha', 'https://lp.example/a', 60, '2,3'],
      ['Beta, the second', 'https://lp.example/b?c={clickid}', 40, '1'],
      ['Gamma', 'https://lp.example/g', 100, '3'],
    ]);
  });

  it('overwrite replaces the live pages (soft delete) and accepts rows without a header', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Overwrite', campaignType: 'landing_page' });
    await makeLanding(admin, campaignId, { name: 'Old 1' });
    await makeLanding(admin, campaignId, { name: 'Old 2' });
    const res = await upload(
      '/api/lading-pages-csv',
      form({ campaignId, overwrite: 1 }, csv('New,https://lp.example/new,100\r\n')),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.uploaded).toBe(1);
    expect((await landings(campaignId)).map((r: { name: string }) => r.name)).toEqual(['New']);
    expect(
      (await landings(campaignId, 1)).map((r: { name: string; deleted: number }) => `${r.name}:${r.deleted}`),
    ).toEqual(['Old 1:1', 'Old 2:1', 'New:0']);
  });

  it('resolves paths by name or id in a path campaign and requires them', async () => {
    const campaignId = await makeCampaign(admin, { name: 'CSV paths', campaignType: 'multiple_path_type' });
    const none = await upload(
      '/api/lading-pages-csv',
      form({ campaignId }, csv('name,url\nA,https://a.example/')),
    );
    expect(none.status).toBe(422);
    expect(none.body.errors.uploads).toEqual([
      'Row 2: Multiple path campaign type requires at least one path to add landing and offer pages.',
    ]);
    const main = await makePath(admin, campaignId, { name: 'Main' });
    const second = await makePath(admin, campaignId, { name: 'Second' });
    const text = `name,url,share,path\nA,https://a.example/,50,main\nB,https://b.example/,50,${second}\nC,https://c.example/,1,`;
    const missing = await upload('/api/lading-pages-csv', form({ campaignId }, csv(text)));
    expect(missing.body.errors.uploads).toEqual(['Row 4: Select a path of this campaign.']);
    const ok = await upload(
      '/api/lading-pages-csv',
      form({ campaignId }, csv(text.replace(/,1,$/, ',1,Main'))),
    );
    expect(ok.body.data.uploaded).toBe(3);
    expect((await landings(campaignId)).map((r: { pathId: number }) => r.pathId)).toEqual([
      main,
      second,
      main,
    ]);
  });

  it('writes nothing when any row is bad and names each bad row', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Bad rows', campaignType: 'landing_page' });
    await makeLanding(admin, campaignId, { name: 'Keep' });
    const text = [
      'name,url,share,path,agents',
      'Good,https://ok.example/,10,,',
      'No url,,10,,',
      'Bad url,ftp://x.example/,10,,',
      'Bad share,https://ok.example/,-5,,',
      'Bad device,https://ok.example/,10,,fridge',
      ',https://ok.example/,10,,',
    ].join('\n');
    const res = await upload('/api/lading-pages-csv', form({ campaignId, overwrite: 1 }, csv(text)));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Row 3: Landing page URL is required.');
    expect(res.body.errors.uploads).toEqual([
      'Row 3: Landing page URL is required.',
      'Row 4: Enter a valid http or https URL.',
      'Row 5: Share must be a whole number from 0 to 100000.',
      'Row 6: Select at least one valid device.',
      'Row 7: Landing page name is required.',
    ]);
    expect(
      (await landings(campaignId, 1)).map((r: { name: string; deleted: number }) => `${r.name}:${r.deleted}`),
    ).toEqual(['Keep:0']);
  });

  it.each([
    ['no file', undefined, 422, 'Select csv file for upload.'],
    ['an empty file', csv(''), 422, 'Select csv file for upload.'],
    ['a wrong extension', csv('name,url\nA,https://a.example/', 'pages.txt'), 422, 'Select valid csv file.'],
    [
      'a ZIP named .csv',
      new File([zipSync({ 'a.txt': strToU8('x') })], 'pages.csv'),
      422,
      'Select valid csv file.',
    ],
    [
      'binary content',
      new File([new Uint8Array([0x41, 0, 0x42])], 'pages.csv'),
      422,
      'Select valid csv file.',
    ],
    [
      'bad UTF-8',
      new File([new Uint8Array([0x41, 0xff, 0xfe, 0x42])], 'pages.csv'),
      422,
      'Select valid csv file.',
    ],
    ['only a header', csv('name,url,share\n'), 422, 'The CSV file holds no landing pages.'],
    [
      'too many rows',
      csv(`name,url\n${'A,https://a.example/\n'.repeat(1001)}`),
      422,
      'The CSV file holds too many rows: at most 1,000 landing pages.',
    ],
    [
      'over 2 MB',
      csv(`name,url\n${'x'.repeat(2 * 1024 * 1024)}`),
      413,
      'The CSV file is too large: at most 2 MB.',
    ],
  ])('refuses %s', async (_label, file, status, message) => {
    const campaignId = await makeCampaign(admin, { name: 'Bad file', campaignType: 'landing_page' });
    const res = await upload('/api/lading-pages-csv', form({ campaignId }, file as File | undefined));
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(res.body.errors.uploads).toEqual([message]);
    expect(await landings(campaignId, 1)).toEqual([]);
  });

  it('needs the campaign first and answers 404 for an unknown one', async () => {
    const res = await upload('/api/lading-pages-csv', form({}, csv('A,https://a.example/')));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ campaignId: ['Campaign is required.'] });
    const unknown = await upload(
      '/api/lading-pages-csv',
      form({ campaignId: 999999 }, csv('A,https://a.example/')),
    );
    expect(unknown.status).toBe(404);
  });
});

describe('ZIP import', () => {
  it('imports what export-landings wrote into another campaign (round trip)', async () => {
    const source = await makeCampaign(admin, { name: 'Source', campaignType: 'multiple_path_type' });
    const sourcePath = await makePath(admin, source, { name: 'Main' });
    const ids = [
      await makeLanding(admin, source, {
        name: '-minus',
        url: 'https://lp.example/1',
        share: 70,
        pathId: sourcePath,
        agents: '2,4',
      }),
      await makeLanding(admin, source, {
        name: 'Two, "quoted"',
        url: 'https://lp.example/2?c={clickid}',
        share: 30,
        pathId: sourcePath,
        active: 0,
      }),
    ];
    const exported = await api('/api/export-landings', {
      token: admin,
      body: { campaignId: source, landingIds: ids },
    });
    const file = await SELF.fetch(`http://tracker.test${exported.body.data.downloadLink}`);
    const bytes = new Uint8Array(await file.arrayBuffer());

    const target = await makeCampaign(admin, { name: 'Target', campaignType: 'multiple_path_type' });
    const targetPath = await makePath(admin, target, { name: 'main' });
    const res = await upload(
      '/api/import-landings',
      form({ campaignId: target }, new File([bytes], 'export.zip')),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Landing pages data have been imported.');
    expect(res.body.data.uploaded).toBe(2);
    const strip = (r: Record<string, unknown>) => ({
      name: r.name,
      url: r.url,
      share: r.share,
      active: r.active,
      agents: r.agents,
    });
    const before = (await landings(source)).map(strip);
    expect(res.body.data.result.map(strip)).toEqual(before);
    expect(res.body.data.result.map((r: { pathId: number }) => r.pathId)).toEqual([targetPath, targetPath]);
  });

  it('imports what export-offers wrote, resolving options by name', async () => {
    const source = await makeCampaign(admin, { name: 'Offer source', campaignType: 'multiple_option_type' });
    const gold = await makeOption(admin, source, { name: 'Gold' });
    const id = await makeOffer(admin, source, {
      name: 'Buy',
      url: 'https://o.example/buy?s={clickid}',
      share: 55,
      payout: '19.99',
      optionId: gold,
      postback: 'subid',
      agents: '3',
      liConversionName: 'purchase',
      rotator_participant_email: 'p@x.com',
      active: 0,
    });
    const exported = await api('/api/export-offers', {
      token: admin,
      body: { campaignId: source, offerPageIds: [id] },
    });
    const bytes = new Uint8Array(
      await (await SELF.fetch(`http://tracker.test${exported.body.data.downloadLink}`)).arrayBuffer(),
    );

    const target = await makeCampaign(admin, { name: 'Offer target', campaignType: 'multiple_option_type' });
    const noOption = await upload(
      '/api/import-offers',
      form({ campaignId: target }, new File([bytes], 'o.zip')),
    );
    expect(noOption.status).toBe(422);
    expect(noOption.body.errors.uploads).toEqual([
      'Row 2: Multiple options campaign type requires at least one option to add offer pages.',
    ]);
    const targetGold = await makeOption(admin, target, { name: 'Gold' });
    const res = await upload('/api/import-offers', form({ campaignId: target }, new File([bytes], 'o.zip')));
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe('Offer pages data have been imported.');
    expect(res.body.data.uploaded).toBe(1);
    expect(res.body.data.result[0]).toMatchObject({
      name: 'Buy',
      url: 'https://o.example/buy?s={clickid}',
      share: 55,
      payout: 19.99,
      optionId: targetGold,
      option: 'Gold',
      postback: 'subid',
      agents: '3',
      active: 0,
      liConversionName: 'purchase',
      rotator_participant_email: 'p@x.com',
    });
  });

  const good = 'name,url\nA,https://a.example/\n';
  it.each([
    ['no file', '/api/import-landings', undefined, 422, 'Select zip file for upload.'],
    [
      'a wrong extension',
      '/api/import-landings',
      zip({ 'landings.csv': good }, 'pages.csv'),
      422,
      'Select valid zip file.',
    ],
    [
      'a corrupt archive',
      '/api/import-landings',
      new File([strToU8('PK\u0003\u0004 not really a zip')], 'x.zip'),
      422,
      'Select valid zip file.',
    ],
    [
      'a file that is not a ZIP',
      '/api/import-offers',
      new File([strToU8(good)], 'x.zip'),
      422,
      'Select valid zip file.',
    ],
    [
      'an empty archive',
      '/api/import-landings',
      new File([zipSync({})], 'x.zip'),
      422,
      'Select valid zip file.',
    ],
    [
      'path traversal',
      '/api/import-landings',
      zip({ '../landings.csv': good, 'landings.csv': good }),
      422,
      'The ZIP file holds a file with an unsafe name.',
    ],
    [
      'an absolute path',
      '/api/import-landings',
      zip({ '/etc/landings.csv': good }),
      422,
      'The ZIP file holds a file with an unsafe name.',
    ],
    [
      'too many entries',
      '/api/import-landings',
      zip(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.txt`, 'x']))),
      422,
      'The ZIP file holds too many files: at most 20.',
    ],
    [
      'a big unpacked size',
      '/api/import-landings',
      zip({ 'landings.csv': good, 'pad.bin': new Uint8Array(21 * 1024 * 1024) }),
      413,
      'The ZIP file unpacks to more than 20 MB.',
    ],
    [
      'no landings.csv',
      '/api/import-landings',
      zip({ 'offers.csv': good }),
      422,
      'The ZIP file holds no landings.csv: import a file written by the landing pages export.',
    ],
    [
      'no offers.csv',
      '/api/import-offers',
      zip({ 'landings.csv': good }),
      422,
      'The ZIP file holds no offers.csv: import a file written by the offer pages export.',
    ],
    [
      'over 5 MB',
      '/api/import-landings',
      new File([new Uint8Array(5 * 1024 * 1024 + 10).fill(0x50)], 'x.zip'),
      413,
      'The ZIP file is too large: at most 5 MB.',
    ],
  ])('refuses %s', async (_label, path, file, status, message) => {
    const campaignId = await makeCampaign(admin, { name: 'Bad zip', campaignType: 'landing_page' });
    const res = await upload(path, form({ campaignId }, file as File | undefined));
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect(await landings(campaignId, 1)).toEqual([]);
  });

  it('refuses a body far over the limit before reading it', async () => {
    const campaignId = await makeCampaign(admin, { name: 'Huge', campaignType: 'landing_page' });
    const res = await upload(
      '/api/import-landings',
      form({ campaignId }, new File([new Uint8Array(7 * 1024 * 1024)], 'x.zip')),
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The ZIP file is too large: at most 5 MB.');
  });
});
