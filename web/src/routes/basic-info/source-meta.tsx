// The traffic source's fields of the campaign's metainfo on the basic tab (spec 2 §3, decision
// 171): Facebook's dataset id and event name (with a test event sent as them), Blaze's placement
// type, direct placement URL and campaign id, and the Jeeng campaign id. They save with the tab.
import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import {
  BLAZE_CAMPAIGN_PLACEMENTS,
  DEFAULT_FACEBOOK_EVENT,
  metaText,
  withMetaText,
} from '../../../../schema/campaign-metainfo';
import { CONNECTION_MESSAGES as CM } from '../../../../schema/connections-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { CodeField, SelectField, TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { testConversion } from '../integrations/api';
import { placementLabel } from './banner-modal';
import { basicId } from './campaign-form';

type Meta = Record<string, unknown>;
type Props = {
  metainfo: Meta;
  errors: Record<string, string | undefined>;
  onMetainfo: (metainfo: Meta) => void;
};

/** A text field of the metainfo at `path`; its id and error key are `metainfo.<path>`. */
function MetaField({
  path,
  label,
  hint,
  metainfo,
  errors,
  onMetainfo,
  ...rest
}: Props & { path: string; label: string; hint?: string; placeholder?: string; inputMode?: 'numeric' }) {
  const key = `metainfo.${path}`;
  return (
    <CodeField
      id={basicId(key)}
      label={label}
      optional
      value={metaText(metainfo, path)}
      onValueChange={(v) => onMetainfo(withMetaText(metainfo, path, v.trim()))}
      error={errors[key]}
      hint={hint}
      {...rest}
    />
  );
}

export function FacebookEvents(props: Props) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const dataset = metaText(props.metainfo, 'dataset_id');
  const event = metaText(props.metainfo, 'event_name') || DEFAULT_FACEBOOK_EVENT;
  const send = async () => {
    setBusy(true);
    try {
      await testConversion({ dataset_id: dataset, test_event_code: code.trim(), event_name: event });
      notify.success(CM.conversionOk);
    } catch (err) {
      // The server's own word when it refused the request (no Facebook account, a bad field);
      // Facebook's refusal (502, 504) is the spec's failure message.
      const refused = err instanceof ApiError && err.status < 500;
      notify.error(refused ? err.firstMessage : CM.conversionFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="form">
      <div className="form-grid">
        <MetaField
          {...props}
          path="dataset_id"
          label="Dataset ID"
          inputMode="numeric"
          hint="The Facebook dataset (pixel) the campaign's conversions are reported to."
        />
        <MetaField
          {...props}
          path="event_name"
          label="Event name"
          placeholder={DEFAULT_FACEBOOK_EVENT}
          hint={`The Conversions API event of a conversion; ${DEFAULT_FACEBOOK_EVENT} when empty.`}
        />
      </div>
      <div className="form-grid">
        <TextField
          id={basicId('facebook-test-code')}
          label="Test event code"
          optional
          value={code}
          onValueChange={setCode}
          autoComplete="off"
          hint="From Events Manager's Test events: sends one event as this campaign's."
        />
        <div className="ce-switch-cell">
          <Button
            variant="secondary"
            busy={busy}
            disabled={dataset === '' || code.trim() === ''}
            onClick={() => void send()}
            icon={<FlaskConical size={16} aria-hidden />}
          >
            Send a test event
          </Button>
        </div>
      </div>
    </div>
  );
}

const PLACEMENT_OPTIONS = [
  { value: '', label: 'Not set' },
  ...BLAZE_CAMPAIGN_PLACEMENTS.map((p) => ({
    value: p,
    label: p === 'DEDICATED_PLACEMENT' ? 'Dedicated' : placementLabel(p),
  })),
];

export function BlazeMeta(props: Props) {
  const path = 'blaze.current_placement_type';
  return (
    <div className="form-grid ce-grid-3">
      <SelectField
        id={basicId(`metainfo.${path}`)}
        label="Placement type"
        optional
        value={metaText(props.metainfo, path)}
        onValueChange={(v) => props.onMetainfo(withMetaText(props.metainfo, path, v))}
        options={PLACEMENT_OPTIONS}
        error={props.errors[`metainfo.${path}`]}
        hint="A dedicated placement is paid from the Blaze dedicated wallet."
      />
      <MetaField
        {...props}
        path="blaze.placement_direct_url"
        label="Placement direct URL"
        placeholder="https://"
      />
      <MetaField {...props} path="blaze.campaign_id" label="Blaze campaign ID" />
    </div>
  );
}

export function JeengMeta(props: Props) {
  return (
    <div className="form-grid">
      <MetaField
        {...props}
        path="jeeng.campaign_id"
        label="Jeeng campaign ID"
        hint="The campaign's id at Jeeng, as its reports name it."
      />
    </div>
  );
}
