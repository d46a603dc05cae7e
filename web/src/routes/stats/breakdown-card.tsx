import { Layers } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toDmy } from '../../../../schema/dates';
import {
  BREAKDOWN_DIMENSIONS,
  BREAKDOWN_METRICS,
  BREAKDOWN_TITLES,
  type BreakdownAnswer,
  type BreakdownDimension,
  type BreakdownMetrics,
  type BreakdownRow,
  DIMENSION_TITLES,
} from '../../../../schema/stats-reports-api';
import { breakdownNoValue } from '../../../../schema/undefined-ratios';
import { useApi } from '../../api/hooks';
import { Card } from '../../components/card';
import { type Column, type ColumnKind, DataTable, valueCell } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import { SelectField } from '../../components/field';

// Breakdowns (issue 17, docs/decisions/112): the report grouped by a visit dimension, optionally
// a second one under each row, with the target table's metrics and totals and, on demand, the
// change against the previous period of equal length.

const KINDS: Record<keyof BreakdownMetrics, ColumnKind> = {
  visits: 'int',
  lpclicks: 'int',
  lpctr: 'percent',
  conversions: 'int',
  cr: 'percent',
  revenue: 'money',
  ad_spent: 'money',
  net: 'money',
  roi: 'percent',
  epc: 'money',
  cpa: 'money',
};
const METRIC_COLUMNS = BREAKDOWN_METRICS.map((key) => ({
  key,
  label: BREAKDOWN_TITLES[key],
  kind: KINDS[key],
}));

type Line = BreakdownRow & { key: string; child: boolean };

/** A value as the table shows it: the empty referrer is direct traffic, hours read 09:00. */
function valueLabel(by: BreakdownDimension, value: string): string {
  if (value === '') return by === 'referrer' ? '(direct or hidden)' : '(unknown)';
  if (by === 'hour') return `${value}:00`;
  return value;
}

function Change({ value }: { value: number | null | undefined }) {
  if (value === undefined) return null;
  if (value === null) return <span className="bd-change">new</span>;
  const sign = value > 0 ? '+' : '';
  return (
    <span className={`bd-change ${value > 0 ? 'is-up' : value < 0 ? 'is-down' : ''}`}>
      {sign}
      {value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%
    </span>
  );
}

export function BreakdownCard({
  campaignId,
  start,
  end,
  stamp,
  onBy,
}: {
  campaignId: number;
  start: string;
  end: string;
  stamp: unknown;
  /** Told what the card groups by, so the export writes the breakdown the screen shows. */
  onBy?: (by: BreakdownDimension) => void;
}) {
  const [by, setBy] = useState<BreakdownDimension>('country');
  useEffect(() => onBy?.(by), [by, onBy]);
  const [second, setSecond] = useState<BreakdownDimension | ''>('');
  const [compare, setCompare] = useState(false);
  const canCompare = start !== '' && end !== '';
  const path =
    `stats-reports/breakdown?campaignId=${campaignId}&startDate=${start ? toDmy(start) : ''}` +
    `&endDate=${end ? toDmy(end) : ''}&by=${by}&second=${second}&compare=${compare && canCompare ? 1 : 0}`;
  const { data, error, isLoading } = useApi<BreakdownAnswer>([path, stamp], { revalidateOnFocus: false });

  const lines: Line[] = [];
  for (const r of data?.rows ?? []) {
    lines.push({ ...r, key: r.value, child: false });
    for (const c of r.children ?? []) lines.push({ ...c, key: `${r.value}\u0000${c.value}`, child: true });
  }
  const columns: Column<Line>[] = [
    {
      key: 'value',
      label: second ? `${DIMENSION_TITLES[by]} → ${DIMENSION_TITLES[second]}` : DIMENSION_TITLES[by],
      kind: 'text',
      sortable: false,
      render: (l) =>
        l.child ? (
          <span className="bd-child">{valueLabel(second || by, l.value)}</span>
        ) : (
          <strong>{valueLabel(by, l.value)}</strong>
        ),
    },
    ...METRIC_COLUMNS.map(
      (m): Column<Line> => ({
        key: m.key,
        label: m.label,
        kind: m.kind,
        sortable: false,
        render: (l) => (
          <span className="bd-cell">
            {valueCell(m.kind, l[m.key], breakdownNoValue(l)[m.key])}
            {data?.previousPeriod && !l.child && <Change value={l.change?.[m.key]} />}
          </span>
        ),
      }),
    ),
  ];
  const total = data?.total;
  const totalNone = total ? breakdownNoValue(total) : {};
  const footer =
    total && lines.length
      ? Object.fromEntries(
          METRIC_COLUMNS.map((m) => [
            m.key,
            <span className="bd-cell" key={m.key}>
              {valueCell(m.kind, total[m.key], totalNone[m.key])}
              {data?.totalChange && <Change value={data.totalChange[m.key]} />}
            </span>,
          ]),
        )
      : null;
  const options = BREAKDOWN_DIMENSIONS.map((d) => ({ value: d, label: DIMENSION_TITLES[d] }));

  return (
    <Card
      title="Breakdown"
      description="The same numbers grouped by where, on what and when the visits came."
      flush
      className="stats-card"
      id="breakdown"
    >
      <div className="bd-controls">
        <SelectField
          id="breakdown-by"
          label="Group by"
          value={by}
          onValueChange={(v) => {
            setBy(v as BreakdownDimension);
            if (v === second) setSecond('');
          }}
          options={options}
        />
        <SelectField
          id="breakdown-then"
          label="Then by"
          value={second}
          onValueChange={(v) => setSecond(v as BreakdownDimension | '')}
          options={[{ value: '', label: 'Nothing' }, ...options.filter((o) => o.value !== by)]}
        />
        <label className="toggle-inline bd-compare" htmlFor="breakdown-compare">
          <input
            id="breakdown-compare"
            type="checkbox"
            checked={compare && canCompare}
            disabled={!canCompare}
            onChange={(e) => setCompare(e.target.checked)}
          />
          <span>Compare with the previous period</span>
        </label>
      </div>
      {data?.previousPeriod && (
        <p className="bd-period">
          Changes against {data.previousPeriod.start} to {data.previousPeriod.end}.
        </p>
      )}
      {error ? (
        <p className="stats-card-note">
          The breakdown could not be loaded. Press Refresh above to try again.
        </p>
      ) : (
        <DataTable<Line>
          id="breakdown"
          label="Breakdown"
          columns={columns}
          rows={lines}
          rowKey={(l) => l.key}
          loading={isLoading}
          footer={footer}
          rowClassName={(l) => (l.child ? 'bd-child-row' : undefined)}
          perPage={Math.max(lines.length, 1)}
          totalCount={lines.length}
          maxHeight={480}
          empty={
            <EmptyState icon={Layers} title="No visits to break down">
              Visits in this range appear here grouped by {DIMENSION_TITLES[by].toLowerCase()}.
            </EmptyState>
          }
        />
      )}
    </Card>
  );
}
