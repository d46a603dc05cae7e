// The campaign editor's calls (spec 2 §7), one function each, over the shared client. Answer
// types are schema's (schema/campaign-api.ts, schema/pages-operations-api.ts).
import type {
  CampaignDetail,
  CampaignSaveAnswer,
  ExtraToken,
  LandingSaveAnswer,
  ListAnswer,
  OfferSaveAnswer,
  OptionSaveAnswer,
  PathSaveAnswer,
} from '../../../../schema/campaign-api';
import type {
  ApplyTemplateAnswer,
  ExportItemsAnswer,
  ItemKind,
  ItemOf,
  ItemsAnswer,
  OptimizationAnswer,
  RemoveTemplateAnswer,
  TokenTemplate,
} from '../../../../schema/pages-operations-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';

export type { ItemKind, ItemOf };

export const itemsKey = (kind: ItemKind, campaignId: number, showDeleted: boolean) =>
  [`${kind}?campaignId=${campaignId}&showDeleted=${showDeleted ? 1 : 0}`, 'editor'] as const;

export function useCampaign(id: number | null) {
  return useApi<CampaignDetail>(id ? [`campaign?campaignId=${id}`, 'editor'] : null, {
    revalidateOnFocus: false,
  });
}

export function useItems<K extends ItemKind>(kind: K, campaignId: number | null, showDeleted = false) {
  return useApi<ListAnswer<ItemOf<K>>>(campaignId ? itemsKey(kind, campaignId, showDeleted) : null, {
    revalidateOnFocus: false,
  });
}

export const useTokenTemplates = () =>
  useApi<ListAnswer<TokenTemplate>>('token-templates', {
    revalidateOnFocus: false,
    revalidateIfStale: false,
  });

export const addCampaign = (body: Record<string, unknown>) =>
  api.post<CampaignSaveAnswer>('add-campaign', body);
export const editCampaign = (body: Record<string, unknown>) =>
  api.put<CampaignSaveAnswer>('edit-campaign', body);
export const listTokens = (campaignId: number) =>
  api.get<ListAnswer<ExtraToken>>('extratokens', { query: { campaignId } });

/** An item's save call: `add` for a new item, `edit` with its id under `idKey` for a stored one. */
const saveCall =
  <A>(add: string, edit: string, idKey: string) =>
  (body: Record<string, unknown>, id?: number) =>
    id ? api.put<A>(edit, { ...body, [idKey]: id }) : api.post<A>(add, body);

export const saveLanding = saveCall<LandingSaveAnswer>('add-landing', 'edit-landing', 'landingPageId');
export const saveOffer = saveCall<OfferSaveAnswer>('add-offer', 'edit-offer', 'offerPageId');
export const savePath = saveCall<PathSaveAnswer>('add-path', 'edit-path', 'pathId');
export const saveOption = saveCall<OptionSaveAnswer>('add-option', 'edit-option', 'optionId');

/**
 * A pages-operation verb (delete-landing, clone-paths, landing-equal-share...): each answers a
 * message and the kind's list as data.result. The *-toggle-delete verbs answer showDeleted
 * instead of a message (ShowDeletedAnswer); their callers read only the list.
 */
export const pagesOperation = <T>(verb: string, body: Record<string, unknown>) =>
  api.post<ItemsAnswer<T>>(verb, body);

export const exportPages = <T>(verb: 'export-landings' | 'export-offers', body: Record<string, unknown>) =>
  api.post<ExportItemsAnswer<T>>(verb, body);

export const toggleAutoOptimize = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-toggle-auto-optimize', body);
export const toggleTestReporting = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-toggle-lp-test-reporting', body);
export const setOptimizationGoal = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-set-lp-optimization-goal', body);

export const applyTokenTemplate = (body: { campaignid: number; template: string; campaigntype: string }) =>
  api.post<ApplyTemplateAnswer>('apply-token-template', body);
export const removeTokenTemplate = (body: { campaignid: number; template: string; campaigntype: string }) =>
  api.post<RemoveTemplateAnswer>('remove-token-template', body);
