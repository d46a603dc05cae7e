// The creative switch's calls (spec 3 §7; docs/api.md "Creative status"). Answer types are
// schema's (schema/creative-status-api.ts).
import type {
  CreativeStatusesAnswer,
  JeengAdStatusAnswer,
  ToggleStatsAdAnswer,
} from '../../../../schema/creative-status-api';
import { api } from '../../api/client';
import { uploadWithProgress } from '../../components/file-upload';

export const creativeStatuses = (campaignId: number, targets: string[]) =>
  api.post<CreativeStatusesAnswer>('stats/creative-statuses', { campaignId, targets });

export const toggleStatsAd = (input: {
  campaignId: number;
  adRefId: string;
  liRefId: string;
  status: boolean;
  currentUuid?: string;
}) => api.post<ToggleStatsAdAnswer>('manage-liveintent/toggle-ad-status-stats-page', input);

/** Multipart, as spec 3 §7 sends it: campaign_id, ad_id, status 1 or 0. */
export function setJeengAdStatus(campaignId: number, adId: string, status: boolean) {
  const form = new FormData();
  form.set('campaign_id', String(campaignId));
  form.set('ad_id', adId);
  form.set('status', status ? '1' : '0');
  return uploadWithProgress<JeengAdStatusAnswer>('jeeng/set-ad-status', form);
}
