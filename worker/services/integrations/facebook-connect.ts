import type { Env } from '../../env';
import {
  isObject,
  kindOfStatus,
  PlatformError,
  platformRequest,
  retryAfterSeconds,
} from '../../integrations/http';
import { signText } from '../click-ids';

// The Facebook calls a user waits for (docs/decisions/074), over the platform clients' one HTTP
// layer (worker/integrations/http.ts): the OAuth dialog URL, the code
// exchange when the user comes back from Facebook's login, the campaign lookup of the editor's
// verification and the Conversions API test event. Each is one request with a timeout and no
// retry (a person is waiting; the queued syncs are the ones that retry with backoff).

export { PlatformError };

export const FACEBOOK_SCOPES = ['ads_read', 'ads_management', 'business_management'];

/** The page Facebook's login sends the user back to, with `code` (or an error). */
export const facebookRedirectUri = (origin: string) => `${origin}/integrations`;

/** One Graph API request; Facebook's error object ({message, code, fbtrace_id}) becomes a PlatformError. */
async function call(env: Env, url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const answer = await platformRequest(env, 'facebook', url, init);
  const body = isObject(answer.body) ? answer.body : {};
  const error = isObject(body.error) ? body.error : null;
  if (answer.status >= 400 || error) {
    const code = typeof error?.code === 'number' ? error.code : null;
    // Code 190 is an invalid or expired token, whatever the status says.
    const kind = code === 190 ? 'auth' : kindOfStatus(answer.status >= 400 ? answer.status : 400);
    throw new PlatformError(
      'facebook',
      kind,
      typeof error?.message === 'string' ? error.message : `Facebook answered ${answer.status}.`,
      answer.status,
      retryAfterSeconds(answer.headers.get('retry-after')),
      code,
      typeof error?.fbtrace_id === 'string' ? error.fbtrace_id : null,
    );
  }
  if (!isObject(answer.body)) {
    throw new PlatformError(
      'facebook',
      'malformed',
      'Facebook sent an answer that could not be read.',
      answer.status,
    );
  }
  return body;
}

const apiBase = (env: Env) => (env.FACEBOOK_API_URL ?? '').replace(/\/+$/, '');

/** The login dialog's URL, '' when the installation has no Facebook app configured. */
export function facebookAuthUrl(env: Env, origin: string, userId: number): string {
  if (!env.FACEBOOK_APP_ID || !env.FACEBOOK_DIALOG_URL || !env.FACEBOOK_API_URL) return '';
  const url = new URL(env.FACEBOOK_DIALOG_URL);
  url.searchParams.set('client_id', env.FACEBOOK_APP_ID);
  url.searchParams.set('redirect_uri', facebookRedirectUri(origin));
  // The state names the user it was made for; Facebook sends it back unchanged.
  url.searchParams.set('state', `${userId}.${signText(env, `facebook-state:${userId}`)}`);
  url.searchParams.set('scope', FACEBOOK_SCOPES.join(','));
  url.searchParams.set('response_type', 'code');
  return url.toString();
}

export async function exchangeFacebookCode(env: Env, code: string, origin: string) {
  if (!env.FACEBOOK_APP_ID)
    throw new PlatformError('facebook', 'not_connected', 'Facebook is not configured.');
  const url = new URL(`${apiBase(env)}/oauth/access_token`);
  url.searchParams.set('client_id', env.FACEBOOK_APP_ID);
  url.searchParams.set('client_secret', env.FACEBOOK_APP_SECRET ?? '');
  url.searchParams.set('redirect_uri', facebookRedirectUri(origin));
  url.searchParams.set('code', code);
  const answer = await call(env, url.toString());
  const accessToken = answer.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new PlatformError('facebook', 'malformed', 'Facebook sent no access token.', 200);
  }
  const expiresIn = Number(answer.expires_in);
  return {
    accessToken,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null,
  };
}

/** The campaign as Facebook knows it, or null when Facebook says there is no such object. */
export async function facebookCampaignExists(env: Env, token: string, fbCampaignId: string) {
  const url = new URL(`${apiBase(env)}/${encodeURIComponent(fbCampaignId)}`);
  url.searchParams.set('fields', 'id,name,status');
  try {
    const answer = await call(env, url.toString(), { headers: { authorization: `Bearer ${token}` } });
    return answer.id === fbCampaignId ? { name: typeof answer.name === 'string' ? answer.name : '' } : null;
  } catch (err) {
    // Code 100 with a 400: "Object with ID ... does not exist" (not a failure of the call).
    if (err instanceof PlatformError && err.status === 400 && err.code === 100) return null;
    throw err;
  }
}

/** One Purchase test event to the dataset (Conversions API); answers Facebook's count. */
export async function sendFacebookTestEvent(
  env: Env,
  token: string,
  datasetId: string,
  testEventCode: string,
) {
  const event = {
    event_name: 'Purchase',
    event_time: Math.floor(Date.now() / 1000),
    action_source: 'website',
    user_data: { client_user_agent: 'Edge Tracker conversion test' },
    custom_data: { currency: 'USD', value: 1 },
  };
  const answer = await call(env, `${apiBase(env)}/${encodeURIComponent(datasetId)}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ data: [event], test_event_code: testEventCode }),
  });
  const received = Number(answer.events_received);
  if (!Number.isFinite(received) || received < 1) {
    throw new PlatformError('facebook', 'malformed', 'Facebook received no event.', 200);
  }
  return { eventsReceived: received };
}
