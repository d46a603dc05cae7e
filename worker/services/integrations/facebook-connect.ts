import type { Env } from '../../env';
import {
  facebookAuthUrl as dialogUrl,
  exchangeCode,
  getCampaign,
  longLivedToken,
  sendTestEvent,
} from '../../integrations/facebook/client';
import { PlatformError } from '../../integrations/http';
import { consumeOAuthState, mintOAuthState } from './oauth-state';

// The Facebook calls a user waits for (docs/decisions/074): the OAuth dialog URL, the code
// exchange when the user comes back from Facebook's login, the campaign lookup of the editor's
// verification and the Conversions API test event. The requests themselves are the Facebook
// client's (worker/integrations/facebook/client.ts), each one request with a timeout and no
// retry (a person is waiting; the queued syncs are the ones that retry with backoff). This file
// adds what the installation decides: the redirect page, the OAuth state (single use, bound to the
// user, expiring: docs/decisions/123), and what counts as found or received.

export { PlatformError };

/** The page Facebook's login sends the user back to, with `code` (or an error). */
const facebookRedirectUri = (origin: string) => `${origin}/integrations`;

const configured = (env: Env) =>
  Boolean(env.FACEBOOK_APP_ID && env.FACEBOOK_DIALOG_URL && env.FACEBOOK_API_URL);

/**
 * The login dialog's URL with a state minted for `userId` (Facebook sends it back unchanged),
 * '' when the installation has no Facebook app configured.
 */
export async function facebookAuthUrl(env: Env, origin: string, userId: number): Promise<string> {
  if (!configured(env)) return '';
  const state = await mintOAuthState(env, userId, 'facebook');
  return dialogUrl(env, facebookRedirectUri(origin), state);
}

/**
 * Exchanges the code of the login dialog for `userId`, after the state that came back with it
 * is used up: a code without this user's live state is never sent to Facebook (400 `stateMessage`).
 * The login's token lasts hours; it is traded at once for a long-lived one (about 60 days) whose
 * expiry is stored, so syncs keep working and the user is warned before it runs out (decision 146).
 */
export async function exchangeFacebookCode(
  env: Env,
  userId: number,
  input: { code: string; state: string },
  origin: string,
  stateMessage: string,
) {
  if (!configured(env)) throw new PlatformError('facebook', 'not_connected', 'Facebook is not configured.');
  await consumeOAuthState(env, userId, 'facebook', input.state, stateMessage);
  const shortLived = await exchangeCode(env, input.code, facebookRedirectUri(origin));
  return longLivedToken(env, shortLived.accessToken);
}

/** The campaign as Facebook knows it, or null when Facebook says there is no such object. */
export async function facebookCampaignExists(env: Env, token: string, fbCampaignId: string) {
  const found = await getCampaign(env, token, fbCampaignId);
  return found && found.id === fbCampaignId ? { name: found.name } : null;
}

/** One test event (Purchase, or the campaign's event name) to the dataset (Conversions API); answers Facebook's count. */
export async function sendFacebookTestEvent(
  env: Env,
  token: string,
  datasetId: string,
  testEventCode: string,
  eventName: string,
) {
  const { eventsReceived } = await sendTestEvent(env, token, datasetId, testEventCode, eventName);
  if (eventsReceived < 1)
    throw new PlatformError('facebook', 'malformed', 'Facebook received no event.', 200);
  return { eventsReceived };
}
