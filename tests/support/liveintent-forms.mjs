// The forms of /api/manage-liveintent (schema/liveintent-api.ts) as the tests send them: the
// Vitest files and the browser tests build a platform campaign and its line items here, each
// overriding only what its case is about. Plain JavaScript, so that both can import it.

/** A platform campaign of the tracker's campaign `campaignId`: impressions, 10 to 20 January 2027. */
export const liCampaignForm = (campaignId, over = {}) => ({
  campaignId,
  strategyType: 'deliver_impression',
  category: 1,
  startDate: '2027-01-10 00:00:00',
  endDate: '2027-01-20 23:59:00',
  bidAmount: 1,
  name: 'Spring sale',
  ...over,
});

/** A paused line item of the platform campaign `liCampaignId` inside its dates, $25 a day, no targeting. */
export const liLineItemForm = (campaignId, liCampaignId, over = {}) => ({
  campaignId,
  liCampaignId,
  name: 'Morning line',
  status: 'paused',
  startDate: '2027-01-11 00:00:00',
  endDate: '2027-01-19 23:59:00',
  dailyCap: 0,
  dailyBudget: 25,
  dataProviderSegments: [],
  ageTargetType: 'include',
  ageTarget: [],
  genderTargetType: 'include',
  genderTarget: [],
  ...over,
});
