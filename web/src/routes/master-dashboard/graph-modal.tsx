import { Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { reportTotal } from '../../../../schema/masterdashboard-api';
import { addBase, emptyBase, type GraphMetric, type MetricBase } from '../../../../schema/metrics';
import type { Student } from '../../../../schema/operator-api';
import { Alert } from '../../components/alert';
import { BarChart } from '../../components/charts/bar-chart';
import { GraphTabs } from '../../components/graph-tabs';
import { Modal } from '../../components/modal';
import { formatDollars, formatInteger, formatPercent } from '../../lib/format';
import { AddDataModal } from './add-data-modal';
import { MD_ERRORS, mdApi, notifyMdFailure, type Range } from './api';

/** The tabs of spec 3 §3 in the order the spec's series list them; the first is the default. */
const TABS: readonly { metric: GraphMetric; label: string }[] = [
  { metric: 'ad_spent', label: 'Ad spend' },
  { metric: 'revenue', label: 'Revenue' },
  { metric: 'net_profit', label: 'Net profit' },
  { metric: 'roi', label: 'ROI' },
  { metric: 'cpc', label: 'CPC' },
  { metric: 'cpa', label: 'CPA' },
  { metric: 'cplpc', label: 'CPLPC' },
  { metric: 'epc', label: 'EPC' },
  { metric: 'ad_ctr', label: 'Ad CTR' },
];
const PERCENT: readonly GraphMetric[] = ['roi', 'ad_ctr'];
const SIGNED: readonly GraphMetric[] = ['roi', 'net_profit'];

/** A student's campaign graph (spec 3 §2): campaign selector, graph tabs, totals, add data. */
export function GraphModal({
  student,
  range,
  onClose,
}: {
  student: Student | null;
  range: Range;
  onClose: () => void;
}) {
  const [campaignId, setCampaignId] = useState<number | null>(null);
  const [metric, setMetric] = useState<GraphMetric>('ad_spent');
  const [adding, setAdding] = useState(false);
  const campaigns = useSWR(
    student ? ['md-campaigns', student.id_hash, range.start_date, range.end_date] : null,
    () => mdApi.campaigns(student!.id_hash, range),
  );
  const list = campaigns.data?.campaigns ?? [];
  useEffect(() => {
    if (campaigns.error) notifyMdFailure(campaigns.error, MD_ERRORS.campaigns);
  }, [campaigns.error]);
  useEffect(() => {
    if (!student) {
      setCampaignId(null);
      setMetric('ad_spent');
    }
  }, [student]);
  useEffect(() => {
    if (campaignId === null && list.length > 0) setCampaignId(list[0].campaign_id);
  }, [campaignId, list]);
  const data = useSWR(
    student && campaignId
      ? ['md-campaign-data', student.id_hash, campaignId, range.start_date, range.end_date]
      : null,
    () => mdApi.campaignData(student!.id_hash, campaignId as number, range),
  );
  useEffect(() => {
    if (data.error) notifyMdFailure(data.error, MD_ERRORS.campaignData);
  }, [data.error]);

  const days = data.data?.days ?? [];
  // The range's totals from the days' base numbers, with the shared formulas (schema/metrics.ts).
  const t = reportTotal(
    days.reduce<MetricBase>(
      (a, d) =>
        addBase(a, {
          impressions: d.impressions,
          adClicks: d.ad_clicks,
          visits: d.visits,
          lpClicks: d.lp_clicks,
          conversions: d.conversions,
          revenue: d.revenue_micros,
          spend: d.ad_spend_micros,
        }),
      emptyBase(),
    ),
  );
  const totals = [
    { key: 'ad_spend', label: 'Ad spend', value: formatDollars(t.ad_spend) },
    { key: 'revenue', label: 'Revenue', value: formatDollars(t.revenue) },
    { key: 'net_profit', label: 'Net profit', value: formatDollars(t.net_profit), sign: t.net_profit },
    { key: 'roi', label: 'ROI', value: formatPercent(t.roi, 2), sign: t.roi },
    { key: 'conversions', label: 'Conversions', value: formatInteger(t.conversions) },
    { key: 'cpa', label: 'CPA', value: formatDollars(t.cpa) },
  ];
  const percent = PERCENT.includes(metric);
  const points = days.map((d) => ({ date: d.date, value: d[metric] }));

  return (
    <>
      <Modal
        open={student !== null}
        onClose={onClose}
        size="lg"
        title={student ? `${student.name}: campaign graph` : ''}
      >
        <div className="md-graph">
          <div className="md-graph-bar">
            <div className="field md-graph-campaign">
              <label className="field-label" htmlFor="md-graph-campaign">
                Campaign
              </label>
              <select
                id="md-graph-campaign"
                className="input select"
                value={campaignId ?? ''}
                onChange={(e) => setCampaignId(Number(e.target.value))}
                disabled={list.length === 0}
              >
                {list.length === 0 && (
                  <option value="">{campaigns.isLoading ? 'Loading campaigns…' : 'No campaigns'}</option>
                )}
                {list.map((c) => (
                  <option key={c.campaign_id} value={c.campaign_id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="btn btn-primary btn-md"
              onClick={() => setAdding(true)}
              disabled={!campaignId}
            >
              <Plus size={15} aria-hidden />
              <span>Add data</span>
            </button>
          </div>
          {data.error && <Alert>{MD_ERRORS.campaignDataAlert}</Alert>}
          <section className="kpi-strip md-graph-totals" aria-label="Totals" data-testid="graph-totals">
            {totals.map((t) => (
              <div key={t.key} className="kpi" data-total={t.key}>
                <span className="kpi-label">{t.label}</span>
                <span
                  className={
                    t.sign === undefined
                      ? 'kpi-value'
                      : t.sign >= 0
                        ? 'kpi-value is-positive'
                        : 'kpi-value is-negative'
                  }
                >
                  {t.value}
                </span>
              </div>
            ))}
          </section>
          <GraphTabs
            label="Graph"
            className="graph-tabs md-graph-tabs"
            options={TABS.map((t) => ({ value: t.metric, label: t.label }))}
            selected={metric}
            onSelect={setMetric}
          />
          {!data.data ? (
            <div className="chart-placeholder skeleton" />
          ) : list.length === 0 ? (
            <p className="chart-empty">This student has no campaigns yet.</p>
          ) : (
            <BarChart
              data={points}
              format={(v) => (percent ? formatPercent(v, 2) : formatDollars(v))}
              signColors={SIGNED.includes(metric)}
              label={`Daily ${TABS.find((t) => t.metric === metric)?.label}`}
              testId="md-graph"
            />
          )}
        </div>
      </Modal>
      {student && campaignId && (
        <AddDataModal
          open={adding}
          student={student}
          campaignId={campaignId}
          defaultDate={range.end_date}
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            void data.mutate();
          }}
        />
      )}
    </>
  );
}
