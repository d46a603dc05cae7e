import { WALLETS, type Wallet } from '../../../../schema/money-api';

export { WALLETS, type Wallet };

/** Display names of the six wallets (spec 4 §2). */
export const WALLET_LABELS: Record<Wallet | 'rotator', string> = {
  liveintent: 'LiveIntent',
  blaze: 'Blaze',
  blazeDedicated: 'Blaze dedicated',
  cpc: 'CPC',
  dsp: 'DSP',
  mediago: 'MediaGo',
  rotator: 'Rotator funding',
};

export const CAUSE_LABELS = {
  adjustment: 'Adjustment',
  rotator_funding: 'Rotator funding',
  platform_spend: 'Ad spend',
} as const;
