import {
  TOOLS_MESSAGES as M,
  type TestPostbackAnswer,
  type TestPostbackInput,
} from '../../../schema/tools-api';
import type { Env } from '../../env';
import type { AuthUser } from '../../lib/auth';
import { fieldError } from '../../lib/errors';
// From the modules themselves, not the barrel: tracking/ reaches this file, and the barrel's
// save path reaches a platform client (tests/integration/platform-isolation.test.ts).
import { campaignForUser } from '../campaigns/access';
import { trackingOrigin } from '../campaigns/tracking-origin';
import { getSettings } from '../settings/settings';
import { parseTestClickId } from './test-click-ids';
import { duplicateRule, testConversionById, trafficSourcePostback } from './test-clicks';

// The postback tester: a conversion of a test click sent through the real postback route, as a
// network would send it, then what that route did. The route is handed in (worker/tracking is
// not for services to import); the API passes the tracking handler itself.

export const TEST_RESULT_HEADER = 'x-tracker-test';
export const TEST_CONVERSION_HEADER = 'x-tracker-test-conversion';

const trim = (route: string) => route.replace(/^\/+|\/+$/g, '');

export async function testPostback(
  env: Env,
  user: AuthUser,
  input: TestPostbackInput,
  requestOrigin: string,
  postbackRoute: (request: Request) => Promise<Response | null>,
  fetcher: typeof fetch = fetch,
): Promise<TestPostbackAnswer> {
  const click = parseTestClickId(env, input.clickId);
  if (!click) throw fieldError('clickId', M.clickIdNotTest);
  await campaignForUser(env, user, click.campaignId, { allowDeleted: true });
  const settings = await getSettings(env);
  const query = new URLSearchParams({ clickid: click.clickId });
  if (input.payout) query.set('payout', input.payout);
  if (input.txid) query.set('txid', input.txid);
  if (input.event) query.set('event', input.event);
  const url = `${trackingOrigin(settings, requestOrigin)}/${trim(settings.route_postback)}?${query.toString()}`;
  const response = await postbackRoute(
    new Request(url, { method: 'GET', headers: { 'user-agent': 'EdgeTracker-PostbackTester/1.0' } }),
  );
  if (!response) throw new Error('the postback route did not answer');
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const result = response.headers.get(TEST_RESULT_HEADER);
  const conversionId = Number(response.headers.get(TEST_CONVERSION_HEADER) ?? 0);
  const conversion =
    response.status === 200 && conversionId ? await testConversionById(env, conversionId) : null;
  const refused = response.status !== 200 || !conversion;
  const duplicate = result === 'duplicate';
  const message =
    (body as { message?: string; data?: { message?: string } })?.message ??
    (body as { data?: { message?: string } })?.data?.message ??
    `HTTP ${response.status}`;
  const postback = conversion
    ? await trafficSourcePostback(env, conversion, duplicate, input.send === 1, fetcher)
    : null;
  return {
    request: { method: 'GET', url },
    response: { status: response.status, body },
    outcome: refused ? 'refused' : duplicate ? 'duplicate' : 'accepted',
    message: duplicate ? `${message} Counted once: this one is a duplicate and is ignored.` : message,
    duplicateRule: conversion
      ? duplicateRule(conversion.clickId, conversion.transactionId, conversion.event)
      : null,
    conversion: conversion && input.send === 1 ? await testConversionById(env, conversion.id) : conversion,
    trafficSourcePostback: postback,
  };
}
