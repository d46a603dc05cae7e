// The campaign editor (spec 2 §2-§9): a multiple-path campaign built through the screens
// (basic tab, paths, landing pages, offers), its tracking link from the Links and pixels tab
// routing a browser navigation to one of its landing pages, the landing CSV upload, tokens and
// templates, optimisation, the option prerequisite and the duplicate participant warning.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, BASE } from './support/api.mjs';
import { browserForFile, signedInPage } from './support/browser.mjs';
import { dismissToast, expectText, expectToast } from './support/expect.mjs';
import { shot } from './support/screen.mjs';
import { navigate, onBase } from './support/tracking.mjs';

const suite = browserForFile();

async function signIn() {
  return signedInPage(suite.browser, { permissions: ['clipboard-read', 'clipboard-write'] });
}

/** A full-page screenshot from the top of the page (the header is fixed). */
async function pageShot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await shot(page, name);
}

async function tab(page, key) {
  await page.locator(`[data-testid="tab-${key}"]`).click();
  await page.locator(`[data-testid="tab-${key}"][aria-selected="true"]`).waitFor();
}

const rowNames = (page, kind) =>
  page.locator(`[data-testid="${kind}-row"]`).evaluateAll((rows) => rows.map((r) => r.dataset.name));

test('a multiple-path campaign built in the editor routes its tracking link to a landing page', {
  timeout: 90_000,
}, async () => {
  const { context, page } = await signIn();
  await page.goto(`${BASE}/basic-info`);

  // A new campaign: 'New Campaign #' + 4 characters, URL token built from the name.
  const name = page.locator('#basic-name');
  assert.match(await name.inputValue(), /^New Campaign #[A-Za-z0-9]{4}$/);
  const suffix = (await name.inputValue()).slice(-4).toUpperCase();
  assert.equal(await page.locator('#basic-urlAppendToken').inputValue(), `keyword_NEW_CAMPAIGN_${suffix}`);
  await pageShot(page, 'editor-basic-new');

  const stamp = Date.now().toString(36);
  await name.fill(`Summer quiz ${stamp}`);
  assert.equal(
    await page.locator('#basic-urlAppendToken').inputValue(),
    `keyword_SUMMER_QUIZ_${stamp.toUpperCase()}`,
  );
  await page.locator('#basic-campaignType').selectOption('multiple_path_type');
  await page.locator('[data-testid="tab-paths"]').waitFor();

  // Source effects: affiliate mentorship shows the partner note and clears the source;
  // Facebook asks to apply its defaults; the affiliate network rewrites the URL token, keyword
  // and click id parameters (spec 2 §4).
  await page.locator('#basic-trafficSource').selectOption('mediago');
  await page.locator('#basic-offerPromotion').selectOption('affiliate-mentorship');
  await page.locator('#mentorship-note').waitFor();
  assert.equal(await page.locator('#basic-trafficSource').inputValue(), '');
  await page.locator('#basic-offerPromotion').selectOption('other');
  await page.locator('#basic-trafficSource').selectOption('facebook');
  await page.getByRole('button', { name: 'Apply defaults' }).click();
  assert.equal(await page.locator('#basic-urlAppendToken').inputValue(), 'ad_id');
  await page.locator('[data-testid="campaign-save"]').click();
  await dismissToast(
    page,
    'Please verify the facebook campaign first before saving. Facebook campaign ID must be valid.',
  );
  if ((await page.locator('[data-testid="advanced-toggle"]').getAttribute('aria-expanded')) !== 'true') {
    await page.locator('[data-testid="advanced-toggle"]').click();
  }
  const networkFields = () =>
    Promise.all(
      ['urlAppendToken', 'keywordParameter', 'lpTargetParam', 'opTargetParam'].map((field) =>
        page.locator(`#basic-${field}`).inputValue(),
      ),
    );
  await page.locator('#basic-affiliate_network').selectOption('sellhealth');
  await expectText(page.locator('#basic-affiliate_network-hint'), 'Offers receive the click id as t1.');
  assert.deepEqual(await networkFields(), ['t1', 't1', 't1', 't1']);
  await page.locator('#basic-affiliate_network').selectOption('mediamaven');
  await expectText(page.locator('#basic-affiliate_network-hint'), 'Offers receive the click id as subid.');
  assert.deepEqual(await networkFields(), ['subid', 'subid', 'subid', 'subid']);
  await page.locator('#basic-affiliate_network').selectOption('clickbank');
  await expectText(page.locator('#basic-affiliate_network-hint'), 'Offers receive the click id as tid.');
  assert.deepEqual(await networkFields(), ['tid', 'tid', 'tid', 'tid']);
  await page.locator('#basic-trafficSource').selectOption('taboola');
  await page.getByRole('button', { name: 'Apply defaults' }).click();
  assert.equal(await page.locator('#basic-urlAppendToken').inputValue(), 'campaign_item_id');

  // Moving off the basic tab saves the new campaign and puts its id in the URL.
  await tab(page, 'landing');
  await dismissToast(page, 'Campaign Added Successfully.');
  await page.waitForURL(/\/basic-info\/\d+\?tab=landing$/);
  const campaignId = Number(new URL(page.url()).pathname.split('/').pop());
  await expectText(
    page.locator('.ce-prerequisite .alert'),
    'Multiple path campaign type requires at least one path to add landing and offer pages.',
  );
  await pageShot(page, 'editor-landing-prerequisite');
  await page.getByRole('button', { name: 'Add a path' }).click();
  await page.locator('[data-testid="tab-paths"][aria-selected="true"]').waitFor();

  for (const [pathName, share] of [
    ['Quiz path', '60'],
    ['Video path', '40'],
  ]) {
    await page.locator('[data-testid="path-add"]').click();
    await page.locator('#path-form-name').fill(pathName);
    await page.locator('#path-form-share').fill(share);
    await page.locator('#path-form-share').press('Enter');
    await dismissToast(page, 'Path is successfully added/updated.');
  }
  await page.locator('[data-testid="path-row"]').nth(1).waitFor();
  assert.deepEqual(await rowNames(page, 'path'), ['Quiz path', 'Video path']);
  await expectText(page.locator('[data-testid="path-row"]').first().locator('td').nth(4), '60.0%');
  await pageShot(page, 'editor-paths');

  await tab(page, 'landing');
  for (const [lpName, path] of [
    ['Quiz lander', 'Quiz path'],
    ['Video lander', 'Video path'],
  ]) {
    await page.locator('[data-testid="landing-add"]').click();
    await page.locator('#landing-form-name').fill(lpName);
    await page.locator('#landing-form-url').fill(`https://lp.example/${lpName.split(' ')[0].toLowerCase()}`);
    await page.locator('#landing-form-pathId').selectOption({ label: path });
    await page.locator('[data-testid="landing-form-agents-desktop"]').check();
    await page.locator('[data-testid="landing-form-submit"]').click();
    await dismissToast(page, 'Landing Page is successfully added/updated.');
  }
  await page.locator('[data-testid="landing-row"]').nth(1).waitFor();
  assert.deepEqual(await rowNames(page, 'landing'), ['Quiz lander', 'Video lander']);
  await expectText(page.locator('[data-testid="landing-row"]').first().locator('td').nth(3), 'Desktop');

  await tab(page, 'offer');
  for (const [offerName, path, payout] of [
    ['Quiz offer', 'Quiz path', '12.5'],
    ['Video offer', 'Video path', '30'],
  ]) {
    await page.locator('[data-testid="offer-add"]').click();
    await page.locator('#offer-form-name').fill(offerName);
    await page.locator('#offer-form-url').fill('https://offer.example/buy');
    await page.locator('#offer-form-payout').fill(payout);
    await page.locator('#offer-form-pathId').selectOption({ label: path });
    await page.locator('#offer-form-payout').press('Enter');
    await dismissToast(page, 'Offer page is successfully added/updated.');
  }
  await page.locator('[data-testid="offer-row"]').nth(1).waitFor();
  await expectText(page.locator('[data-testid="offer-row"]').first().locator('td').nth(4), '$12.50');
  await pageShot(page, 'editor-offers');

  // Links and pixels: the campaign URL, copied; then opened as a browser navigation.
  await tab(page, 'links');
  const campaignUrl = await page.locator('#link-campaign-url').inputValue();
  // Taboola's macro fills the URL token: never an empty value (issue 27).
  assert.match(campaignUrl, new RegExp(`/go/${campaignId}\\?campaign_item_id=\\{campaign_item_id\\}$`));
  await page.locator('[data-testid="link-campaign-url-copy"]').click();
  await dismissToast(page, 'Copied to Clipboard.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), campaignUrl);
  assert.match(await page.locator('#link-postback').inputValue(), /\/postback\?clickid=\{clickid\}/);
  await pageShot(page, 'editor-links');

  const landing = await navigate(`${onBase(campaignUrl)}ad-123`);
  assert.ok(
    ['https://lp.example/quiz', 'https://lp.example/video'].includes(`${landing.origin}${landing.pathname}`),
    `redirected to ${landing}`,
  );

  // Landing pages from a CSV file, paths by name.
  await tab(page, 'landing');
  await page.getByRole('button', { name: 'Upload CSV' }).first().click();
  await page.locator('[data-testid="landing-csv-input"]').setInputFiles({
    name: 'landers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'name,url,share,path\nCSV lander one,https://csv.example/1,50,Quiz path\nCSV lander two,https://csv.example/2,50,Video path\n',
    ),
  });
  await page.locator('[data-testid="landing-csv-overwrite"]').waitFor();
  await shot(page, 'editor-landing-csv');
  await page.locator('[data-testid="landing-csv-submit"]').click();
  await dismissToast(page, 'Landing pages data have been uploaded.');
  await page.locator('[data-testid="landing-row"][data-name="CSV lander two"]').waitFor();
  assert.deepEqual(await rowNames(page, 'landing'), [
    'Quiz lander',
    'Video lander',
    'CSV lander one',
    'CSV lander two',
  ]);

  // Delete with confirmation, then undo from the toast.
  await page.getByRole('button', { name: 'Delete CSV lander two' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  const deleted = await expectToast(page, 'Landing pages deleted.');
  await page
    .locator('[data-testid="landing-row"][data-name="CSV lander two"]')
    .waitFor({ state: 'detached' });
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await dismissToast(page, 'Landing pages restored.');
  await page.locator('[data-testid="landing-row"][data-name="CSV lander two"]').waitFor();
  await page.getByRole('button', { name: 'Delete CSV lander one' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await dismissToast(page, 'Landing pages deleted.');
  await page.locator('#landing-show-deleted').click();
  await page.locator('[data-testid="landing-row"][data-name="CSV lander one"].ce-row-deleted').waitFor();
  await pageShot(page, 'editor-landings-deleted');
  await page
    .getByRole('row', { name: /CSV lander one/ })
    .getByRole('button', { name: 'Restore' })
    .click();
  await dismissToast(page, 'Landing pages restored.');
  await page.locator('#landing-show-deleted').click();
  await page.locator('#landing-show-deleted[aria-checked="false"]').waitFor();

  // Select all, then export: the browser goes to the signed link and downloads the ZIP.
  await page.getByRole('checkbox', { name: 'Select all landing pages' }).check();
  await expectText(page.locator('[data-testid="landing-selected-count"]'), '4 selected');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  assert.match(
    download.suggestedFilename(),
    new RegExp(`^campaign-${campaignId}-summer-quiz-.*-landing-pages\\.zip$`),
  );
  await dismissToast(page, 'Exported Successfully');
  await page.getByRole('checkbox', { name: 'Select all landing pages' }).uncheck();

  // Landing-page optimisation: the metric is required before auto-optimise turns on.
  await page.locator('#optimization-auto').click();
  await expectText(page.locator('#optimization-metric-error'), 'Select an optimization metric.');
  await page.locator('#optimization-metric').selectOption('cr');
  await page.locator('#optimization-auto').click();
  await dismissToast(page, 'Landing pages auto optimization is on.');
  assert.equal(await page.locator('#optimization-auto').getAttribute('aria-checked'), 'true');
  assert.equal(await page.locator('#optimization-minVisits').inputValue(), '10');
  await page.locator('#optimization-goal').selectOption('lp_ctr');
  await dismissToast(page, 'Landings pages optimization goal set to lp_ctr');
  await page.locator('[data-testid="landing-row"]').first().hover();
  await pageShot(page, 'editor-landings');

  // Tokens: a template is required; applying adds the source's tokens, removing takes them away.
  await tab(page, 'basic');
  await page.getByRole('button', { name: 'Apply template' }).click();
  await dismissToast(page, 'Please select a template!');
  await page.locator('#token-template').selectOption('taboola');
  await page.getByRole('button', { name: 'Apply template' }).click();
  await dismissToast(page, 'Token templates applied!');
  await page.locator('[data-testid="token-row"]').nth(6).waitFor();
  assert.equal(await page.locator('[data-testid="token-row"]').count(), 7);
  if ((await page.locator('[data-testid="advanced-toggle"]').getAttribute('aria-expanded')) !== 'true') {
    await page.locator('[data-testid="advanced-toggle"]').click();
  }
  assert.equal(await page.evaluate(() => localStorage.getItem('basicInfoAdvancedOpen')), '1');
  await pageShot(page, 'editor-basic');
  await page.getByRole('button', { name: 'Remove template tokens' }).click();
  await dismissToast(page, 'Tokens removed!');
  assert.equal(await page.locator('[data-testid="token-row"]').count(), 0);

  // The basic tab's rules block saving and moving on, with the spec's messages at the fields;
  // a message about an advanced field opens that section.
  await page.locator('#basic-li_custom_name_enabled').click();
  await page.locator('[data-testid="advanced-toggle"]').click();
  await page.locator('[data-testid="campaign-save"]').click();
  await expectText(
    page.locator('#basic-li_conversion_image_pixel-error'),
    'Conversion image pixel name is required.',
  );
  await dismissToast(page, 'Conversion image pixel name is required.');
  await page.locator('#basic-li_conversion_image_pixel').fill('purchase,upsell');
  await page.locator('#basic-name').fill('  ');
  await page.locator('[data-testid="tab-offer"]').click();
  await expectText(page.locator('#basic-name-error'), 'Campaign name is required.');
  await dismissToast(page, 'Campaign name is required.');
  assert.equal(await page.locator('[data-testid="tab-basic"]').getAttribute('aria-selected'), 'true');
  await page.locator('#basic-name').fill(`Summer quiz ${stamp}`);
  await page.locator('#basic-name').press('Enter');
  await dismissToast(page, 'Campaign Updated Successfully.');
  await page.getByText('All changes saved.').waitFor();

  const token = await adminToken();
  const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token });
  assert.equal(detail.body.data.campaignType, 'multiple_path_type');
  assert.equal(detail.body.data.trafficSource, 'taboola');
  assert.equal(detail.body.data.affiliate_network, 'clickbank');
  assert.equal(detail.body.data.opTargetParam, 'tid');
  assert.equal(detail.body.data.lpTargetParam, 'tid');
  assert.equal(detail.body.data.keywordParameter, 'tid');
  assert.equal(detail.body.data.urlAppendToken, 'campaign_item_id');
  assert.equal(detail.body.data.landing_pages_auto_optimized, 1);
  assert.equal(detail.body.data.landing_pages_optimization_goal, 'lp_ctr');
  assert.equal(detail.body.data.li_custom_name_enabled, 1);
  assert.equal(detail.body.data.li_conversion_image_pixel, 'purchase,upsell');
  assert.equal(detail.body.data.name, `Summer quiz ${stamp}`);
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});

test('option campaigns need an option first; rotator offers warn about a duplicate participant', {
  timeout: 60_000,
}, async () => {
  const token = await adminToken();
  const made = await api('/api/add-campaign', {
    token,
    body: { name: 'Options e2e', campaignType: 'multiple_option_type', trafficSource: 'blaze' },
  });
  const optionCampaign = made.body.data.campaign.campaignData.campaignId;
  const { context, page } = await signIn();
  await page.goto(`${BASE}/basic-info/${optionCampaign}?tab=offer`);
  await expectText(
    page.locator('.ce-prerequisite .alert'),
    'Multiple options campaign type requires at least one option to add offer pages.',
  );
  await page.getByRole('button', { name: 'Add an option' }).click();
  await page.locator('[data-testid="option-add"]').click();
  await page.locator('#option-form-name').fill('Gold package');
  await page.locator('#option-form-name').press('Enter');
  await dismissToast(page, 'Option is successfully added/updated.');
  await page.locator('[data-testid="option-row"][data-name="Gold package"]').waitFor();
  await pageShot(page, 'editor-options');
  await tab(page, 'banners');
  // Tab 7 of a Blaze campaign lists its banners (e2e 20 drives the uploads).
  await page.getByText('No banners yet').waitFor();
  await pageShot(page, 'editor-banners-empty');

  const rotator = await api('/api/add-campaign', {
    token,
    body: { name: 'Rotator e2e', campaignType: 'rotator' },
  });
  const rotatorId = rotator.body.data.campaign.campaignData.campaignId;
  await api('/api/add-offer', {
    token,
    body: {
      campaignId: rotatorId,
      name: 'Anna',
      url: 'https://offer.example/anna',
      rotator_participant_email: 'anna@example.com',
    },
  });
  await page.goto(`${BASE}/basic-info/${rotatorId}?tab=offer`);
  // The warning compares with the offers on screen: wait for them.
  await page.locator('[data-testid="offer-row"][data-name="Anna"]').waitFor();
  await page.locator('[data-testid="offer-add"]').click();
  await page.locator('#offer-form-name').fill('Anna again');
  await page.locator('#offer-form-url').fill('https://offer.example/anna2');
  await page.locator('#offer-form-rotator_participant_email').fill('Anna@example.com');
  await page.locator('[data-testid="offer-form-submit"]').click();
  await page.locator('[data-testid="duplicate-email-warning"]').waitFor();
  await pageShot(page, 'editor-offer-duplicate-warning');
  await page.locator('[data-testid="offer-form-submit"]').click();
  await dismissToast(page, 'Offer page is successfully added/updated.');
  assert.deepEqual(await rowNames(page, 'offer'), ['Anna', 'Anna again']);
  assert.deepEqual(page.pageErrors, []);
  await context.close();
});
