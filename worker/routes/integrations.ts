import { type Context, Hono } from 'hono';
import {
  apiTokenInput,
  type ConnectionStatusAnswer,
  type FacebookStatusAnswer,
  type FacebookVerifyAnswer,
  FB_CAMPAIGN_ID,
  type FbTokenAnswer,
  CONNECTION_MESSAGES as M,
  maskSecret,
  type PlatformTokenAnswer,
  type PostbackUrlsAnswer,
  SET_FB_TOKEN_ORDER,
  setFbTokenInput,
  TABOOLA_ORDER,
  type TaboolaAnswer,
  TEST_CONVERSION_ORDER,
  type TestConversionAnswer,
  taboolaInput,
  testConversionInput,
} from '../../schema/connections-api';
import type { AppEnv } from '../env';
import { requireAuth } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { parseInput, readBody } from '../lib/validate';
import { signFacebookVerification, trackedInternally } from '../services/campaigns/facebook-verification';
import { getCredential, setCredential, setCredentialStatus } from '../services/integrations/credentials';
import {
  exchangeFacebookCode,
  facebookAuthUrl,
  facebookCampaignExists,
  PlatformError,
  sendFacebookTestEvent,
} from '../services/integrations/facebook-connect';
import { postbackUrls } from '../services/integrations/postback-urls';

// The integrations screen (spec 4 §2, §7, §8), Facebook campaign verification (spec 2 §7) and
// the postback URLs. Every credential is the signed-in user's own, stored encrypted by the
// credentials service and answered masked (last 4 characters). The Facebook calls here are the
// ones a user waits for (the OAuth code exchange, the test event, the verification); each has a
// timeout and answers the spec's message when Facebook fails (docs/decisions/074).

const ok = (message: string): ConnectionStatusAnswer => ({ status: 'success', message });

// requireAuth on each route: a sub-app's own use() would run for every /api path once mounted at '/'.
const integrationsApp = new Hono<AppEnv>();

