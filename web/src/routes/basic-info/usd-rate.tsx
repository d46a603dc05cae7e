// The US-dollar rate of a platform link whose ad account bills in another currency (issue 25,
// docs/decisions/147). Spend in another currency is imported only at a rate the user enters; the
// field shows once a sync has read the account's currency (or a rate is saved). The platform
// link of TikTok, Taboola and MediaGo carries it (platform-link.tsx); links made without that
// form (Facebook's, from its verified campaign) get it from LinkedRates below.
import { Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { MessageAnswer } from '../../../../schema/auth-api';
import type { PlatformSyncStatus, SyncStatusAnswer } from '../../../../schema/integrations-api';
import { ApiError, api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Button } from '../../components/button';
import { toastUnlessSignedOut } from '../../components/confirmed-action';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { basicId } from './campaign-form';

const PLATFORM_NAMES: Record<PlatformSyncStatus['platform'], string> = {
  facebook: 'Facebook',
  tiktok: 'TikTok',
  taboola: 'Taboola',
  mediago: 'MediaGo',
  liveintent: 'LiveIntent',
};

/** Whether the link's spend needs the user's rate: a currency other than USD read, or a rate saved. */
export const needsUsdRate = (link: PlatformSyncStatus | undefined): link is PlatformSyncStatus =>
  link !== undefined &&
  ((link.accountCurrency !== '' && link.accountCurrency !== 'USD') || link.usdRate !== '');

export const syncStatusKey = (campaignId: number) => `integrations/sync-status?campaignId=${campaignId}`;

type FieldProps = {
  link: PlatformSyncStatus;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
};

export function UsdRateField({ link, value, onValueChange, error }: FieldProps) {
  const currency = link.accountCurrency || 'another currency';
  return (
    <TextField
      id={basicId(`${link.platform}_usd_rate`)}
      label={`US-dollar rate (1 ${link.accountCurrency || 'unit'} in USD)`}
      optional
      value={value}
      onValueChange={(v) => onValueChange(v.trim())}
      inputMode="decimal"
      autoComplete="off"
      hint={`This ${PLATFORM_NAMES[link.platform]} account bills in ${currency}. Its spend is imported converted at this rate; without one, nothing is imported.`}
      error={error}
    />
  );
}

/** Saves a link as it is with the rate entered; answers the field error, if any. */
async function saveUsdRate(link: PlatformSyncStatus, campaignId: number, usdRate: string) {
  try {
    const answer = await api.post<MessageAnswer>('integrations/campaign-link', {
      campaignId,
      platform: link.platform,
      externalCampaignId: link.externalCampaignId,
      externalAccountId: link.externalAccountId,
      enabled: link.enabled,
      usdRate,
    });
    notify.success(answer.message);
    return undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return err.fieldErrors.usdRate ?? err.message;
    toastUnlessSignedOut(err);
    return undefined;
  }
}

/** The rates of the campaign's links that the platform link form does not show (`except`). */
export function LinkedRates({ campaignId, except }: { campaignId: number; except: string | null }) {
  const status = useApi<SyncStatusAnswer>(syncStatusKey(campaignId), { revalidateOnFocus: false });
  const links = (status.data?.links ?? []).filter((l) => l.platform !== except && needsUsdRate(l));
  if (links.length === 0) return null;
  return (
    <div className="form-section" data-testid="linked-rates">
      <h3 className="form-section-title">Spend in another currency</h3>
      {links.map((link) => (
        <RateForm
          key={link.platform}
          link={link}
          campaignId={campaignId}
          saved={() => void status.mutate()}
        />
      ))}
    </div>
  );
}

function RateForm({
  link,
  campaignId,
  saved,
}: {
  link: PlatformSyncStatus;
  campaignId: number;
  saved: () => void;
}) {
  const [value, setValue] = useState(link.usdRate);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(link.usdRate), [link.usdRate]);
  const save = async () => {
    setBusy(true);
    setError(undefined);
    const problem = await saveUsdRate(link, campaignId, value);
    setBusy(false);
    if (problem) setError(problem);
    else saved();
  };
  return (
    <div className="platform-link" data-testid={`linked-rate-${link.platform}`}>
      <UsdRateField
        link={link}
        value={value}
        onValueChange={(v) => {
          setValue(v);
          setError(undefined);
        }}
        error={error}
      />
      <div className="platform-link-actions">
        <Button
          variant="secondary"
          busy={busy}
          icon={<Save size={16} aria-hidden />}
          onClick={() => void save()}
        >
          Save {PLATFORM_NAMES[link.platform]} rate
        </Button>
      </div>
    </div>
  );
}
