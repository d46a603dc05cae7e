import { Pencil, Receipt, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import {
  COST_FIELD_ORDER,
  COST_MESSAGES,
  COST_SOURCE_LABELS,
  type CostRow,
  type CostUploadAnswer,
  costInputSchema,
} from '../../../../schema/costs-api';
import { ApiError } from '../../api/client';
import { deleteCost, saveCost } from '../../api/endpoints';
import { useCosts } from '../../api/hooks';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { showSaveFailure, useBusyAction } from '../../components/confirmed-action';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import { FileUpload } from '../../components/file-upload';
import { notify } from '../../components/toaster';
import { zodErrors } from '../../lib/forms';

// Ad costs by day and target (docs/statistics.md, "Costs: which source wins"): entered here,
// uploaded as CSV (date, target, impressions, clicks, spend), or synced from the platform.

type Props = {
  campaignId: number;
  /** yyyy-MM-dd or '' */
  start: string;
  end: string;
  /** The installation's day, the default date of a new entry. */
  today: string;
  /** Costs changed: the statistics should be read again. */
  onChanged: () => void;
  /** Raised when costs changed elsewhere (a platform sync ran): the table is read again. */
  version?: number;
};

const FORM = 'cost';

export function CostsPanel({ campaignId, start, end, today, onChanged, version = 0 }: Props) {
  const { data, mutate, isLoading } = useCosts(campaignId, start, end);
  useEffect(() => {
    if (version > 0) void mutate();
  }, [version, mutate]);
  const confirm = useConfirm();
  const empty = { date: today, target: '', impressions: '', ad_clicks: '', spend: '' };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const { busy, run } = useBusyAction<'save'>();
  const set = (k: keyof typeof empty, v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const input = { campaignId, ...values };
    const checked = costInputSchema.safeParse(input);
    if (!checked.success) {
      setErrors(zodErrors(checked.error, COST_FIELD_ORDER));
      return;
    }
    await run(
      'save',
      async () => {
        const answer = await saveCost(input);
        notify.success(answer.message);
        setValues({ ...empty, date: values.date });
        setErrors({});
        await mutate();
        onChanged();
      },
      (err) => {
        showSaveFailure(err, setErrors);
      },
    );
  };

  const remove = async (row: CostRow) => {
    const ok = await confirm({
      title: 'Remove cost',
      message: `Remove the ${COST_SOURCE_LABELS[row.source] ?? row.source} cost of ${row.target || 'no target'} on ${row.date}?`,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      const answer = await deleteCost({ campaignId, date: row.date, target: row.target, source: row.source });
      notify.success(answer.message);
      await mutate();
      onChanged();
    } catch (err) {
      if (err instanceof ApiError) notify.error(err.firstMessage);
    }
  };

  const columns: Column<CostRow>[] = [
    { key: 'date', label: 'Date', kind: 'text' },
    {
      key: 'target',
      label: 'Target',
      kind: 'text',
      render: (r) => r.target || <span className="cell-muted">(none)</span>,
    },
    { key: 'source', label: 'Source', kind: 'text', render: (r) => COST_SOURCE_LABELS[r.source] ?? r.source },
    { key: 'impressions', label: 'Impressions', kind: 'int' },
    { key: 'ad_clicks', label: 'Clicks', kind: 'int' },
    { key: 'spend', label: 'Spend', kind: 'money' },
    {
      key: 'actions',
      label: '',
      sortable: false,
      className: 'actions',
      render: (r) =>
        r.source === 'sync' ? null : (
          <span className="row-actions">
            <button
              type="button"
              className="icon-btn"
              aria-label={`Edit the cost of ${r.target || 'no target'} on ${r.date}`}
              title="Edit"
              onClick={() => {
                setValues({
                  date: r.date,
                  target: r.target,
                  impressions: String(r.impressions),
                  ad_clicks: String(r.ad_clicks),
                  spend: String(r.spend),
                });
                document.getElementById(`${FORM}-spend`)?.focus();
              }}
            >
              <Pencil size={15} aria-hidden />
            </button>
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove the cost of ${r.target || 'no target'} on ${r.date}`}
              title="Remove"
              onClick={() => void remove(r)}
            >
              <Trash2 size={15} aria-hidden />
            </button>
          </span>
        ),
    },
  ];

  const field = (name: keyof typeof empty, label: string, props: Record<string, unknown> = {}) => (
    <div className={errors[name] ? 'field has-error' : 'field'}>
      <label className="field-label" htmlFor={`${FORM}-${name}`}>
        {label}
      </label>
      <input
        id={`${FORM}-${name}`}
        className="input"
        value={values[name]}
        onChange={(e) => set(name, e.target.value)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${FORM}-${name}-error` : undefined}
        {...props}
      />
      {errors[name] && (
        <p className="field-error" id={`${FORM}-${name}-error`}>
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <Card
      title="Ad costs"
      description="Spend, impressions and ad clicks per day and target. A platform sync wins over entries and uploads; without any, spend is the campaign's CPC times its visits."
      className="stats-card"
      id="costs"
      actions={
        <FileUpload<CostUploadAnswer>
          id="costs-upload"
          path="costs/upload"
          variant="button"
          label="Upload CSV"
          extensions={['csv']}
          requiredMessage={COST_MESSAGES.csvRequired}
          invalidMessage={COST_MESSAGES.csvInvalid}
          fields={{ campaignId }}
          onUploaded={(answer) => {
            notify.success(answer.message ?? `${answer.rows} costs uploaded.`);
            void mutate();
            onChanged();
          }}
        />
      }
    >
      <form id={FORM} className="cost-form" onSubmit={submit} noValidate>
        {field('date', 'Date', { type: 'date', max: today })}
        {field('target', 'Target', { placeholder: 'Creative or ad id', autoComplete: 'off' })}
        {field('impressions', 'Impressions', { inputMode: 'numeric', placeholder: '0' })}
        {field('ad_clicks', 'Clicks', { inputMode: 'numeric', placeholder: '0' })}
        {field('spend', 'Spend ($)', { inputMode: 'decimal', placeholder: '0.00' })}
        <div className="cost-form-actions">
          <Button type="submit" variant="primary" busy={busy !== null}>
            Save cost
          </Button>
        </div>
      </form>
      <p className="field-hint cost-hint">
        CSV columns: date (yyyy-MM-dd), target, impressions, clicks, spend.
      </p>
      <div className="cost-table">
        <DataTable<CostRow>
          id="costs"
          label="Ad costs"
          columns={columns}
          rows={data?.result ?? []}
          rowKey={(r) => `${r.date}|${r.target}|${r.source}`}
          loading={isLoading}
          maxHeight={320}
          empty={
            <EmptyState icon={Receipt} title="No costs in this range">
              Enter a day's spend above or upload a CSV; until then spend is the campaign's CPC times visits.
            </EmptyState>
          }
        />
      </div>
    </Card>
  );
}