export const integrationRoutes = integrationsApp
  .get('/facebook/status', requireAuth, async (c) => {
    // Each answer mints a fresh state for this user (docs/decisions/123).
    const auth_url = await facebookAuthUrl(c.env, new URL(c.req.url).origin, c.get('user').id);
    return c.json({ data: { enabled: auth_url !== '', auth_url } satisfies FacebookStatusAnswer });
  })
  .post('/auth/set-fb-token', requireAuth, async (c) => {
    const input = parseInput(setFbTokenInput, await readBody(c), SET_FB_TOKEN_ORDER);
    const user = c.get('user');
    let token: Awaited<ReturnType<typeof exchangeFacebookCode>>;
    try {
      // The state is checked and used up first: nothing reaches Facebook, nothing is stored, for
      // a code that did not come back with this user's own live state.
      token = await exchangeFacebookCode(c.env, user.id, input, new URL(c.req.url).origin, M.fbStateInvalid);
    } catch (err) {
      throw platformError(err, M.fbConnectFailed);
    }
    await setCredential(c.env, 'facebook', user.id, {
      token: token.accessToken,
      expiresAt: token.expiresAt,
      status: 'active',
    });
    return c.json({ data: ok(M.fbConnected) satisfies ConnectionStatusAnswer });
  })
  .post('/auth/reset-fb-token', requireAuth, async (c) => {
    const user = c.get('user');
    const current = await getCredential(c.env, 'facebook', user.id);
    if (!current || current.token === '') throw new ApiError(404, M.fbDisconnectFailed);
    // The token is dropped, not only marked: a disconnected account leaves nothing to decrypt.
    await setCredential(c.env, 'facebook', user.id, { token: '', status: 'inactive' });
    return c.json({ data: ok(M.fbDisconnected) satisfies ConnectionStatusAnswer });
  })
  .get('/auth/get-fb-token', requireAuth, async (c) => {
    const current = await getCredential(c.env, 'facebook', c.get('user').id);
    const token = current?.token ?? '';
    const status = token !== '' && current?.status === 'active' ? 'active' : 'inactive';
    return c.json({ data: { token: maskSecret(token), status } satisfies FbTokenAnswer });
  })
  .post('/facebook/test-conversion', requireAuth, async (c) => {
    const input = parseInput(testConversionInput, await readBody(c), TEST_CONVERSION_ORDER);
    const token = await activeFacebookToken(c.env, c.get('user').id);
    try {
      const result = await sendFacebookTestEvent(
        c.env,
        token,
        input.dataset_id,
        input.test_event_code,
        input.event_name,
      );
      return c.json({
        data: {
          status: 'success',
          message: M.conversionOk,
          events_received: result.eventsReceived,
        } satisfies TestConversionAnswer,
      });
    } catch (err) {
      await markRefused(c.env, c.get('user').id, err);
      throw platformError(err, M.conversionFailed);
    }
  })
  .get('/facebook/campaign/verify/:fbCampaignId', requireAuth, async (c) => {
    const id = c.req.param('fbCampaignId').trim();
    if (!FB_CAMPAIGN_ID.test(id)) {
      throw new ApiError(422, M.fbCampaignIdInvalid, { fbCampaignId: [M.fbCampaignIdInvalid] });
    }
    const exceptId = Number(c.req.query('campaignId')) || 0;
    const token = await activeFacebookToken(c.env, c.get('user').id);
    let found: Awaited<ReturnType<typeof facebookCampaignExists>>;
    try {
      found = await facebookCampaignExists(c.env, token, id);
    } catch (err) {
      await markRefused(c.env, c.get('user').id, err);
      throw platformError(err, M.verifyFailed);
    }
    const is_internal = await trackedInternally(c.env, id, exceptId);
    const answer: FacebookVerifyAnswer = found
      ? {
          code: 200,
          message: M.verified,
          data: {
            is_internal,
            is_external: true,
            name: found.name,
            verification: signFacebookVerification(c.env, id),
            message: M.verified,
          },
        }
      : {
          code: 404,
          message: M.notFoundOnFacebook,
          data: {
            is_internal,
            is_external: false,
            name: '',
            verification: '',
            message: M.notFoundOnFacebook,
          },
        };
    return c.json(answer);
  })
  .post('/auth/set-tiktok-token', requireAuth, async (c) => savePlatformToken(c, 'tiktok'))
  .get('/auth/get-tiktok-token', requireAuth, async (c) => readPlatformToken(c, 'tiktok'))
  .post('/auth/set-mediago-token', requireAuth, async (c) => savePlatformToken(c, 'mediago'))
  .get('/auth/get-mediago-token', requireAuth, async (c) => readPlatformToken(c, 'mediago'))
  .post('/auth/set-taboola', requireAuth, async (c) => {
    const input = parseInput(taboolaInput, await readBody(c), TABOOLA_ORDER);
    await setCredential(c.env, 'taboola', c.get('user').id, {
      token: input.client_secret,
      clientId: input.client_id,
      status: 'active',
    });
    return c.json({ data: ok(M.taboolaSaved) satisfies ConnectionStatusAnswer });
  })
  .get('/auth/get-taboola', requireAuth, async (c) => {
    const current = await getCredential(c.env, 'taboola', c.get('user').id);
    return c.json({
      data: {
        client_id: maskSecret(current?.clientId ?? ''),
        client_secret: maskSecret(current?.token ?? ''),
      } satisfies TaboolaAnswer,
    });
  })
  .get('/postback-urls', requireAuth, async (c) => {
    const rows: PostbackUrlsAnswer = await postbackUrls(c.env, new URL(c.req.url).origin);
    return c.json({ data: rows satisfies PostbackUrlsAnswer });
  });

type Ctx = Context<AppEnv>;

async function savePlatformToken(c: Ctx, platform: 'tiktok' | 'mediago') {
  const { api_token } = parseInput(apiTokenInput, await readBody(c));
  await setCredential(c.env, platform, c.get('user').id, { token: api_token, status: 'active' });
  return c.json({ data: ok(M.tokenSaved) satisfies ConnectionStatusAnswer });
}

async function readPlatformToken(c: Ctx, platform: 'tiktok' | 'mediago') {
  const current = await getCredential(c.env, platform, c.get('user').id);
  return c.json({ data: { token: maskSecret(current?.token ?? '') } satisfies PlatformTokenAnswer });
}

async function activeFacebookToken(env: AppEnv['Bindings'], userId: number): Promise<string> {
  const current = await getCredential(env, 'facebook', userId);
  if (!current || current.token === '' || current.status !== 'active') {
    throw new ApiError(409, M.fbNotConnected);
  }
  return current.token;
}

/** Facebook refused the stored token (expired, revoked): it shows as inactive until reconnected. */
async function markRefused(env: AppEnv['Bindings'], userId: number, err: unknown) {
  if (err instanceof PlatformError && err.kind === 'auth') {
    await setCredentialStatus(env, 'facebook', userId, 'inactive');
  }
}

/**
 * A platform failure as the envelope: the spec's message first, the platform's own words (if
 * any) second. A refused token is a 401 from Facebook but not from us: our session is fine, so
 * it answers 502 like any other failure of the platform (a 401 would log the user out).
 */
function platformError(err: unknown, message: string): ApiError {
  if (err instanceof PlatformError) {
    const messages = err.detail && err.detail !== message ? [message, err.detail] : [message];
    return new ApiError(err.kind === 'timeout' ? 504 : 502, message, { message: messages });
  }
  throw err;
}
