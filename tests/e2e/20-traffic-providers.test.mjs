// Issue 14 in Chromium against the traffic providers' fake: tab 7 (12 banners uploaded in
// batches of 5, activation and delete, a placement), tab 8 (traffic info, assets with the
// uploaded/total counter, submit) and the $1500 rule read from the basic tab.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { adminToken, api, BASE, newCampaign, userWithToken } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectAttr, expectText } from './support/expect.mjs';
import { shot } from './support/screen.mjs';

const suite = browserForFile();
let page;
let user;
let token;

/** A real w×h png of one colour, so the thumbnails show something. */
function png(w, h, [r, g, b]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const x of buf) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat()),
  ]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const COLOURS = [
  [37, 99, 235],
  [22, 163, 74],
  [234, 88, 12],
  [147, 51, 234],
];
const images = (n, prefix) =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}-${String(i + 1).padStart(2, '0')}.png`,
    mimeType: 'image/png',
    buffer: png(60, 50, COLOURS[i % COLOURS.length]),
  }));

async function tab(key) {
  await page.locator(`[data-testid="tab-${key}"]`).click();
  await page.locator(`[data-testid="tab-${key}"][aria-selected="true"]`).waitFor();
}

const campaign = (name, trafficSource) => newCampaign(token, { name, trafficSource });

suite.setUp(async () => {
  user = await userWithToken('admin');
  token = user.token;
  ({ page } = await signedInPage(suite.browser, { user, viewport: { width: 1366, height: 900 } }));
});

after(async () => {
  assert.deepEqual(page?.pageErrors ?? [], []);
});

test('tab 7: 12 banners upload in batches of 5, some are deactivated and deleted, a placement is saved', async () => {
  const id = await campaign('Blaze spring', 'blaze');
  await page.goto(`${BASE}/basic-info/${id}`);
  await tab('banners');
  await page.getByText('No banners yet').waitFor();
  await shot(page, '20-banners-empty');

  await page.getByRole('button', { name: 'Add banners' }).click();
  await page.locator('#banner-name').fill('Spring sale');
  await page.locator('#banner-url').fill('https://offer.example/spring');
  await page.locator('#banner-images').setInputFiles(images(12, 'spring'));
  await expectText(page.getByTestId('banner-file-count'), '12 images selected');
  await shot(page, '20-banner-modal');
  // Watch the batches: 12 files go as 5, 5 and 2 (each answer lists the banners so far).
  const sizes = [];
  const watch = async (r) => {
    if (r.url().endsWith('/api/blaze/save-banner')) sizes.push((await r.json()).data.banners.length);
  };
  page.on('response', watch);
  await page.getByRole('button', { name: 'Upload banners' }).click();
  await page
    .getByTestId('banner-upload-status')
    .getByText(/Uploading batch \d of 3/)
    .waitFor();
  await dismissToast(page, 'Banner(s) saved successfully');
  page.off('response', watch);
  assert.deepEqual(sizes, [5, 10, 12]);
  await expectText(page.getByTestId('banner-count'), '12 banners');
  assert.equal(await page.getByTestId('banner-row').count(), 12);

  // Deactivate two, delete three (with the confirmation).
  await page.getByRole('checkbox', { name: 'Select Spring sale (spring-01.png)' }).check();
  await page.getByRole('checkbox', { name: 'Select Spring sale (spring-02.png)' }).check();
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await dismissToast(page, 'Banner(s) updated successfully');
  await page.locator('[data-testid="banner-row"].ce-row-paused').nth(1).waitFor();
  assert.equal(await page.locator('[data-testid="banner-row"] .badge', { hasText: 'Inactive' }).count(), 2);
  await page.getByRole('checkbox', { name: 'Select Spring sale (spring-01.png)' }).uncheck();
  await page.getByRole('checkbox', { name: 'Select Spring sale (spring-02.png)' }).uncheck();
  for (const n of ['10', '11', '12'])
    await page.getByRole('checkbox', { name: `Select Spring sale (spring-${n}.png)` }).check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByText('Delete 3 banners?', { exact: false }).waitFor();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await dismissToast(page, 'Banner(s) deleted successfully');
  await expectText(page.getByTestId('banner-count'), '9 banners');

  await page.locator('#blaze-placement').selectOption({ label: 'Publisher 9 zone 2 (Email, News feed)' });
  await page.getByRole('button', { name: 'Save placement' }).click();
  await dismissToast(page, 'Placements saved successfully');
  const detail = await api(`/api/campaign?campaignId=${id}`, { token });
  assert.equal(detail.body.data.placement, '9-2');
  assert.equal(detail.body.data.banners.length, 9);
  await shot(page, '20-banners');
});

test('tab 8: traffic info, headlines, assets with the counter, lines, submit; then the $1500 rule refuses inactive', async () => {
  const id = await campaign('CPC email push', 'trrcpc');
  // The CPC wallet must hold the minimum (1500) before a submit.
  // Nobody credits their own wallets (docs/decisions/124): the installation's admin funds this one.
  const fund = await api('/api/update-balance', {
    token: await adminToken(),
    body: { userId: user.id, cpc: '2500' },
  });
  assert.equal(fund.status, 200, JSON.stringify(fund.body));
  await page.goto(`${BASE}/basic-info/${id}`);
  await tab('traffic');
  await page.locator('#traffic-offer').selectOption('Keto Burn');
  // trrcpc starts on Email, Display, 300x250 and the spec's budgets.
  assert.equal(await page.locator('#traffic-traffic').inputValue(), 'Email');
  assert.equal(await page.locator('#traffic-daily').inputValue(), '500');
  assert.equal(await page.locator('#traffic-total').inputValue(), '1500');
  assert.equal(await page.locator('#traffic-cpc').inputValue(), '0.75');
  assert.ok(await page.locator('#traffic-size-300x250').isChecked());
  await page.locator('#traffic-size-970x250').check();
  await page.getByRole('button', { name: 'Save traffic info' }).click();
  await dismissToast(page, 'Traffic info saved successfully');

  await page.locator('#headline-0').fill('Burn fat while you sleep');
  await page.locator('#headline-image-0').setInputFiles(images(1, 'headline'));
  await page.getByRole('button', { name: 'Save headlines' }).click();
  await dismissToast(page, 'Traffic headlines saved successfully');

  await expectText(page.getByTestId('asset-counter'), '0 of 200 assets');
  await page.locator('#traffic-assets-input').setInputFiles(images(7, 'asset'));
  await page
    .getByTestId('asset-counter')
    .getByText(/Uploaded [05]\/7/)
    .waitFor();
  await dismissToast(page, 'Asset(s) saved successfully');
  await expectText(page.getByTestId('asset-counter'), '7 of 200 assets');
  assert.equal(await page.getByTestId('asset').count(), 7);

  await page.getByRole('button', { name: 'Add line' }).click();
  await page.locator('#line-id-0').fill('L-100');
  await page.locator('#line-cpm-0').fill('2.50');
  await page.getByRole('button', { name: 'Update lines' }).click();
  await dismissToast(page, 'Lines updated successfully');
  await expectText(page.getByTestId('submit-hint'), 'Ready to submit.');
  await shot(page, '20-traffic-before-submit');

  await page.getByRole('button', { name: 'Submit traffic data' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Submit' }).click();
  await dismissToast(page, 'Traffic data submitted successfully');
  await page.getByTestId('traffic-submitted').waitFor();
  assert.ok(await page.locator('#traffic-offer').isDisabled());
  assert.equal(await page.locator('[data-testid="asset"] input[type="checkbox"]:disabled').count(), 7);
  await shot(page, '20-traffic-submitted');

  // The campaign was submitted today with no spend: the server refuses to set it inactive.
  await tab('basic');
  await page.locator('#basic-active').click();
  await expectAttr(page.locator('#basic-active'), 'aria-checked', 'false');
  await page.locator('.ce-unsaved').waitFor();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await dismissToast(page, 'Cannot set the campaign to inactive before reaching $1500 spend');
  // After the refusal the switch shows what is saved: Active, no unsaved change (issue 27).
  await expectAttr(page.locator('#basic-active'), 'aria-checked', 'true');
  await expectText(page.locator('.ce-header-meta .badge-success'), 'Active');
  assert.equal(await page.locator('.ce-unsaved').count(), 0);
  await page.getByText('All changes saved.').waitFor();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAttr(page.locator('#basic-active'), 'aria-checked', 'true');
  }
  await shot(page, '20-min-spend-refused');
  const detail = await api(`/api/campaign?campaignId=${id}`, { token });
  assert.equal(detail.body.data.active, 1);
  assert.equal(detail.body.data.jeeng_campaign.submitted, 1);
  assert.deepEqual(detail.body.data.jeeng_campaign.uneditable_assets.length, 7);
});

// Issue 25, the tab 8 submit that failed in 39 ms in a full run and never reached the fake: the
// app's workerd pools an idle connection for 5 s and the fakes' workerd server closed idle ones
// after 5 s, so a call about 5 s after the previous one was written on a closing connection
// ("Network connection lost."). The fakes now sit behind a front that keeps idle connections for
// a minute (scripts/fakes-front.mjs, docs/decisions/155): a connection idle past 5 s still
// carries the next request, the submit's multipart POST included.
test('the fakes keep an idle connection past the 5 s of workerd’s pool (the tab 8 submit failure)', async () => {
  const fakes = new URL(process.env.E2E_FAKES_URL);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: fakes.hostname,
          port: fakes.port,
          method,
          path,
          agent,
          headers: body ? { 'content-type': 'application/json' } : {},
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode, text, reused: req.reusedSocket }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let closedByServer = false;
  const first = await ask('GET', '/provider/cpc/status');
  assert.equal(first.status, 200);
  assert.equal(first.reused, false);
  const [socket] = Object.values(agent.freeSockets).flat();
  socket.once('close', () => (closedByServer = true));
  // Longer than workerd's 5 s on both sides; the old rig's server hung up here.
  await new Promise((r) => setTimeout(r, 6500));
  assert.equal(closedByServer, false, 'the fakes closed an idle connection the client still pools');
  const second = await ask('POST', '/__control', JSON.stringify({ key: 'keep-alive-probe', spend: '0' }));
  assert.equal(second.status, 200, second.text);
  assert.equal(second.reused, true);
  agent.destroy();
});
