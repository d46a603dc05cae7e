// Issue 13 item 5 in Chromium against the LiveIntent fake: the statistics screen's creative switch.
// A creative in two line items opens the line-item modal, where it is linked to the second and
// unlinked from both; its row is pink while its line item is paused; a target that is no creative
// of the campaign answers 'No Lineitems Found' and its switch does not move.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { liCampaignForm, liLineItemForm } from '../support/liveintent-forms.mjs';
import { addOffer, api, BASE, liveIntentAdmin, newCampaign, targetTotals } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectAttr, expectText, until } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, trackingLinks, UA } from './support/tracking.mjs';

const suite = browserForFile();
let page;
let token;
let campaignId;
let adRef;
const lineItems = [];

const PNG = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='}`;
const UAS = [UA.chromeWindows, UA.iphone];

async function ok(path, body, status = 201) {
  const res = await api(`/api/manage-liveintent/${path}`, { token, body });
  assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const closeToast = (text) => dismissToast(page, text);

// The platform campaign and its line items run in January 2030.
const lineItem = (liCampaignId, name) =>
  liLineItemForm(campaignId, liCampaignId, {
    name,
    startDate: '2030-01-11 00:00:00',
    endDate: '2030-01-19 23:59:00',
  });

suite.setUp(async () => {
  const user = await liveIntentAdmin();
  token = user.token;
  campaignId = await newCampaign(token, {
    name: 'Native creatives',
    trafficSource: 'liveintent',
    campaignType: 'direct_link',
    cpc: '0.30',
  });
  await addOffer(token, { campaignId, payout: '20' });

  // On the platform: a campaign, two paused line items and one ad in the first.
  const li = await ok(
    'create-campaign',
    liCampaignForm(campaignId, {
      startDate: '2030-01-10 00:00:00',
      endDate: '2030-01-20 23:59:00',
      name: 'Creative switch',
    }),
  );
  for (const name of ['Morning line', 'Evening line'])
    lineItems.push((await ok('create-lineitem', lineItem(li.liCampaign.li_refid, name))).lineItem.li_refid);
  const ad = await ok('create-ad', {
    campaignId,
    lineitem_ref_id: lineItems[0],
    adName: 'Hero',
    clickUrl: 'https://track.example/c',
    mediaUrl: PNG,
    width: 300,
    height: 250,
  });
  adRef = ad.ad.li_refid;

  // Visits: four from the ad's creative, two from a target that is no creative of the campaign.
  const { campaignUrl } = await trackingLinks(token, campaignId);
  const targets = [adRef, adRef, adRef, adRef, 'newsletter-top', 'newsletter-top'];
  for (const [i, target] of targets.entries())
    await navigate(`${campaignUrl}${target}`, { userAgent: UAS[i % 2] });

  await visitCounted(campaignId, targets.length);
  ({ page } = await signedInPage(suite.browser, { user, viewport: { width: 1366, height: 900 } }));
});

/** Waits until the ingest counted the campaign's visits (the queue consumer runs apart). */
async function visitCounted(id, visits) {
  await until(
    async () => {
      const totals = await targetTotals(token, id);
      return totals.visitsTotal >= visits;
    },
    `${visits} visits were not counted`,
    { timeout: 30_000, every: 500 },
  );
}

const creativeSwitch = () => page.getByTestId(`creative-switch-${adRef}`);
const adRow = () => page.getByTestId('target-table').locator('tbody tr', { has: creativeSwitch() });

test('a creative in two paused line items shows a pink row and opens the line-item modal', async () => {
  await page.goto(`${BASE}/stats/${campaignId}`);
  await creativeSwitch().waitFor({ timeout: 30_000 });
  await expectAttr(creativeSwitch(), 'aria-checked', 'true');
  // Its line item is paused: the row is pink (#fbdbe1), the other target's row is not.
  await expectAttr(adRow(), 'class', 'row-alert');
  const background = await adRow()
    .locator('td')
    .first()
    .evaluate((td) => getComputedStyle(td).backgroundColor);
  assert.equal(background, 'rgb(251, 219, 225)');
  const other = page
    .getByTestId('target-table')
    .locator('tbody tr', { has: page.getByTestId('creative-switch-newsletter-top') });
  assert.equal(await other.getAttribute('class'), null);
  await page.getByTestId('target-table').screenshot({
    path: new URL('./screenshots/23-creative-targets.png', import.meta.url).pathname,
  });

  await creativeSwitch().click();
  const modal = page.getByRole('dialog', { name: `Line items of creative ${adRef}` });
  await modal.waitFor();
  const rows = modal.locator('tbody tr');
  assert.deepEqual(await rows.locator('.cell-strong').allTextContents(), ['Evening line', 'Morning line']);
  const evening = modal.getByTestId(`line-item-switch-${lineItems[1]}`);
  const morning = modal.getByTestId(`line-item-switch-${lineItems[0]}`);
  await expectAttr(evening, 'aria-checked', 'false');
  await expectAttr(morning, 'aria-checked', 'true');
  await expectText(rows.first().locator('.badge'), 'Paused');

  await evening.click();
  await closeToast('Ad status changed successfully');
  await expectAttr(evening, 'aria-checked', 'true');
  await shot(page, '23-creative-line-items');
});

test('unlinked from both line items, the creative row shows Inactive', async () => {
  const modal = page.getByRole('dialog', { name: `Line items of creative ${adRef}` });
  for (const refId of lineItems) {
    const sw = modal.getByTestId(`line-item-switch-${refId}`);
    await sw.click();
    await closeToast('Ad status changed successfully');
    await expectAttr(sw, 'aria-checked', 'false');
  }
  // Esc closes the modal (the keyboard's way out), and the row shows what the platform holds.
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'hidden' });
  await expectAttr(creativeSwitch(), 'aria-checked', 'false');
  await expectText(creativeSwitch().locator('.status-switch-label'), 'Inactive');
  // What the platform now holds, asked afresh.
  const fresh = await api('/api/stats/creative-statuses', { token, body: { campaignId, targets: [adRef] } });
  assert.deepEqual(
    fresh.body.data.creatives[0].lineitem_statuses.map((l) => [l.name, l.linked]),
    [
      ['Evening line', false],
      ['Morning line', false],
    ],
  );
});

