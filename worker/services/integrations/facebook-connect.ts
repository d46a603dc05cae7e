import type { Env } from '../../env';
import {
  facebookAuthUrl as dialogUrl,
  exchangeCode,
  getCampaign,
  sendTestEvent,
} from '../../integrations/facebook/client';
import { PlatformError } from '../../integrations/http';
import { signText } from '../click-ids';

// The Facebook calls a user waits for (docs/decisions/074): the OAuth dialog URL, the code
// exchange when the user comes back from Facebook's login, the campaign lookup of the editor's
// verification and the Conversions API test event. The requests themselves are the Facebook
// client's (worker/integrations/facebook/client.ts), each one request with a timeout and no
// retry (a person is waiting; the queued syncs are the ones that retry with backoff). This file
// adds what the installation decides: the redirect page, the signed state, and what counts as
// found or received.

export { PlatformError };

/** The page Facebook's login sends the user back to, with `code` (or an error). */
export const facebookRedirectUri = (origin: string) => `${origin}/integrations`;

const configured = (env: Env) =>
  Boolean(env.FACEBOOK_APP_ID && env.FACEBOOK_DIALOG_URL && env.FACEBOOK_API_URL);

/** The login dialog's URL, '' when the installation has no Facebook app configured. */
export function facebookAuthUrl(env: Env, origin: string, userId: number): string {
  if (!configured(env)) return '';
  // The state names the user it was made for; Facebook sends it back unchanged.
  const state = `${userId}.${signText(env, `facebook-state:${userId}`)}`;
  return dialogUrl(env, facebookRedirectUri(origin), state);
}

export async function exchangeFacebookCode(env: Env, code: string, origin: string) {
  if (!configured(env)) throw new PlatformError('facebook', 'not_connected', 'Facebook is not configured.');
  return exchangeCode(env, code, facebookRedirectUri(origin));
}

/** The campaign as Facebook knows it, or null when Facebook says there is no such object. */
export async function facebookCampaignExists(env: Env, token: string, fbCampaignId: string) {
  const found = await getCampaign(env, token, fbCampaignId);
  return found && found.id === fbCampaignId ? { name: found.name } : null;
}

/** One Purchase test event to the dataset (Conversions API); answers Facebook's count. */
export async function sendFacebookTestEvent(
  env: Env,
  token: string,
  datasetId: string,
  testEventCode: string,
) {
  const { eventsReceived } = await sendTestEvent(env, token, datasetId, testEventCode);
  if (eventsReceived < 1)
    throw new PlatformError('facebook', 'malformed', 'Facebook received no event.', 200);
  return { eventsReceived };
}
