import {
  ArrowRight,
  BadgeDollarSign,
  ChartColumn,
  Coins,
  LayoutDashboard,
  MousePointerClick,
  Percent,
  ShoppingCart,
  Target,
  TrendingUp,
  Users,
  Wallet,
} from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { GRAPH_METRICS, type GraphMetric } from '../../../../schema/metrics';
import { useCampaignOptions, useInstallationToday } from '../../api/hooks';
import { Card } from '../../components/card';
import { BarChart } from '../../components/charts/bar-chart';
import { NoValue } from '../../components/data-table/no-value';
import {
  DateRange,
  type DateRangeValue,
  describeRange,
  initialRange,
} from '../../components/date-range/date-range';
import { EmptyState } from '../../components/empty-state';
import { GraphTabs } from '../../components/graph-tabs';
import { LiveSwitch } from '../../components/live-switch';
import { PageHeader } from '../../components/page-header';
import { formatDollars, formatInteger, formatPercent } from '../../lib/format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useLiveSetting, useLiveTick } from '../../lib/use-live';
import { AD_CLICKS_HINT, AdDataHint, ALL, type DashboardChoice, useDashboardStats } from './all-campaigns';
import {
  dailyBases,
  dashboardTotals,
  GRAPH_LABELS,
  graphPoint,
  PERCENT_METRICS,
  SIGNED_METRICS,
} from './dashboard-metrics';

const CAMPAIGN_KEY = 'dashboardCampaignId';
const AXIS_MONEY = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const AXIS_NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const SELECT_CAMPAIGN = 'Please select a campaign';

/** The remembered choice; "All campaigns" when none is (the default, issue 17). */
function remembered(): DashboardChoice {
  try {
    const n = Number(window.localStorage.getItem(CAMPAIGN_KEY));
    return Number.isInteger(n) && n > 0 ? n : ALL;
  } catch {
    return ALL;
  }
}

function remember(id: DashboardChoice | null) {
  try {
    if (typeof id === 'number') window.localStorage.setItem(CAMPAIGN_KEY, String(id));
    else window.localStorage.removeItem(CAMPAIGN_KEY);
  } catch {
    // storage blocked: the choice lasts for this page view
  }
}

type Tile = {
  key: string;
  label: string;
  value: string;
  icon: ReactNode;
  tone?: 'positive' | 'negative';
  /** Filled only by imported ad data: the tile says so. */
  adData?: boolean;
};

