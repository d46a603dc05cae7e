import type { PickerPlatform, PlatformCampaignsAnswer } from '../../../schema/integrations-api';
import type { Env } from '../../env';
import { PlatformError } from '../../integrations/http';
import { campaignList as mediagoCampaigns } from '../../integrations/mediago/client';
import {
  clientToken,
  currentAccount,
  campaignList as taboolaCampaigns,
} from '../../integrations/taboola/client';
import { campaignList as tiktokCampaigns } from '../../integrations/tiktok/client';
import { credentialFor } from './credentials';

// The editor's picker (issue 25, docs/decisions/156): the campaigns of the account a campaign's
// owner connected on Integrations, read with the platform's own list call. A missing connection
// is an answer (connected: false), not an error, so the editor can say so and link there.

export async function platformCampaigns(
  env: Env,
  platform: PickerPlatform,
  ownerId: number | null,
  accountId: string,
): Promise<PlatformCampaignsAnswer> {
  const answer = (over: Partial<PlatformCampaignsAnswer>): PlatformCampaignsAnswer => ({
    platform,
    connected: true,
    accountId,
    campaigns: [],
    problem: '',
    ...over,
  });
  const credential = await credentialFor(env, platform, ownerId);
  if (!credential) return answer({ connected: false });
  try {
    switch (platform) {
      case 'tiktok':
        // TikTok names campaigns per advertiser: nothing to list before one is given.
        if (!accountId) return answer({});
        return answer({ campaigns: await tiktokCampaigns(env, credential.token, accountId) });
      case 'taboola': {
        const token = await clientToken(env, credential.clientId, credential.token);
        const account = accountId || (await currentAccount(env, token)).accountId;
        return answer({ accountId: account, campaigns: await taboolaCampaigns(env, token, account) });
      }
      case 'mediago':
        return answer({ campaigns: await mediagoCampaigns(env, credential.token) });
    }
  } catch (err) {
    if (err instanceof PlatformError) return answer({ problem: err.message });
    throw err;
  }
}
