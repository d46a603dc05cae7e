// Tracking traffic as the tests send it: a campaign's links on the test server, a visit as a
// browser's navigation and the network's postback.
import assert from 'node:assert/strict';
import { api, BASE } from './api.mjs';

/**
 * A campaign link with its target (first) parameter emptied, so that a test can append its own ad
 * id: the product fills it with the source's macro or REPLACE_WITH_AD_ID (issue 27, decision 130).
 * `trackingLinks` answers the campaign link this way; a file that reads a link itself uses this.
 * @public
 */
export const emptyTarget = (url) => url.replace(/\?([^=&]+)=[^&]*/, '?$1=');

/** The browsers the tests visit as: a desktop Chrome on Windows and Safari on an iPhone. */
export const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};
/** The headers of a browser's navigation (a tracking link opened in a tab), a desktop Chrome unless `userAgent`. */
const navigation = (userAgent = UA.chromeWindows) => ({
  'user-agent': userAgent,
  'sec-fetch-mode': 'navigate',
  accept: 'text/html',
});

/**
 * A tracking request as a browser's navigation (`userAgent`, more `headers`), not following the
 * redirect: asserts the 302 and answers where it sends the visitor (its `clickid` is the click's).
 */
export async function navigate(url, { userAgent, headers } = {}) {
  const res = await fetch(url, { headers: { ...navigation(userAgent), ...headers }, redirect: 'manual' });
  await res.arrayBuffer();
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location'));
}

/** The network's postback for a click (`query`: more parameters, each with its `&`), with the campaign's secret. */
export async function postback(clickId, secret, query = '') {
  const res = await fetch(new URL(`/postback?clickid=${clickId}${query}&secret=${secret}`, BASE));
  assert.equal(res.status, 200, await res.text());
}

/** A link the product shows (on the installation's base URL), on the test server instead. */
export const onBase = (link) => {
  const u = new URL(link);
  return new URL(`${u.pathname}${u.search}`, BASE).toString();
};

/**
 * A campaign's tracking links as the editor shows them, on the test server: `campaignUrl` with its
 * target emptied (append an ad id), `clickUrl` (the landing page's click-through link, where there is one), the
 * postback `secret`, and every link as answered (`links`).
 */
export async function trackingLinks(token, campaignId) {
  const detail = await api(`/api/campaign?campaignId=${campaignId}`, { token });
  assert.equal(detail.status, 200, JSON.stringify(detail.body));
  const links = detail.body.data.linkpixel;
  return {
    links,
    campaignUrl: onBase(emptyTarget(links.campaignURL)),
    clickUrl: links.lpofferlink_simple && onBase(links.lpofferlink_simple),
    secret: new URL(links.postback).searchParams.get('secret'),
  };
}

/**
 * One visit per target through the campaign's link (the target appended as its ad id), each as a
 * desktop Chrome's navigation; answers the visits' click ids.
 */
export async function visitTargets(token, campaignId, targets) {
  const { campaignUrl } = await trackingLinks(token, campaignId);
  const clickIds = [];
  for (const target of targets) {
    clickIds.push((await navigate(`${campaignUrl}${target}`)).searchParams.get('clickid'));
  }
  return clickIds;
}
