import { z } from 'zod';
import { DEFAULT_FACEBOOK_EVENT, EVENT_NAME, METAINFO_MESSAGES } from './campaign-metainfo';
import { AFFILIATE_NETWORK_PARAMS, type AffiliateNetwork } from './campaigns';

// The integrations screen's calls (spec 4 §2, §7, §8), Facebook campaign verification (spec 2
// §7, §8) and the postback-URLs screen. The answers the worker sends and the web reads.

/** Messages of spec 4 §8 and spec 2 §5/§8, word for word; the rest are ours. */
export const CONNECTION_MESSAGES = {
  fbConnected: 'Facebook connected successfully!',
  fbConnectFailed: 'Failed to connect Facebook. Please try again.',
  fbDisconnected: 'Facebook disconnected!',
  fbDisconnectFailed: 'Failed to disconnect Facebook.',
  conversionOk: 'Conversion test succeeded.',
  conversionFailed: 'Conversion test failed.',
  tokenSaved: 'Token saved!',
  tokenFailed: 'Failed to save token.',
  taboolaSaved: 'Taboola saved!',
  taboolaFailed: 'Failed to save Taboola data.',
  copied: 'Copied to Clipboard.',
  copyFailed: 'Error Occurred.',
  verifyFailed: 'Error encountered while verifying campaign. Please try again.',
  facebookUnverified:
    'Please verify the facebook campaign first before saving. Facebook campaign ID must be valid.',
  // Ours: the spec shows no text for these.
  codeRequired: 'The Facebook login code is missing.',
  stateRequired: 'The Facebook login state is missing.',
  fbStateInvalid:
    'This Facebook login was not started from your account or has expired. Please connect Facebook again.',
  datasetRequired: 'Dataset ID is required.',
  testCodeRequired: 'Test event code is required.',
  apiTokenRequired: 'Token is required.',
  clientIdRequired: 'Client ID is required.',
  clientSecretRequired: 'Client secret is required.',
  fbNotConnected: 'Connect Facebook first.',
  fbCampaignIdInvalid: 'Facebook campaign ID must be valid.',
  verified: 'Facebook campaign verified.',
  notFoundOnFacebook: 'Facebook campaign ID must be valid.',
} as const;

const M = CONNECTION_MESSAGES;

const required = (message: string, max = 2048) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v.trim() : v),
    z.string({ error: message }).min(1, message).max(max, message),
  );

/** POST auth/set-fb-token: the code and the state that came back from the login dialog (docs/decisions/123). */
export const setFbTokenInput = z.object({
  code: required(M.codeRequired),
  state: required(M.stateRequired, 256),
});
export const SET_FB_TOKEN_ORDER = ['code', 'state'] as const;
export const testConversionInput = z.object({
  dataset_id: required(M.datasetRequired, 64),
  test_event_code: required(M.testCodeRequired, 64),
  /** The campaign's event name (metainfo.event_name) from the editor; Purchase when absent. */
  event_name: z.preprocess(
    (v) =>
      v === undefined || v === null || v === ''
        ? DEFAULT_FACEBOOK_EVENT
        : typeof v === 'string'
          ? v.trim()
          : v,
    z.string({ error: METAINFO_MESSAGES.eventInvalid }).regex(EVENT_NAME, METAINFO_MESSAGES.eventInvalid),
  ),
});
export const TEST_CONVERSION_ORDER = ['dataset_id', 'test_event_code', 'event_name'] as const;
export const apiTokenInput = z.object({ api_token: required(M.apiTokenRequired) });
export const taboolaInput = z.object({
  client_id: required(M.clientIdRequired, 256),
  client_secret: required(M.clientSecretRequired),
});
export const TABOOLA_ORDER = ['client_id', 'client_secret'] as const;

/** A Facebook campaign id as Facebook writes it: digits only. */
export const FB_CAMPAIGN_ID = /^\d{1,32}$/;

/** Stored credentials never leave the server in full: this is what the browser sees. */
export function maskSecret(value: string): string {
  if (!value) return '';
  return `••••${value.slice(-4)}`;
}

/** GET /api/facebook/status. */
export type FacebookStatusAnswer = { enabled: boolean; auth_url: string };
/** GET /api/auth/get-fb-token: the token masked, active after a connect, inactive after a disconnect. */
export type FbTokenAnswer = { token: string; status: 'active' | 'inactive' };
/** POST set-fb-token, reset-fb-token, set-tiktok-token, set-mediago-token, set-taboola. */
export type ConnectionStatusAnswer = { status: 'success'; message: string };
/** GET get-tiktok-token and get-mediago-token: the token masked, '' when none is stored. */
export type PlatformTokenAnswer = { token: string };
/** GET get-taboola: both masked. */
export type TaboolaAnswer = { client_id: string; client_secret: string };
/** POST /api/facebook/test-conversion. */
export type TestConversionAnswer = { status: 'success'; message: string; events_received: number };

/**
 * GET /api/facebook/campaign/verify/{fbCampaignId}: `code` 200 when Facebook knows the campaign
 * (is_external), 404 when it does not. is_internal says another campaign of this installation
 * already tracks it. `verification` is the server's signature the editor saves in metainfo:
 * the campaign save checks it, so a Facebook campaign cannot be saved unverified by hand.
 */
export type FacebookVerifyAnswer = {
  code: 200 | 404;
  message: string;
  data: FacebookVerifyData;
};
/** The `data` of the verify answer; `message` repeats the top-level one for the editor. */
export type FacebookVerifyData = {
  is_internal: boolean;
  is_external: boolean;
  name: string;
  verification: string;
  message: string;
};

/** The installation's postback and pixel URLs for one affiliate network (GET /api/postback-urls). */
export type PostbackUrlRow = {
  network: AffiliateNetwork;
  label: string;
  /** The parameter the network's click id travels in (AFFILIATE_NETWORK_PARAMS). */
  param: string;
  /** The network's macro that it fills with the click id it received. */
  macro: string;
  postback_url: string;
  pixel_url: string;
  video: PostbackVideo | null;
};
/** The video dialog of the postback screen (spec 4 §2): title, url, type and id. */
export type PostbackVideo = { title: string; url: string; type: 'youtube' | 'vimeo' | 'file'; id: string };
export type PostbackUrlsAnswer = PostbackUrlRow[];

export const NETWORK_LABELS: Record<AffiliateNetwork, string> = {
  clickbank: 'ClickBank',
  mediamaven: 'MediaMaven',
  maxweb: 'MaxWeb',
  sellhealth: 'SellHealth',
  oasisads: 'OasisAds',
};

/**
 * Each network's macro for the value it received in its parameter: the networks fill
 * `{<param>}`-style placeholders (ClickBank's tid, the sub ids of the others); the list lives
 * beside AFFILIATE_NETWORK_PARAMS so that both change together.
 */
export const NETWORK_MACROS: Record<AffiliateNetwork, string> = Object.fromEntries(
  Object.entries(AFFILIATE_NETWORK_PARAMS).map(([network, param]) => [network, `{${param}}`]),
) as Record<AffiliateNetwork, string>;
