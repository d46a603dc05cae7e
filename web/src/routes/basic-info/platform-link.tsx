// The link between a tracker campaign and its campaign on TikTok, Taboola or MediaGo (issue 25,
// docs/decisions/156): the platform campaign picked from the connected account's campaigns (or
// typed), the TikTok advertiser or Taboola account where the platform needs one, saved with
// POST /api/integrations/campaign-link. A missing connection says so and links to Integrations;
// it never blocks the campaign's own save.
import { Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { MessageAnswer } from '../../../../schema/auth-api';
import {
  PICKER_PLATFORMS,
  type PickerPlatform,
  type PlatformCampaignsAnswer,
  type SyncStatusAnswer,
} from '../../../../schema/integrations-api';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { showSaveFailure } from '../../components/confirmed-action';
import { SelectField, TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import '../../styles/integrations.css';
import { basicId } from './campaign-form';
import { needsUsdRate, syncStatusKey, UsdRateField } from './usd-rate';

export const PICKER_LABELS: Record<PickerPlatform, string> = {
  tiktok: 'TikTok',
  taboola: 'Taboola',
  mediago: 'MediaGo',
};

export const isPickerPlatform = (source: string): source is PickerPlatform =>
  (PICKER_PLATFORMS as readonly string[]).includes(source);

/** The account field each platform shows: TikTok needs its advertiser, Taboola may name one. */
const ACCOUNT: Record<PickerPlatform, { label: string; hint: string; optional: boolean } | null> = {
  tiktok: { label: 'TikTok advertiser ID', hint: 'Its campaigns are listed below.', optional: false },
  taboola: {
    label: 'Taboola account ID',
    hint: 'Leave empty for the account of the saved credentials.',
    optional: true,
  },
  mediago: null,
};

type Props = { campaignId: number | null; platform: PickerPlatform };

export function PlatformLink({ campaignId, platform }: Props) {
  const label = PICKER_LABELS[platform];
  if (campaignId === null)
    return <Alert tone="info">Save the campaign first, then link it to its {label} campaign here.</Alert>;
  return <LinkForm campaignId={campaignId} platform={platform} label={label} />;
}

function LinkForm({
  campaignId,
  platform,
  label,
}: {
  campaignId: number;
  platform: PickerPlatform;
  label: string;
}) {
  const status = useApi<SyncStatusAnswer>(syncStatusKey(campaignId), {
    revalidateOnFocus: false,
  });
  const link = status.data?.links.find((l) => l.platform === platform);
  const account = ACCOUNT[platform];
  const [accountId, setAccountId] = useState('');
  /** The account the list is read for: set when the field is left, not on every key. */
  const [listedFor, setListedFor] = useState('');
  const [externalId, setExternalId] = useState('');
  const [usdRate, setUsdRate] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);

  // The saved link fills the fields once it is read.
  useEffect(() => {
    if (!link) return;
    setAccountId(link.externalAccountId);
    setListedFor(link.externalAccountId);
    setExternalId(link.externalCampaignId);
    setUsdRate(link.usdRate);
  }, [link]);
  // The rate field shows once a sync has read an account currency other than US dollars (or a
  // rate is saved): spend in another currency is imported only at the user's rate (decision 147).
  const needsRate = needsUsdRate(link);

  const query = new URLSearchParams({ platform, campaignId: String(campaignId), accountId: listedFor });
  const list = useApi<PlatformCampaignsAnswer>(`integrations/platform-campaigns?${query}`, {
    revalidateOnFocus: false,
  });
  const connected = list.data?.connected !== false;
  const campaigns = list.data?.campaigns ?? [];
  const known = campaigns.some((c) => c.id === externalId);
  /** The name of the campaign picked when the link was saved: the list is read again for the saved account. */
  const [savedName, setSavedName] = useState<{ id: string; name: string }>();
  const linkedName = link
    ? (campaigns.find((c) => c.id === link.externalCampaignId)?.name ??
      (savedName?.id === link.externalCampaignId ? savedName.name : undefined))
    : undefined;

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const answer = await api.post<MessageAnswer>('integrations/campaign-link', {
        campaignId,
        platform,
        externalCampaignId: externalId,
        externalAccountId: platform === 'taboola' && !accountId ? (list.data?.accountId ?? '') : accountId,
        ...(needsRate ? { usdRate } : {}),
      });
      const picked = campaigns.find((c) => c.id === externalId);
      if (picked) setSavedName({ id: picked.id, name: picked.name });
      notify.success(answer.message);
      await status.mutate();
    } catch (err) {
      showSaveFailure(err, setErrors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="platform-link" data-testid={`platform-link-${platform}`}>
      {!connected && (
        <Alert tone="info">
          <span data-testid="platform-link-missing">
            {label} is not connected, so its campaigns cannot be listed and costs cannot be imported.{' '}
            <Link to="/integrations">Connect {label} on Integrations</Link>, then link the campaign here. The
            campaign itself saves either way.
          </span>
        </Alert>
      )}
      {account && (
        <TextField
          id={basicId(`${platform}_account`)}
          label={account.label}
          optional={account.optional}
          value={accountId}
          onValueChange={(v) => {
            setAccountId(v.trim());
            setErrors((e) => ({ ...e, externalAccountId: undefined }));
          }}
          onBlur={() => setListedFor(accountId)}
          inputMode="numeric"
          autoComplete="off"
          hint={account.hint}
          error={errors.externalAccountId}
        />
      )}
      {connected && campaigns.length > 0 ? (
        <SelectField
          id={basicId(`${platform}_campaign`)}
          label={`${label} campaign`}
          value={known ? externalId : ''}
          onValueChange={(v) => {
            setExternalId(v);
            setErrors((e) => ({ ...e, externalCampaignId: undefined }));
          }}
          options={[
            { value: '', label: `Pick a ${label} campaign` },
            ...campaigns.map((c) => ({ value: c.id, label: `${c.name} (${c.id})` })),
          ]}
          error={errors.externalCampaignId}
        />
      ) : (
        <TextField
          id={basicId(`${platform}_campaign`)}
          label={`${label} campaign ID`}
          value={externalId}
          onValueChange={(v) => {
            setExternalId(v.trim());
            setErrors((e) => ({ ...e, externalCampaignId: undefined }));
          }}
          autoComplete="off"
          hint={
            list.data?.problem
              ? `The campaigns could not be listed: ${list.data.problem}`
              : platform === 'tiktok' && !listedFor && connected
                ? 'Enter the advertiser ID to list its campaigns, or type the campaign ID.'
                : undefined
          }
          error={errors.externalCampaignId}
        />
      )}
      {needsUsdRate(link) && (
        <UsdRateField
          link={link}
          value={usdRate}
          onValueChange={(v) => {
            setUsdRate(v);
            setErrors((e) => ({ ...e, usdRate: undefined }));
          }}
          error={errors.usdRate}
        />
      )}
      <div className="platform-link-actions">
        <Button
          variant="secondary"
          busy={busy}
          disabled={externalId === ''}
          icon={<Link2 size={16} aria-hidden />}
          onClick={() => void save()}
        >
          Link campaign
        </Button>
        <p className="platform-link-status" data-testid="platform-link-status" aria-live="polite">
          {link
            ? `Linked to ${linkedName ? `${linkedName} (${link.externalCampaignId})` : link.externalCampaignId}${
                link.externalAccountId ? ` in ${link.externalAccountId}` : ''
              }.`
            : 'Not linked yet: costs are imported once the campaign is linked.'}
        </p>
      </div>
    </div>
  );
}
