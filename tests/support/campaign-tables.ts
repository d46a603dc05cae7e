// The tables of a campaign and its routing items, parents first: what a campaign with a path, an
// option, a landing page, an offer and an extra token fills. The installation export test and the
// records clean-up test each check all of them (and the traffic tables they name themselves).
export const CAMPAIGN_TREE_TABLES = [
  'campaigns',
  'paths',
  'options',
  'landing_pages',
  'offer_pages',
  'extra_tokens',
];
