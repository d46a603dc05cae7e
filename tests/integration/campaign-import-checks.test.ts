import { strFromU8, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { api } from '../factories/api';
import { makeFolder } from '../factories/campaigns';
import { dbRows } from '../factories/db';
import { setupInstallation, userWithRole } from '../factories/install';
import { count, csvFile, upload, zipFile } from '../support/campaign-files';

// The file checks of campaign import (spec 1 §7, spec 2 §7): a ZIP of campaigns and a CSV file,
// each bad file refused with the spec's message and nothing half-written. Export and the import
// of an export are in campaign-list-transfer.test.ts.

const admin = await setupInstallation();

/** A bad file: what it is, how to make it, and the message it is refused with. */
type FileCase = [string, () => { file: Blob | null; name: string }, string];

/** Each case uploaded to `path` is refused (422) with its message, and writes nothing. */
function refusesEach(path: string, cases: FileCase[]) {
  for (const [what, make, message] of cases) {
    it(`refuses ${what}`, async () => {
      const before = await count();
      const { file, name } = make();
      const res = await upload(path, admin, file, name);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message, errors: { uploads: [message] } });
      expect(await count()).toBe(before);
    });
  }
}

describe('import-campaigns file checks', () => {
  const good = () => zipSync({ 'manifest.json': strToU8(JSON.stringify(validManifest())) });

  it('accepts a minimal valid manifest', async () => {
    const res = await upload('/api/import-campaigns', admin, new Blob([good()]), 'ok.ZIP');
    expect(res.status).toBe(200);
    expect(res.body.data.result[0]).toMatchObject({ name: 'Imported', is_dir: 0 });
  });

  /** A campaign export with one entry whose name would write outside the import: refused by name. */
  const unsafeEntry = (what: string, entry: string): FileCase => [
    what,
    () => ({ file: zipFile({ 'manifest.json': good(), [entry]: strToU8('x') }), name: 'evil.zip' }),
    `The zip file contains an unsafe entry name: ${entry}`,
  ];

  /** A ZIP of one manifest.json of this text. */
  const manifestZip = (text: string, name: string) => () => ({
    file: zipFile({ 'manifest.json': strToU8(text) }),
    name,
  });
  /** The admin imports a ZIP of this one manifest, named `name`. */
  const importManifest = (manifest: unknown, name: string) => {
    const { file } = manifestZip(JSON.stringify(manifest), name)();
    return upload('/api/import-campaigns', admin, file, name);
  };

  const cases: FileCase[] = [
    ['no file', () => ({ file: null, name: '' }), 'Select zip file for upload.'],
    [
      'a wrong extension',
      () => ({ file: new Blob([good()]), name: 'campaigns.csv' }),
      'Select valid zip file.',
    ],
    ['no extension', () => ({ file: new Blob([good()]), name: 'campaigns' }), 'Select valid zip file.'],
    [
      'a renamed text file',
      () => ({ file: new Blob(['name\nA']), name: 'fake.zip' }),
      'Select valid zip file.',
    ],
    [
      'a damaged archive',
      () => {
        const bytes = good();
        return { file: new Blob([bytes.slice(0, Math.floor(bytes.length / 2))]), name: 'cut.zip' };
      },
      'The zip file is damaged and cannot be read.',
    ],
    unsafeEntry('a path traversal entry', '../evil.txt'),
    unsafeEntry('a nested traversal entry', 'a/../../b.txt'),
    unsafeEntry('an absolute entry', '/etc/passwd'),
    [
      'too many entries',
      () => ({
        file: zipFile(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}.txt`, strToU8('x')]))),
        name: 'many.zip',
      }),
      'The zip file has more than 20 entries; it is not a campaign export.',
    ],
    [
      'no manifest',
      () => ({ file: zipFile({ 'campaigns.json': strToU8('{}') }), name: 'other.zip' }),
      'The zip file is not a campaign export: manifest.json is missing.',
    ],
    [
      'a manifest that is not JSON',
      manifestZip('{"format": ', 'bad.zip'),
      'The zip file is damaged and cannot be read.',
    ],
    [
      'another format',
      manifestZip('{"format":"x","version":1,"campaigns":[]}', 'bad.zip'),
      'The campaign export is not valid: format: Invalid input: expected "edge-tracker/campaigns"',
    ],
    [
      'a newer version',
      manifestZip(JSON.stringify({ ...validManifest(), version: 2 }), 'new.zip'),
      'This export was made by a newer version of the tracker; update this installation first.',
    ],
  ];

  refusesEach('/api/import-campaigns', cases);

  it('refuses a file over 10 MB', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set([0x50, 0x4b, 3, 4]);
    const res = await upload('/api/import-campaigns', admin, new Blob([big]), 'big.zip');
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual({ uploads: ['The zip file is too large: the limit is 10 MB.'] });
  });

  it('refuses an archive that claims to unpack to more than 50 MB, without unpacking it', async () => {
    const bytes = zipSync({
      'manifest.json': strToU8(JSON.stringify(validManifest())),
      'pad.bin': new Uint8Array(100),
    });
    // Raise the declared size of pad.bin in the central directory to 60 MB.
    const view = new DataView(bytes.buffer);
    for (let i = bytes.length - 22; i >= 0; i--) {
      if (view.getUint32(i, true) === 0x02014b50 && strFromU8(bytes.slice(i + 46, i + 53)) === 'pad.bin') {
        view.setUint32(i + 24, 60 * 1024 * 1024, true);
        break;
      }
    }
    const res = await upload('/api/import-campaigns', admin, new Blob([bytes]), 'bomb.zip');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The zip file unpacks to more than 50 MB; it is not a campaign export.');
  });

  it('checks every campaign by the editor rules and writes nothing when one is wrong', async () => {
    const manifest = validManifest();
    manifest.campaigns.push({ ...manifest.campaigns[0], ref: 2, name: '  ' });
    const before = await count();
    const res = await importManifest(manifest, 'two.zip');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The campaign export is not valid: "  ": name: Campaign name is required.');
    expect(await count()).toBe(before);

    const badUrl = validManifest();
    badUrl.campaigns[0].landings = [{ ref: 1, pathRef: null, name: 'LP', url: 'javascript:alert(1)' }];
    const res2 = await importManifest(badUrl, 'url.zip');
    expect(res2.status).toBe(422);
    expect(res2.body.message).toBe(
      'The campaign export is not valid: "Imported": landing page: url: Enter a valid http or https URL.',
    );

    const badRef = validManifest();
    badRef.campaigns[0].offers = [{ ref: 1, pathRef: 77, name: 'O', url: 'https://o.example' }];
    const res3 = await importManifest(badRef, 'ref.zip');
    expect(res3.body.message).toBe(
      'The campaign export is not valid: "Imported": a path it names is not in the export.',
    );

    const tokens = validManifest();
    tokens.campaigns[0].tokens = Array.from({ length: 21 }, (_, i) => ({
      token_name: `T${i}`,
      parameter: `t${i}`,
    }));
    const res4 = await importManifest(tokens, 't.zip');
    expect(res4.body.message).toBe(
      'The campaign export is not valid: "Imported": extratokens: You can add up to 20 tokens for a campaign.',
    );
    expect(await count()).toBe(before);
  });

  it("refuses a folder that is not the caller's, and a missing token", async () => {
    const student = await userWithRole(admin, 'student');
    const adminFolder = await makeFolder(admin, 'Not for students');
    const res = await upload('/api/import-campaigns', student.token, new Blob([good()]), 'ok.zip', {
      dir: String(adminFolder),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ dir: ['Select a valid folder.'] });
    const anon = await upload('/api/import-campaigns', '', new Blob([good()]), 'ok.zip');
    expect(anon.status).toBe(401);
  });
});

describe('POST /api/uploadcsv', () => {
  it('creates one campaign per line, with the columns of the header row in any order', async () => {
    const f = await makeFolder(admin, 'CSV drops');
    const csv = [
      'Name,campaignType,trafficSource,cpc,active,urlAppendToken,affiliate_network,redirectType',
      'Spring promo,landing_page,taboola,0.15,1,adid,clickbank,meta',
      '"Quoted, name",direct_link,,,0,,,',
      'Rotator one,rotator,taboola,1.999999,,,,',
    ].join('\r\n');
    const res = await upload('/api/uploadcsv', admin, csvFile(`\uFEFF${csv}\r\n`), 'campaigns.csv', {
      dir: String(f),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      uploaded: true,
      message: 'Campaign has successfully uploaded.',
      count: 3,
    });
    expect(res.body.data.result.map((c: any) => [c.name, c.dir])).toEqual([
      ['Spring promo', f],
      ['Quoted, name', f],
      ['Rotator one', f],
    ]);
    const rows = await dbRows(
      'SELECT name, campaign_type, traffic_source, cpc_micros, active, url_append_token, op_target_param, redirect_type FROM campaigns WHERE parent_id = ?1 ORDER BY id',
      f,
    );
    expect(rows).toEqual([
      {
        name: 'Spring promo',
        campaign_type: 'landing_page',
        traffic_source: 'taboola',
        cpc_micros: 150000,
        active: 1,
        url_append_token: 'adid',
        op_target_param: 'tid',
        redirect_type: 'meta',
      },
      {
        name: 'Quoted, name',
        campaign_type: 'direct_link',
        traffic_source: '',
        cpc_micros: 0,
        active: 0,
        url_append_token: 'tid',
        op_target_param: '',
        redirect_type: '302',
      },
      // Choosing rotator clears the traffic source, as in the editor.
      {
        name: 'Rotator one',
        campaign_type: 'rotator',
        traffic_source: '',
        cpc_micros: 1999999,
        active: 1,
        url_append_token: 'tid',
        op_target_param: '',
        redirect_type: '302',
      },
    ]);
  });

  /** A file x.csv of this text. */
  const csvText = (text: string) => () => ({ file: csvFile(text), name: 'x.csv' });

  const csvCases: FileCase[] = [
    ['no file', () => ({ file: null, name: '' }), 'Select csv file for upload.'],
    [
      'a wrong extension',
      () => ({ file: csvFile('name\nA'), name: 'campaigns.xlsx' }),
      'Select Valid Csv file.',
    ],
    [
      'a binary file named .csv',
      () => ({ file: new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 1])]), name: 'x.csv' }),
      'Select Valid Csv file.',
    ],
    [
      'text that is not UTF-8',
      () => ({
        file: new Blob([new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41])]),
        name: 'x.csv',
      }),
      'Select Valid Csv file.',
    ],
    [
      'no name column',
      csvText('campaignType\nrotator'),
      'The first line of the CSV file must be a header row with a name column.',
    ],
    [
      'an unknown column',
      csvText('name,budget\nA,5'),
      'Unknown column "budget". The columns are: name, campaignType, trafficSource, urlAppendToken, keywordParameter, affiliate_network, offerPromotion, active, custom_url, lpTargetParam, opTargetParam, cpc, redirectType, customConversionGoal.',
    ],
    ['only a header', csvText('name\n'), 'The CSV file has no campaigns below its header row.'],
    ['an empty file', csvText(''), 'The first line of the CSV file must be a header row with a name column.'],
  ];

  refusesEach('/api/uploadcsv', csvCases);

  it('checks every line first: one bad line writes nothing and names the line', async () => {
    const before = await count();
    const csv =
      'name,campaignType,cpc\nGood one,landing_page,1\nBad type,bogus,1\n,landing_page,1\nBad cpc,landing_page,-3\n';
    const res = await upload('/api/uploadcsv', admin, csvFile(csv), 'x.csv');
    expect(res.status).toBe(422);
    expect(res.body.errors.uploads).toEqual([
      'Line 3: Select a valid campaign type.',
      'Line 4: Campaign name is required.',
      'Line 5: CPC must be a number of at least 0 with up to 6 decimals.',
    ]);
    expect(res.body.message).toBe('Line 3: Select a valid campaign type.');
    expect(await count()).toBe(before);
  });

  it('refuses a file over 1 MB and more than 500 lines', async () => {
    const big = `name\n${'A'.repeat(1024 * 1024)}\n`;
    const res = await upload('/api/uploadcsv', admin, csvFile(big), 'big.csv');
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual({ uploads: ['The CSV file is too large: the limit is 1 MB.'] });
    const many = `name\n${Array.from({ length: 501 }, (_, i) => `C${i}`).join('\n')}\n`;
    const res2 = await upload('/api/uploadcsv', admin, csvFile(many), 'many.csv');
    expect(res2.status).toBe(413);
    expect(res2.body.message).toBe('The CSV file has more than 500 campaigns; split it into smaller files.');
  });

  it('puts campaigns where a student may see them, and only there', async () => {
    const student = await userWithRole(admin, 'student');
    const res = await upload('/api/uploadcsv', student.token, csvFile('name\nStudent CSV'), 's.csv', {
      userId: String(student.id),
    });
    expect(res.status).toBe(200);
    const mine = (await api('/api/campaign?dir=0', { token: student.token })).body.data.result;
    expect(mine.map((c: any) => c.name)).toEqual(['Student CSV']);
    const adminFolder = await makeFolder(admin, 'Admin CSV folder');
    const denied = await upload('/api/uploadcsv', student.token, csvFile('name\nX'), 's.csv', {
      dir: String(adminFolder),
    });
    expect(denied.status).toBe(422);
    expect(denied.body.errors).toEqual({ dir: ['Select a valid folder.'] });
  });
});

function validManifest() {
  return {
    format: 'edge-tracker/campaigns',
    version: 1,
    campaigns: [
      {
        ref: 1,
        parentRef: null as number | null,
        is_dir: 0 as 0 | 1,
        name: 'Imported',
        campaign: { campaignType: 'landing_page' } as Record<string, unknown>,
        paths: [] as Record<string, unknown>[],
        options: [] as Record<string, unknown>[],
        landings: [] as Record<string, unknown>[],
        offers: [] as Record<string, unknown>[],
        tokens: [] as Record<string, unknown>[],
      },
    ],
  };
}
