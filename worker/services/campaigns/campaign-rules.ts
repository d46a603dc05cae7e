import { CAMPAIGN_MESSAGES as M } from '../../../schema/campaign-api';
import { unsafePostbackReason } from '../postbacks/postbacks';

// Rules a campaign must meet that its zod schema cannot check alone. One function, called by
// the editor's save and by every import (CSV and ZIP), so an import can never store a campaign
// the editor would refuse (the ZIP import used to skip the postback check).

type CampaignRuleInput = { postback_enabled: number; postback: string };

/** The first rule the campaign breaks, as a field and the editor's message, or null. */
export function campaignRuleProblem(input: CampaignRuleInput): { field: string; message: string } | null {
  if (input.postback_enabled === 1 && input.postback) {
    // Macros stand for values filled in at send time; the host around them must be public.
    const probe = input.postback.replace(/\{[A-Za-z0-9_.-]+\}/g, 'x');
    if (unsafePostbackReason(probe)) return { field: 'postback', message: M.postbackInvalid };
  }
  return null;
}
