import { CircleAlert, CircleCheck, Lock, Plus, Save, Send, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  CPC_AD_SIZES,
  CPC_AD_TYPES,
  CPC_DEFAULTS,
  CPC_TRAFFIC,
  type JeengCampaign,
  TRAFFIC_MESSAGES as M,
} from '../../../../schema/traffic-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { useBusyAction } from '../../components/confirmed-action';
import { SelectField, TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { draftFields } from '../../lib/draft-field';
import { patchedAt, withoutAt } from '../../lib/rows';
import { useCampaign } from './api';
import { Switch } from './editor-ui';
import {
  saveTrafficInfo,
  submitTrafficData,
  updateTrafficLines,
  useCpcConfig,
  useCpcOffers,
  useTrafficStatus,
} from './traffic-api';
import { AssetsCard, HeadlinesCard } from './traffic-assets';

// Tab 8, the traffic tab of trrcpc and crane campaigns (spec 2 §2-§9, spec 4's CPC builder):
// campaign info, headlines, assets with the uploaded/total counter, lines with their CPM, and
// the one-way submit. After the submit the info and headlines are read only.

type Info = {
  offerName: string;
  traffic: string;
  adType: string;
  adSize: string[];
  dailyBudget: string;
  cpc: string;
  maxAdSpend: string;
  toggleMaxAdSpend: boolean;
  totalBudget: string;
};

const sizesOf = (traffic: string, adType: string): readonly string[] =>
  (CPC_AD_SIZES as Record<string, Record<string, readonly string[]>>)[traffic]?.[adType] ?? [];

/** The form from the stored campaign, or the spec defaults for the source (spec 2 §4, §9). */
function infoOf(jeeng: JeengCampaign | null, source: string): Info {
  if (jeeng?.offer_name) {
    return {
      offerName: jeeng.offer_name,
      traffic: jeeng.traffic,
      adType: jeeng.ad_type,
      adSize: jeeng.ad_size.split(',').filter(Boolean),
      dailyBudget: String(jeeng.daily_budget),
      cpc: String(jeeng.cpc),
      maxAdSpend: String(jeeng.data.max_ad_spend),
      toggleMaxAdSpend: jeeng.toggle_max_ad_spend === 1,
      totalBudget: String(jeeng.data.total_budget),
    };
  }
  const traffic = source === 'crane' ? 'Apple News' : CPC_DEFAULTS.traffic;
  return {
    offerName: '',
    traffic,
    adType: CPC_DEFAULTS.adType,
    adSize: [sizesOf(traffic, CPC_DEFAULTS.adType)[0]],
    dailyBudget: String(CPC_DEFAULTS.dailyBudget),
    cpc: String(CPC_DEFAULTS.cpc),
    maxAdSpend: String(CPC_DEFAULTS.maxAdSpend),
    toggleMaxAdSpend: false,
    totalBudget: String(CPC_DEFAULTS.totalBudget),
  };
}

const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function TrafficTab({ campaignId, trafficSource }: { campaignId: number; trafficSource: string }) {
  const detail = useCampaign(campaignId);
  const status = useTrafficStatus();
  const offers = useCpcOffers();
  const config = useCpcConfig();
  const confirm = useConfirm();
  const jeeng = detail.data?.jeeng_campaign ?? null;
  const [info, setInfo] = useState<Info | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [lines, setLines] = useState<{ id: string; cpm: string }[]>([]);
  const { busy, run } = useBusyAction<'info' | 'lines' | 'submit'>();
  const loaded = detail.data !== undefined;
  // The stored campaign becomes the form once it has loaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per load, never over edits
  useEffect(() => {
    if (loaded && info === null) {
      setInfo(infoOf(jeeng, trafficSource));
      setLines((jeeng?.lines ?? []).map((l) => ({ id: l.id, cpm: String(l.cpm) })));
    }
  }, [loaded]);

  if (!detail.data || !info) return <PageSpinner label="Loading the traffic tab…" />;
  const d = detail.data;
  const submitted = jeeng?.submitted === 1;
  const balanceOk = d.jeeng_balance >= d.jeeng_min_required_balance;
  const set = <K extends keyof Info>(key: K, value: Info[K]) => setInfo({ ...info, [key]: value });
  const field = draftFields(info, set, errors);
  const refresh = () => detail.mutate();

  const onTraffic = (traffic: string) => {
    // trrcpc's Email takes the first email size; Apple News is Display with the first apple size.
    const adType = traffic === 'Apple News' ? 'Display' : info.adType;
    setInfo({ ...info, traffic, adType, adSize: [sizesOf(traffic, adType)[0]] });
  };

  const saveInfo = () =>
    run(
      'info',
      async () => {
        await saveTrafficInfo({ campaign_id: campaignId, ...info, adSize: info.adSize.join(',') });
        setErrors({});
        notify.success(M.trafficInfoSaved);
        await refresh();
      },
      (err) => {
        if (err instanceof ApiError && err.isValidation) setErrors(err.fieldErrors);
        notify.error(M.saveInfoFailed);
      },
    );

  const saveLines = () =>
    run(
      'lines',
      async () => {
        await updateTrafficLines(campaignId, lines);
        notify.success(M.linesUpdated);
        await refresh();
      },
      () => notify.error(M.updateLinesFailed),
    );

  const submit = async () => {
    const ok = await confirm({
      title: 'Submit traffic data',
      message:
        'Submit this campaign to the provider? The info, headlines and submitted assets can no longer be changed.',
      confirmLabel: 'Submit',
    });
    if (!ok) return;
    await run(
      'submit',
      async () => {
        await submitTrafficData(campaignId);
        notify.success(M.trafficSubmitted);
        await refresh();
      },
      (err) => {
        const text = err instanceof ApiError ? err.firstMessage : '';
        // The server's attachment limit message is shown as it is (spec 2 §5).
        notify.error(text.startsWith('Attachment file size must be less than') ? text : M.submitFailed);
        if (text && !text.startsWith('Attachment')) notify.warning(text);
      },
    );
  };

  const sizes = sizesOf(info.traffic, info.adType);
  return (
    <div className="tr-stack">
      <div className="tr-summary" data-testid="traffic-summary">
        <span>
          Provider:{' '}
          {status.data ? (
            <strong>{status.data.status[trafficSource] ?? 'unknown'}</strong>
          ) : status.error ? (
            'unavailable'
          ) : (
            '…'
          )}
        </span>
        <span>
          CPC balance: <strong>{usd(d.jeeng_balance)}</strong> (minimum {usd(d.jeeng_min_required_balance)})
        </span>
        {jeeng && submitted && (
          <span>
            Spend: <strong>{usd(jeeng.spend)}</strong>
          </span>
        )}
        <span>Attachments up to {config.data?.config.attachment_max_size_mb ?? 25} MB</span>
      </div>
      {submitted && (
        <div className="status-line tr-submitted" role="status" data-testid="traffic-submitted">
          <Lock size={16} aria-hidden /> Submitted on {new Date(jeeng?.submitted_at ?? '').toLocaleString()}.
          The info, headlines and submitted assets are read only.
        </div>
      )}
      <Card title="Campaign info" description="What the provider runs and how much it may spend.">
        <fieldset className="tr-fieldset" disabled={submitted}>
          <legend className="sr-only">Campaign info</legend>
          <div className="form-grid">
            <SelectField
              id="traffic-offer"
              label="Offer"
              value={info.offerName}
              onValueChange={(v) => set('offerName', v)}
              error={errors.offerName}
              options={[
                { value: '', label: offers.data ? 'Select an offer' : 'Loading offers…' },
                ...(offers.data?.offers ?? []).map((o) => ({ value: o.name, label: o.name })),
              ]}
            />
            <SelectField
              id="traffic-traffic"
              label="Traffic"
              value={info.traffic}
              onValueChange={onTraffic}
              options={CPC_TRAFFIC.map((t) => ({ value: t, label: t }))}
            />
            <SelectField
              id="traffic-ad-type"
              label="Ad type"
              value={info.adType}
              onValueChange={(v) =>
                setInfo({ ...info, adType: v, adSize: [sizesOf(info.traffic, v)[0]].filter(Boolean) })
              }
              options={CPC_AD_TYPES.filter((t) => sizesOf(info.traffic, t).length).map((t) => ({
                value: t,
                label: t,
              }))}
            />
            <fieldset className="tr-sizes">
              <legend className="field-label">Ad sizes</legend>
              {sizes.map((s) => (
                <label key={s} className="tr-check" htmlFor={`traffic-size-${s}`}>
                  <input
                    id={`traffic-size-${s}`}
                    type="checkbox"
                    checked={info.adSize.includes(s)}
                    onChange={(e) =>
                      set(
                        'adSize',
                        e.target.checked ? [...info.adSize, s] : info.adSize.filter((x) => x !== s),
                      )
                    }
                  />
                  {s}
                </label>
              ))}
              {errors.adSize && <p className="field-error">{errors.adSize}</p>}
            </fieldset>
            <TextField
              {...field('dailyBudget', 'traffic-daily')}
              label="Daily budget ($)"
              inputMode="decimal"
            />
            <TextField {...field('cpc', 'traffic-cpc')} label="CPC ($)" inputMode="decimal" />
            <TextField
              {...field('totalBudget', 'traffic-total')}
              label="Total budget ($)"
              inputMode="decimal"
            />
            <TextField
              {...field('maxAdSpend', 'traffic-max-spend')}
              label="Max ad spend ($)"
              inputMode="decimal"
              disabled={!info.toggleMaxAdSpend}
            />
          </div>
          <Switch
            id="traffic-toggle-max"
            checked={info.toggleMaxAdSpend}
            onChange={(on) => set('toggleMaxAdSpend', on)}
            label="Limit the ad spend"
          />
        </fieldset>
        {!submitted && (
          <div className="ce-savebar">
            <span className="field-hint">
              Defaults: Email, Display, 300x250, $500 a day, $1,500 in total.
            </span>
            <Button
              variant="primary"
              icon={<Save size={16} aria-hidden />}
              busy={busy === 'info'}
              onClick={() => void saveInfo()}
            >
              Save traffic info
            </Button>
          </div>
        )}
      </Card>
      <HeadlinesCard
        key={jeeng?.submitted_at ?? 'open'}
        campaignId={campaignId}
        headlines={jeeng?.data.headlines ?? []}
        locked={submitted}
        onChanged={refresh}
      />
      <AssetsCard
        campaignId={campaignId}
        traffic={info.traffic}
        assets={d.jeeng_assets}
        onChanged={refresh}
      />
      <Card
        title="Lines"
        description="The provider's lines and the CPM bid on each; they stay editable after the submit."
        actions={
          <Button
            size="sm"
            icon={<Plus size={14} aria-hidden />}
            onClick={() => setLines([...lines, { id: '', cpm: '' }])}
          >
            Add line
          </Button>
        }
      >
        {lines.length === 0 ? (
          <p className="field-hint">No lines yet.</p>
        ) : (
          <div className="tr-lines">
            {lines.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are edited in place by position
              <div key={i} className="tr-pair tr-line">
                <TextField
                  id={`line-id-${i}`}
                  label={`Line ${i + 1}`}
                  value={l.id}
                  onValueChange={(v) => setLines(patchedAt(lines, i, { id: v }))}
                />
                <div className="tr-line-cpm">
                  <TextField
                    id={`line-cpm-${i}`}
                    label="CPM ($)"
                    inputMode="decimal"
                    value={l.cpm}
                    onValueChange={(v) => setLines(patchedAt(lines, i, { cpm: v }))}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Remove line ${i + 1}`}
                    icon={<Trash2 size={14} aria-hidden />}
                    onClick={() => setLines(withoutAt(lines, i))}
                  />
                </div>
              </div>
            ))}
          </div>
        )}
        <div className="ce-savebar">
          <span className="field-hint">
            {lines.length} {lines.length === 1 ? 'line' : 'lines'}
          </span>
          <Button
            icon={<Save size={16} aria-hidden />}
            busy={busy === 'lines'}
            onClick={() => void saveLines()}
          >
            Update lines
          </Button>
        </div>
      </Card>
      <Card title="Submit" description="Send the campaign to the provider. This is one way.">
        <div className="ce-savebar">
          <span className="field-hint" data-testid="submit-hint">
            {submitted ? (
              <span className="tr-ok">
                <CircleCheck size={14} aria-hidden /> Submitted
              </span>
            ) : !balanceOk ? (
              <span className="tr-warn">
                <CircleAlert size={14} aria-hidden /> The CPC balance must be at least{' '}
                {usd(d.jeeng_min_required_balance)} to submit.
              </span>
            ) : jeeng?.can_submit ? (
              'Ready to submit.'
            ) : (
              'Save the traffic info and upload at least one asset first.'
            )}
          </span>
          <Button
            variant="primary"
            icon={<Send size={16} aria-hidden />}
            busy={busy === 'submit'}
            disabled={submitted || !balanceOk || !jeeng?.can_submit}
            onClick={() => void submit()}
          >
            Submit traffic data
          </Button>
        </div>
      </Card>
    </div>
  );
}
