// The campaign editor's calls (spec 2 §7), one function each, over the shared client.
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import type {
  CampaignDetail,
  CampaignSaveAnswer,
  ExportAnswer,
  ExtraToken,
  Landing,
  ListAnswer,
  Offer,
  OptimizationAnswer,
  OptionItem,
  PathItem,
  TemplateAnswer,
  TokenTemplate,
} from './types';

export type ItemKind = 'landing' | 'offer' | 'path' | 'option';
export type ItemOf<K extends ItemKind> = K extends 'landing'
  ? Landing
  : K extends 'offer'
    ? Offer
    : K extends 'path'
      ? PathItem
      : OptionItem;

export const campaignKey = (id: number) => ['campaign', id] as const;
export const itemsKey = (kind: ItemKind, campaignId: number, showDeleted: boolean) =>
  [`${kind}?campaignId=${campaignId}&showDeleted=${showDeleted ? 1 : 0}`, 'editor'] as const;
export const tokensKey = (campaignId: number) => [`extratokens?campaignId=${campaignId}`, 'editor'] as const;

export const getCampaign = (id: number) => api.get<CampaignDetail>('campaign', { query: { campaignId: id } });

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

type SaveAnswer<T> = { message: string; result: T[] };
export const saveLanding = (body: Record<string, unknown>, id?: number) =>
  id
    ? api.put<SaveAnswer<Landing>>('edit-landing', { ...body, landingPageId: id })
    : api.post<SaveAnswer<Landing>>('add-landing', body);
export const saveOffer = (body: Record<string, unknown>, id?: number) =>
  id
    ? api.put<SaveAnswer<Offer>>('edit-offer', { ...body, offerPageId: id })
    : api.post<SaveAnswer<Offer>>('add-offer', body);
export const savePath = (body: Record<string, unknown>, id?: number) =>
  id
    ? api.put<SaveAnswer<PathItem>>('edit-path', { ...body, pathId: id })
    : api.post<SaveAnswer<PathItem>>('add-path', body);
export const saveOption = (body: Record<string, unknown>, id?: number) =>
  id
    ? api.put<SaveAnswer<OptionItem>>('edit-option', { ...body, optionId: id })
    : api.post<SaveAnswer<OptionItem>>('add-option', body);

/** A pages-operation verb (delete-landing, clone-paths, landing-equal-share...): data.result lists. */
export const pagesOperation = <T>(verb: string, body: Record<string, unknown>) =>
  api.post<ListAnswer<T> & { message?: string }>(verb, body);

export const exportPages = <T>(verb: 'export-landings' | 'export-offers', body: Record<string, unknown>) =>
  api.post<ExportAnswer<T>>(verb, body);

export const toggleAutoOptimize = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-toggle-auto-optimize', body);
export const toggleTestReporting = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-toggle-lp-test-reporting', body);
export const setOptimizationGoal = (body: Record<string, unknown>) =>
  api.post<OptimizationAnswer>('campaign-set-lp-optimization-goal', body);

export const applyTokenTemplate = (body: { campaignid: number; template: string; campaigntype: string }) =>
  api.post<TemplateAnswer>('apply-token-template', body);
export const removeTokenTemplate = (body: { campaignid: number; template: string; campaigntype: string }) =>
  api.post<TemplateAnswer>('remove-token-template', body);
