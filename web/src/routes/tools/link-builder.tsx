// Link builder: the campaign link with the chosen traffic source's macros filled, extra
// parameters, a copy button and a QR code. The link is built by the server as you type.
import { Link2, Plus, QrCode as QrIcon, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import type { LinkBuilderAnswer } from '../../../../schema/tools-api';
import type { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { SelectField } from '../../components/field';
import { CopyField } from '../basic-info/editor-ui';
import { buildLink, useTrafficSources } from './api';
import { useCampaignChoices } from './link-tester';
import { QrCode } from './qr-code';

type Param = { key: number; name: string; value: string };

/** The value after the user stops typing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

let nextKey = 1;

/** One half of an extra parameter row: its input, named for screen readers only. */
function ParamInput({
  id,
  label,
  placeholder,
  value,
  invalid,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  invalid?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label className="field-label sr-only" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input"
        placeholder={placeholder}
        value={value}
        aria-invalid={invalid || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

export function LinkBuilder() {
  const choices = useCampaignChoices();
  const sources = useTrafficSources();
  const [campaignId, setCampaignId] = useState('');
  const [source, setSource] = useState('');
  const [params, setParams] = useState<Param[]>([]);

  const body = useSettled(
    {
      campaignId: Number(campaignId),
      trafficSource: source,
      params: params
        .filter((p) => p.name.trim() !== '' || p.value !== '')
        .map(({ name, value }) => ({ name, value })),
    },
    250,
  );
  const built = useSWR<LinkBuilderAnswer, ApiError>(
    body.campaignId ? ['tools/link-builder', JSON.stringify(body)] : null,
    () => buildLink(body),
    { revalidateOnFocus: false, keepPreviousData: true, shouldRetryOnError: false },
  );
  const errors = built.error?.fieldErrors ?? {};

  const pickCampaign = (value: string) => {
    setCampaignId(value);
    // The campaign's own source is the likely one.
    const campaign = choices.campaigns.find((c) => String(c.campaignId) === value);
    if (campaign?.trafficSource && sources.data?.result.some((s) => s.key === campaign.trafficSource))
      setSource(campaign.trafficSource);
  };
  const update = (key: number, patch: Partial<Param>) =>
    setParams((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  const sourceOptions = [
    { value: '', label: 'None (no macros)' },
    ...(sources.data?.result ?? []).map((s) => ({ value: s.key, label: s.label })),
  ];
  // A refused input shows its error, never the link of the inputs before it.
  const answer = campaignId && !built.error ? built.data : undefined;

  return (
    <div className="tools-two">
      <Card title="Build a campaign link" description="Pick the campaign and where the ad runs.">
        <form className="form" onSubmit={(e) => e.preventDefault()} aria-label="Link builder">
          <SelectField
            id="lb-campaignId"
            label="Campaign"
            value={campaignId}
            onValueChange={pickCampaign}
            options={choices.options}
            error={errors.campaignId}
          />
          <SelectField
            id="lb-trafficSource"
            label="Traffic source"
            value={source}
            onValueChange={setSource}
            options={sourceOptions}
            error={errors.trafficSource}
            hint="Its macros fill the target and the campaign's tokens."
          />
          <fieldset className="tools-fieldset">
            <legend className="field-label">Extra parameters</legend>
            {params.length === 0 && (
              <p className="tools-muted">None: add utm_source or any other parameter.</p>
            )}
            {params.map((p, i) => (
              <div className="tools-param-row" key={p.key}>
                <ParamInput
                  id={`lb-param-name-${p.key}`}
                  label={`Parameter ${i + 1} name`}
                  placeholder="name"
                  value={p.name}
                  invalid={!!errors[`params.${i}.name`]}
                  onChange={(name) => update(p.key, { name })}
                />
                <ParamInput
                  id={`lb-param-value-${p.key}`}
                  label={`Parameter ${i + 1} value`}
                  placeholder="value or macro"
                  value={p.value}
                  onChange={(value) => update(p.key, { value })}
                />
                <button
                  type="button"
                  className="btn btn-ghost btn-md tools-icon-btn"
                  aria-label={`Remove parameter ${i + 1}`}
                  onClick={() => setParams((list) => list.filter((x) => x.key !== p.key))}
                >
                  <X size={16} aria-hidden />
                </button>
                {errors[`params.${i}.name`] && (
                  <p className="field-error tools-span-all">{errors[`params.${i}.name`]}</p>
                )}
              </div>
            ))}
            {errors.params && <p className="field-error">{errors.params}</p>}
            <div>
              <Button
                size="sm"
                icon={<Plus size={14} aria-hidden />}
                onClick={() => setParams((list) => [...list, { key: nextKey++, name: '', value: '' }])}
              >
                Add parameter
              </Button>
            </div>
          </fieldset>
        </form>
      </Card>

      <Card title="Your link" description="Paste it into the ad's URL field; the source replaces the macros.">
        {!answer ? (
          <EmptyState icon={Link2} title={built.error ? 'Check the parameters' : 'Pick a campaign'}>
            {built.error
              ? built.error.firstMessage
              : "The link appears here with the traffic source's macros, ready to copy or scan."}
          </EmptyState>
        ) : (
          <div className="stack" data-testid="built-link" aria-busy={built.isValidating || undefined}>
            <CopyField id="lb-url" label="Campaign link" value={answer.url} multiline />
            <div className="tools-qr-row">
              <QrCode value={answer.url} size={176} label="QR code of the campaign link" />
              <div className="stack">
                <p className="tools-muted tools-inline-icon">
                  <QrIcon size={16} aria-hidden /> Scan to open the link on a phone: that is a real, counted
                  visit.
                </p>
                <ul className="tools-params">
                  {answer.parameters.map((p) => (
                    <li key={p.name}>
                      <code>{p.name}</code> = <code>{p.value || '(empty)'}</code>{' '}
                      <span className="tools-muted">
                        {p.from === 'target' ? 'target' : p.from === 'token' ? 'campaign token' : 'extra'}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
            {answer.missingTokens.length > 0 && (
              <p className="tools-muted">
                This source also offers {answer.missingTokens.map((t) => t.parameter).join(', ')}: add them as
                extra tokens in the campaign editor (Apply token template) to capture them.
              </p>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
