import { type FormEvent, useState } from 'react';
import type { ModifyVerb } from '../../../../schema/masterdashboard-api';
import type { Student } from '../../../../schema/operator-api';
import { ApiError } from '../../api/client';
import { useBusyAction } from '../../components/confirmed-action';
import { SelectField, TextField } from '../../components/field';
import { FormModalFooter, Modal } from '../../components/modal';
import { notify } from '../../components/toaster';
import { useOnOpen } from '../../lib/use-on-open';
import { mdApi } from './api';

// The add-data modal (spec 3 §2, §3): one metric of a day (ad_spend, ad_clicks, conversions,
// cpa, cpc, lpcpc) or a whole row (sid_token, ad_clicks, ad_spend, conversions, payout). Each
// is a modify call on the student's installation, written there as a reversible correction.

type Kind = 'row' | 'ad_spend' | 'ad_clicks' | 'conversions' | 'cpa' | 'cpc' | 'lpcpc';
const KINDS: readonly { value: Kind; label: string; verb: ModifyVerb; field?: string }[] = [
  { value: 'row', label: 'Whole row', verb: 'modify-row' },
  { value: 'ad_spend', label: 'Ad spend', verb: 'modify-adspend', field: 'ad_spend' },
  { value: 'ad_clicks', label: 'Ad clicks', verb: 'modify-adclicks', field: 'ad_clicks' },
  { value: 'conversions', label: 'Conversions', verb: 'modify-conversion', field: 'conversion' },
  { value: 'cpa', label: 'CPA', verb: 'modify-cpa', field: 'cpa' },
  { value: 'cpc', label: 'CPC', verb: 'modify-cpc', field: 'cpc' },
  { value: 'lpcpc', label: 'LP CPC', verb: 'modify-lpcpc', field: 'lpcpc' },
];

type Values = {
  value: string;
  sid_token: string;
  ad_clicks: string;
  ad_spend: string;
  conversions: string;
  payout: string;
};
type Input = {
  key: keyof Values;
  id: string;
  label: string;
  inputMode?: 'numeric' | 'decimal';
  optional?: boolean;
};

const PAYOUT: Input = { key: 'payout', id: 'md-add-payout', label: 'Payout ($)', inputMode: 'decimal' };

/** A whole row of the day: the SID token and the four numbers. */
const ROW_FIELDS: Input[] = [
  { key: 'sid_token', id: 'md-add-sid', label: 'SID token', optional: true },
  { key: 'ad_clicks', id: 'md-add-clicks', label: 'Ad clicks', inputMode: 'numeric' },
  { key: 'ad_spend', id: 'md-add-spend', label: 'Ad spend ($)', inputMode: 'decimal' },
  { key: 'conversions', id: 'md-add-conversions', label: 'Conversions', inputMode: 'numeric' },
  PAYOUT,
];

/** One metric's value, and the payout with conversions. */
const valueFields = (label: string, withPayout: boolean): Input[] => [
  { key: 'value', id: 'md-add-value', label, inputMode: 'decimal' },
  ...(withPayout ? [PAYOUT] : []),
];

type Props = {
  open: boolean;
  student: Student;
  campaignId: number;
  defaultDate: string;
  onClose: () => void;
  onSaved: () => void;
};

export function AddDataModal({ open, student, campaignId, defaultDate, onClose, onSaved }: Props) {
  const [kind, setKind] = useState<Kind>('row');
  const [date, setDate] = useState(defaultDate);
  const [v, setV] = useState<Values>({
    value: '',
    sid_token: '',
    ad_clicks: '',
    ad_spend: '',
    conversions: '',
    payout: '',
  });
  const { busy, run } = useBusyAction<'save'>();
  const [error, setError] = useState<string | null>(null);
  useOnOpen(open, defaultDate, () => {
    setDate(defaultDate);
    setError(null);
  });
  const set = (k: keyof Values) => (value: string) => {
    setV((s) => ({ ...s, [k]: value }));
    setError(null);
  };
  const spec = KINDS.find((k) => k.value === kind)!;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const fields: Record<string, string | number> =
      kind === 'row'
        ? {
            campaign_id: campaignId,
            sid_token: v.sid_token,
            ad_clicks: v.ad_clicks,
            ad_spend: v.ad_spend,
            conversions: v.conversions,
            payout: v.payout,
            date,
          }
        : {
            campaign_id: campaignId,
            start_date: date,
            end_date: date,
            [spec.field as string]: v.value,
            ...(kind === 'conversions' ? { payout: v.payout } : {}),
          };
    await run(
      'save',
      async () => {
        const answer = await mdApi.modify(spec.verb, { student_id_hash: student.id_hash, ...fields });
        // A reply carrying status_code 500 is a failure even with HTTP 200 (spec 3 §4).
        if (answer.status_code === 500) throw new Error(answer.message);
        notify.success(answer.message);
        onSaved();
      },
      (err) => {
        // The failure shows the server's message (spec 3 §8).
        const message = err instanceof ApiError ? err.firstMessage : (err as Error).message;
        setError(message);
        notify.error(message);
      },
    );
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="md"
      title={`Add data for ${student.name}`}
      footer={<FormModalFooter form="md-add-data" busy={busy !== null} onCancel={onClose} />}
    >
      <form id="md-add-data" className="md-add-form" onSubmit={submit} noValidate>
        <SelectField
          id="md-add-kind"
          label="Metric"
          value={kind}
          onValueChange={(x) => setKind(x as Kind)}
          options={KINDS.map((k) => ({ value: k.value, label: k.label }))}
        />
        <TextField id="md-add-date" label="Date" type="date" value={date} onValueChange={setDate} required />
        {(kind === 'row' ? ROW_FIELDS : valueFields(spec.label, kind === 'conversions')).map((f) => (
          <TextField
            key={f.id}
            id={f.id}
            label={f.label}
            inputMode={f.inputMode}
            optional={f.optional}
            value={v[f.key]}
            onValueChange={set(f.key)}
          />
        ))}
        {error && (
          <p className="field-error md-add-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
