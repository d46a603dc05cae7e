import type { Platform } from '../../../schema/integrations';
import type { Env } from '../../env';
import { accountTerms, adInsights, getCampaign } from '../../integrations/facebook/client';
import { type AdDay, type AdReport, PLATFORM_LABELS, PlatformError } from '../../integrations/http';
import {
  liveIntentAuth,
  report as liveIntentReport,
  accessToken as liveIntentToken,
} from '../../integrations/liveintent/client';
import { adReport as mediagoReport } from '../../integrations/mediago/client';
import { clientToken, currentAccount, itemDayReport } from '../../integrations/taboola/client';
import { advertiserTerms, adReport as tiktokReport } from '../../integrations/tiktok/client';
import { getSettings } from '../settings/settings';
import { liveIntentAccounts } from '../settings/settings-form';
import { credentialFor } from './credentials';

// One question for every platform: impressions, clicks and spend per day and ad of the platform
// campaign a campaign is linked to, with the ad account's currency and time zone where the
// platform says them (AdReport, docs/decisions/147). Each platform gets its credentials its own way.

export type PlatformLink = {
  campaignId: number;
  platform: Platform;
  /** Ad account: Facebook act_..., TikTok advertiser id, Taboola account id (optional there). */
  externalAccountId: string;
  externalCampaignId: string;
  /** The campaign's owner: their own credential is used before the installation's. */
  ownerId: number | null;
};

const notConnected = (platform: Platform) =>
  new PlatformError(platform, 'not_connected', `${PLATFORM_LABELS[platform]} is not connected.`);

async function token(env: Env, link: PlatformLink) {
  const credential = await credentialFor(env, link.platform, link.ownerId);
  if (!credential) throw notConnected(link.platform);
  return credential;
}

/** The rows only (ad records and the LiveIntent force sync read no currency). */
export async function fetchAdDays(
  env: Env,
  link: PlatformLink,
  since: string,
  until: string,
): Promise<AdDay[]> {
  return (await fetchAdReport(env, link, since, until)).rows;
}

/** The Facebook ad account of a link: the one stored on it, else the campaign's own. */
async function facebookAccount(env: Env, token: string, link: PlatformLink): Promise<string> {
  if (link.externalAccountId) return link.externalAccountId;
  const campaign = await getCampaign(env, token, link.externalCampaignId);
  if (!campaign?.accountId)
    throw new PlatformError('facebook', 'request', `Facebook has no campaign ${link.externalCampaignId}.`);
  return campaign.accountId;
}

export async function fetchAdReport(
  env: Env,
  link: PlatformLink,
  since: string,
  until: string,
): Promise<AdReport> {
  switch (link.platform) {
    case 'facebook': {
      const { token: accessToken, expiresAt } = await token(env, link);
      const terms = await accountTerms(env, accessToken, await facebookAccount(env, accessToken, link));
      const rows = await adInsights(env, accessToken, link.externalCampaignId, since, until);
      return { rows, ...terms, credentialExpiresAt: expiresAt };
    }
    case 'tiktok': {
      const { token: accessToken } = await token(env, link);
      const terms = await advertiserTerms(env, accessToken, link.externalAccountId);
      const rows = await tiktokReport(
        env,
        accessToken,
        link.externalAccountId,
        link.externalCampaignId,
        since,
        until,
      );
      return { rows, ...terms };
    }
    case 'taboola': {
      const credential = await token(env, link);
      const accessToken = await clientToken(env, credential.clientId, credential.token);
      const account = link.externalAccountId || (await currentAccount(env, accessToken)).accountId;
      return itemDayReport(env, accessToken, account, link.externalCampaignId, since, until);
    }
    case 'mediago': {
      const { token: apiToken } = await token(env, link);
      // The report is asked in the installation's time zone, so its days are the tracker's days.
      const { time_zone: timeZone } = await getSettings(env);
      return {
        rows: await mediagoReport(env, apiToken, link.externalCampaignId, since, until, timeZone),
        timeZone,
      };
    }
    case 'liveintent': {
      // A credential stored on the integrations side wins; else the account of the settings
      // (client id and secret, or a personal access token with no client id: decision 150).
      const stored = await credentialFor(env, 'liveintent', link.ownerId);
      const own = stored ? null : (await liveIntentAccounts(env)).own;
      const auth = stored
        ? liveIntentAuth(stored.clientId, stored.token)
        : liveIntentAuth(own?.username ?? '', own?.password ?? '');
      if (!auth.secret) throw notConnected('liveintent');
      const accessToken = await liveIntentToken(env, auth);
      return { rows: await liveIntentReport(env, accessToken, link.externalCampaignId, since, until) };
    }
  }
}