/** Dashboard (spec 1 §2, §9): all campaigns' or one campaign's totals over a date range and a daily graph. */
export function DashboardScreen() {
  useDocumentTitle('Dashboard');
  const campaigns = useCampaignOptions();
  const today = useInstallationToday();
  const [campaignId, setCampaignId] = useState<DashboardChoice | null>(remembered);
  const [range, setRange] = useState<DateRangeValue | null>(null);
  const [metric, setMetric] = useState<GraphMetric>('ad_spent');

  useEffect(() => {
    if (today && !range) setRange(initialRange('today', today));
  }, [today, range]);

  const list = campaigns.data?.result ?? [];
  // A remembered campaign that is gone (deleted, another user) is forgotten.
  const selected =
    campaigns.data && campaignId !== ALL
      ? list.some((c) => c.campaignId === campaignId)
        ? campaignId
        : ALL
      : campaignId;
  const stats = useDashboardStats(range ? selected : null, range?.start ?? '', range?.end ?? '');
  const days = useMemo(() => (stats.data ? dailyBases(stats.data) : []), [stats.data]);
  const totals = useMemo(() => dashboardTotals(days), [days]);
  const loading = !stats.data && stats.isLoading;
  // Live (issue 27): the range's numbers again every 10 s while the tab is visible, one request.
  const [live, setLive] = useLiveSetting('dashboardLive');
  useLiveTick(live && range !== null, () => {
    if (!stats.isValidating) void stats.mutate();
  });

  const tiles: Tile[] = [
    {
      key: 'ad_spend',
      label: 'Ad spend',
      value: formatDollars(totals.adSpend),
      icon: <Wallet size={15} aria-hidden />,
    },
    {
      key: 'revenue',
      label: 'Revenue',
      value: formatDollars(totals.revenue),
      icon: <Coins size={15} aria-hidden />,
    },
    {
      key: 'conversions',
      label: 'Conversions',
      value: formatInteger(totals.conversions),
      icon: <ShoppingCart size={15} aria-hidden />,
    },
    { key: 'cpa', label: 'CPA', value: formatDollars(totals.cpa), icon: <Target size={15} aria-hidden /> },
    {
      key: 'clicks',
      // Not the tracker's visits: the ad platform's count of clicks on the ads (issue 27), named
      // like Ad spend and Ad CTR, which come from the same imported ad data.
      label: 'Ad clicks',
      value: formatInteger(totals.clicks),
      icon: <MousePointerClick size={15} aria-hidden />,
      adData: true,
    },
    {
      key: 'net',
      label: 'Net',
      value: formatDollars(totals.net),
      icon: <BadgeDollarSign size={15} aria-hidden />,
      tone: totals.net > 0 ? 'positive' : totals.net < 0 ? 'negative' : undefined,
    },
    {
      key: 'visitors',
      label: 'Visitors',
      value: formatInteger(totals.visitors),
      icon: <Users size={15} aria-hidden />,
    },
    {
      key: 'lp_ctr',
      label: 'LP CTR',
      value: formatPercent(totals.lpCtr, 1),
      icon: <TrendingUp size={15} aria-hidden />,
    },
    {
      key: 'ad_ctr',
      label: 'Ad CTR',
      value: formatPercent(totals.adCtr, 2),
      icon: <Percent size={15} aria-hidden />,
      adData: true,
    },
  ];

  const percent = PERCENT_METRICS.includes(metric);
  const points = days.map((d) => ({ date: d.date, value: graphPoint(metric, d) }));
  const format = (v: number) => (percent ? formatPercent(v, 2) : formatDollars(v));
  const axisFormat = (v: number) => (percent ? `${AXIS_NUMBER.format(v)}%` : AXIS_MONEY.format(v));

  return (
    <div className="stats-screen">
      <PageHeader
        title="Dashboard"
        description={range ? describeRange(range) : 'Ad spend, revenue, profit and ROI of your campaigns.'}
        actions={
          <>
            <LiveSwitch live={live} onChange={setLive} />
            {typeof selected === 'number' && (
              <Link className="btn btn-secondary btn-md" to={`/stats/${selected}`}>
                <ChartColumn size={16} aria-hidden />
                <span>Open statistics</span>
                <ArrowRight size={14} aria-hidden />
              </Link>
            )}
          </>
        }
      />

      <section className="card dash-filters" aria-label="Filters">
        <div className={selected ? 'field stats-campaign' : 'field has-error stats-campaign'}>
          <label className="field-label" htmlFor="dash-campaign">
            Campaign
          </label>
          <select
            id="dash-campaign"
            className="input select"
            value={selected ?? ''}
            onChange={(e) => {
              const v = e.target.value;
              const id = v === ALL ? ALL : v ? Number(v) : null;
              setCampaignId(id);
              remember(id);
            }}
            aria-invalid={campaigns.data && !selected ? true : undefined}
            aria-describedby={campaigns.data && !selected ? 'dash-campaign-error' : undefined}
          >
            <option value={ALL}>All campaigns</option>
            {campaigns.isLoading && <option disabled>Loading campaigns…</option>}
            {list.map((c) => (
              <option key={c.campaignId} value={c.campaignId}>
                {c.name}
              </option>
            ))}
          </select>
          {campaigns.data && !selected && (
            <p className="field-error" id="dash-campaign-error">
              {SELECT_CAMPAIGN}
            </p>
          )}
        </div>
        {range && today && <DateRange id="dash" value={range} today={today} onChange={setRange} />}
      </section>

      {campaigns.data && (!selected || list.length === 0) ? (
        <Card>
          <EmptyState
            icon={LayoutDashboard}
            title={SELECT_CAMPAIGN}
            action={
              list.length === 0 ? (
                <Link className="btn btn-primary btn-md" to="/campaigns">
                  <span>Create a campaign</span>
                </Link>
              ) : undefined
            }
          >
            {list.length === 0
              ? 'You have no campaigns yet. Create one, put its tracking link in your ad, and its numbers show here.'
              : 'Choose a campaign above to see its ad spend, revenue, profit and a daily graph.'}
          </EmptyState>
        </Card>
      ) : (
        <>
          <section className="kpi-strip dash-totals" aria-label="Totals" data-testid="dashboard-totals">
            {tiles.map((t) => (
              <div key={t.key} className="kpi" data-total={t.key}>
                <span className="kpi-label total-label">
                  {t.icon}
                  {t.label}
                  {t.adData && (
                    <AdDataHint
                      id={`hint-${t.key}`}
                      label={t.label}
                      text={t.key === 'clicks' ? AD_CLICKS_HINT : undefined}
                    />
                  )}
                </span>
                {loading ? (
                  <span className="skeleton kpi-skeleton" />
                ) : (
                  <span
                    className={
                      t.tone && !totals.none[t.key]
                        ? `kpi-value total-value is-${t.tone}`
                        : 'kpi-value total-value'
                    }
                  >
                    {totals.none[t.key] ? <NoValue why={totals.none[t.key]} /> : t.value}
                  </span>
                )}
              </div>
            ))}
          </section>

          <Card
            title={`Daily ${GRAPH_LABELS[metric].replace(/^[A-Z][a-z]/, (m) => m.toLowerCase())}`}
            description={range ? describeRange(range) : undefined}
            className="stats-card"
            actions={
              <GraphTabs
                label="Graph"
                options={GRAPH_METRICS.map((m) => ({ value: m, label: GRAPH_LABELS[m] }))}
                selected={metric}
                onSelect={setMetric}
              />
            }
          >
            {loading ? (
              <div className="chart-placeholder skeleton" />
            ) : points.length === 0 ? (
              <p className="chart-empty">No data in this range. Try a wider date range.</p>
            ) : (
              <BarChart
                data={points}
                format={format}
                axisFormat={axisFormat}
                signColors={SIGNED_METRICS.includes(metric)}
                label={`Daily ${GRAPH_LABELS[metric]}`}
              />
            )}
          </Card>
        </>
      )}
    </div>
  );
}