test("a target that is no creative of the campaign answers 'No Lineitems Found' and does not move", async () => {
  const sw = page.getByTestId('creative-switch-newsletter-top');
  await expectAttr(sw, 'aria-checked', 'false');
  await sw.click();
  await closeToast('No Lineitems Found');
  await expectAttr(sw, 'aria-checked', 'false');
  assert.equal(await page.getByRole('dialog').count(), 0);
  await page.evaluate(() => document.querySelector('#targets')?.scrollIntoView());
  await shot(page, '23-creative-status-rows');
});

test('a creative in one line item asks first: cancel leaves it Active, yes switches it off', async () => {
  const id = await newCampaign(token, {
    name: 'Native single line',
    trafficSource: 'liveintent',
    campaignType: 'direct_link',
    cpc: '0.30',
  });
  await addOffer(token, { campaignId: id, payout: '20' });
  const li = (
    await api('/api/manage-liveintent/create-campaign', {
      token,
      body: {
        campaignId: id,
        strategyType: 'deliver_impression',
        category: 1,
        startDate: '2030-01-10 00:00:00',
        endDate: '2030-01-20 23:59:00',
        bidAmount: 1,
        name: 'Single line',
      },
    })
  ).body.data.liCampaign.li_refid;
  const line = (
    await api('/api/manage-liveintent/create-lineitem', {
      token,
      body: { ...lineItem(li, 'Only line'), campaignId: id },
    })
  ).body.data.lineItem.li_refid;
  const ad = (
    await api('/api/manage-liveintent/create-ad', {
      token,
      body: {
        campaignId: id,
        lineitem_ref_id: line,
        adName: 'Solo',
        clickUrl: 'https://track.example/c',
        mediaUrl: PNG,
        width: 300,
        height: 250,
      },
    })
  ).body.data.ad.li_refid;
  const { campaignUrl } = await trackingLinks(token, id);
  await navigate(`${campaignUrl}${ad}`, { userAgent: UAS[0] });

  const seen = await api('/api/stats/creative-statuses', { token, body: { campaignId: id, targets: [ad] } });
  assert.equal(seen.body.data.creatives[0]?.creative_status, true, JSON.stringify(seen.body));
  await visitCounted(id, 1);
  await page.goto(`${BASE}/stats/${id}`);
  const sw = page.getByTestId(`creative-switch-${ad}`);
  await sw.waitFor({ timeout: 30_000 });
  await expectAttr(sw, 'aria-checked', 'true');
  await sw.click();
  const ask = page.getByRole('alertdialog', { name: 'Are you sure?' });
  await ask.waitFor();
  await expectText(
    ask.locator('.modal-body'),
    `Deactivate creative ${ad}? It stops running in its line item.`,
  );
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'hidden' });
  await expectAttr(sw, 'aria-checked', 'true');

  await sw.click();
  await ask.getByRole('button', { name: 'Yes, deactivate it' }).click();
  await closeToast('Ad status changed successfully');
  await expectAttr(sw, 'aria-checked', 'false');
});
