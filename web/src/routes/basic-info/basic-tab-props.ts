import type { CampaignForm } from './campaign-form';

// What the basic tab is given, apart from basic-tab.tsx so that its cards (tokens-card.tsx) can
// take a part of it without importing the tab that renders them.

export type BasicTabProps = {
  form: CampaignForm;
  errors: Record<string, string | undefined>;
  isNew: boolean;
  onField: <K extends keyof CampaignForm>(name: K, value: CampaignForm[K]) => void;
  onTrafficSource: (value: string) => void;
  onPromotion: (value: string) => void;
  onNetwork: (value: string) => void;
  onCampaignType: (value: string) => void;
  onName: (value: string) => void;
  onUrlToken: (value: string) => void;
  /** The saved campaign's id (null while new), for the link to its LiveIntent management. */
  campaignId?: number | null;
  templateBusy: 'apply' | 'remove' | null;
  onApplyTemplate: (key: string) => void;
  onRemoveTemplate: (key: string) => void;
};
