import { ChartColumn, Pencil, TrendingUp } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toDmy } from '../../../../schema/dates';
import {
  numberSetsOf,
  STATS_MESSAGES,
  showsNumberSet,
  targetDefaultSort,
} from '../../../../schema/stats-api';
import type { ExportTable } from '../../../../schema/stats-reports-api';
import { DEFAULT_LANDING_COLUMNS } from '../../../../schema/stats-reports-api';
import { type CampaignAlert, exportStatistics, type StatisticsRequestBody } from '../../api/endpoints';
import { useCampaignActivity, useCampaignOptions, useInstallationToday } from '../../api/hooks';
import { InsufficientBalanceNotice } from '../../components/balance/balance-notice';
import { Card } from '../../components/card';
import { ActivityChart } from '../../components/charts/activity-chart';
import { usePageLength } from '../../components/data-table/page-length';
import { type DateRangeValue, describeRange, initialRange } from '../../components/date-range/date-range';
import { EmptyState } from '../../components/empty-state';
import { LiveSwitch } from '../../components/live-switch';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { useDateFormat } from '../../lib/date-format';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AdRecords, hasAdRecords } from './ad-records';
import { Aggregator } from './aggregator';
import { AlertsList } from './alerts-list';
import { BreakdownCard } from './breakdown-card';
import { customEventNames, targetColumns, targetFooter } from './columns';
import { CostsPanel } from './costs-panel';
import { ExportControl, type ExportFormat } from './export-control';
import { FilteredTrafficCard } from './filtered-traffic';
import { ForceSyncPanel } from './force-sync-panel';
import { FreshnessLine, StatsFailure } from './freshness-line';
import { KpiStrip } from './kpi-strip';
import { LandingTable } from './landing-table';
import { showLiveIntentStatus } from './liveintent-status';
import { OfferTable, PathTable } from './placement-tables';
import { PlatformSyncStatusPanel } from './platform-sync-status';
import {
  type Applied,
  baseBody,
  checkFilters,
  type FilterProblem,
  firstPage,
  fullBody,
  LANDING_DEFAULT_SORT,
  landingExportColumns,
  TARGET_DEFAULT_SORT,
  type TableQuery,
  withMetrics,
} from './query';
import { StatsFilters } from './stats-filters';
import { TargetTable } from './target-table';
import { TestResultsModal, type TestSubject } from './test-results-modal';
import { useCreativeStatus } from './use-creative-status';
import { useLiveStats } from './use-live-stats';
import { toastFailure, useStatistics } from './use-statistics';
import { useStatusSwitches } from './use-status-switches';

/** Statistics of one campaign (spec 3): filters, alerts, activity, targets, landings, offers, paths, elements, costs. */
export function StatsScreen() {
  useDocumentTitle('Statistics');
  const params = useParams();
  const navigate = useNavigate();
  const routeId = /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const campaigns = useCampaignOptions();
  const today = useInstallationToday();
  const perPage = usePageLength();
  const dateFormat = useDateFormat();
  const stats = useStatistics();

  const [campaignId, setCampaignId] = useState<number | null>(routeId);
  const [range, setRange] = useState<DateRangeValue | null>(null);
  const [problem, setProblem] = useState<FilterProblem | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  /** Raised when a platform sync ran: the Ad costs table reads again. */
  const [costsVersion, setCostsVersion] = useState(0);
  const [targetQuery, setTargetQuery] = useState<TableQuery>(firstPage(TARGET_DEFAULT_SORT));
  const [landingQuery, setLandingQuery] = useState<TableQuery>(firstPage(LANDING_DEFAULT_SORT));
  const [visibleMetrics, setVisibleMetrics] = useState<string[]>([]);
  const [metricsFor, setMetricsFor] = useState<number | null>(null);
  const [alerts, setAlerts] = useState<CampaignAlert[]>([]);
  const [balanceError, setBalanceError] = useState(false);
  const [aggregate, setAggregate] = useState<StatisticsRequestBody | null>(null);
  const [testSubject, setTestSubject] = useState<TestSubject | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    if (today && !range) setRange(initialRange('past-7-days', today));
  }, [today, range]);

  const campaignList = campaigns.data?.result ?? [];
  const campaignsRef = useRef(campaignList);
  campaignsRef.current = campaignList;
  const known = routeId !== null && campaignList.some((c) => c.campaignId === routeId);
  const answer = stats.answer;
  const activity = useCampaignActivity(
    applied?.campaignId ?? null,
    applied?.start ? toDmy(applied.start) : '',
    applied?.end ? toDmy(applied.end) : '',
  );

  // The server answers a repeat of a request from its stored job for 30 s; after a status switch
  // the landing table is asked for afresh so its switches and colours show the new state.
  // The elements' statuses follow their pages: after a landing switch they are computed again.
  const switchedAt = useRef(0);
  const breakdownBy = useRef('country');
  const setBreakdownBy = useCallback((by: string) => {
    breakdownBy.current = by;
  }, []);
  const { idsOf, toggleLanding, toggleOffer, togglePath } = useStatusSwitches(stats, switchedAt, () => {
    if (aggregate) setAggregate({ ...aggregate, force: true });
  });
  const afterSwitch = () => ({ force: Date.now() - switchedAt.current < 30_000 });

  // The latest filters and table queries, for searches started from older closures (costs saved).
  const latest = useRef({ applied, targetQuery, landingQuery });
  latest.current = { applied, targetQuery, landingQuery };

  const runSearch = useCallback(
    async (id: number | null, r: DateRangeValue, force: boolean, fresh: boolean) => {
      if (!today) return;
      const found = checkFilters(id, r.start, r.end, today);
      setProblem(found);
      if (found || id === null) return;
      const { applied, targetQuery, landingQuery } = latest.current;
      const same = !fresh && applied?.campaignId === id;
      const source = campaignsRef.current.find((c) => c.campaignId === id)?.trafficSource ?? '';
      const a: Applied = {
        campaignId: id,
        trafficSource: source,
        start: r.start,
        end: r.end,
        extraTokens: same ? applied.extraTokens : [],
        landingExtraTokens: same ? applied.landingExtraTokens : [],
        noInput: same ? applied.noInput : false,
        metrics: same ? applied.metrics : undefined,
        landingDeleted: same ? applied.landingDeleted : false,
        offerDeleted: same ? applied.offerDeleted : false,
        pathDeleted: same ? applied.pathDeleted : false,
      };
      // apple-news-feed campaigns open sorted by conversions (spec 3 §1).
      const t = same ? { ...targetQuery, page: 1 } : firstPage(targetDefaultSort(source));
      const l = same ? { ...landingQuery, page: 1 } : firstPage(LANDING_DEFAULT_SORT);
      setApplied(a);
      setTargetQuery(t);
      setLandingQuery(l);
      const data = await stats.search(fullBody(a, t, l, perPage, { force }));
      if (!data) return;
      setAlerts(data.campaign.metainfo?.alerts ?? []);
      setBalanceError(data.studentBalanceError === true);
      showLiveIntentStatus(id, data.liveintentStatus);
      if (metricsFor !== id) {
        setVisibleMetrics((data.metrics ?? []).filter((m) => m.ticked).map((m) => m.parameter));
        setMetricsFor(id);
      }
      setAggregate(data.campaignVisits && data.landingQueueKey ? { ...baseBody(a), force } : null);
      if (force) void activity.mutate();
    },
    [today, perPage, stats, metricsFor, activity],
  );

  // Entering /stats/:id runs the search once the campaign list and today are known (spec 3 §2).
  const autoRan = useRef<number | null>(null);
  useEffect(() => {
    if (!range || !today || !campaigns.data || routeId === null || !known) return;
    if (autoRan.current === routeId) return;
    autoRan.current = routeId;
    setCampaignId(routeId);
    void runSearch(routeId, range, false, true);
  }, [range, today, campaigns.data, routeId, known, runSearch]);

  // The shared page length changed: every table goes back to page 1.
  const lastPerPage = useRef(perPage);
  useEffect(() => {
    if (lastPerPage.current === perPage) return;
    lastPerPage.current = perPage;
    if (!applied || !answer?.campaignVisits) return;
    const t = { ...targetQuery, page: 1 };
    const l = { ...landingQuery, page: 1 };
    setTargetQuery(t);
    setLandingQuery(l);
    void stats.searchTargets(fullBody(applied, t, l, perPage));
    if (answer.landingQueueKey !== null)
      void stats.searchPlacements(
        fullBody(applied, t, l, perPage, { force: Date.now() - switchedAt.current < 30_000 }),
      );
  }, [perPage, applied, answer, targetQuery, landingQuery, stats]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!range) return;
    if (campaignId !== null && campaignId !== routeId) {
      navigate(`/stats/${campaignId}`);
      return;
    }
    void runSearch(campaignId, range, true, false);
  };

  // Refresh and Retry ask for the numbers of the applied filters afresh (never the stored job).
  const refresh = () => {
    if (applied && range)
      void runSearch(applied.campaignId, { ...range, start: applied.start, end: applied.end }, true, false);
  };

  const [live, setLive] = useLiveStats(
    applied?.campaignId ?? null,
    stats.freshness,
    stats.searching,
    refresh,
  );

  const changeTarget = (q: TableQuery) => {
    if (!applied) return;
    setTargetQuery(q);
    void stats.searchTargets(fullBody(applied, q, landingQuery, perPage));
  };
  const changeLanding = (q: TableQuery) => {
    if (!applied) return;
    setLandingQuery(q);
    void stats.searchPlacements(fullBody(applied, targetQuery, q, perPage, afterSwitch()));
  };
  const changeApplied = (patch: Partial<Applied>, part: 'target' | 'placements') => {
    if (!applied) return;
    const a = { ...applied, ...patch };
    setApplied(a);
    if (part === 'target') {
      const t = { ...targetQuery, page: 1 };
      setTargetQuery(t);
      void stats.searchTargets(fullBody(a, t, landingQuery, perPage), true);
    } else {
      const l = { ...landingQuery, page: 1 };
      setLandingQuery(l);
      void stats.searchPlacements(fullBody(a, targetQuery, l, perPage, afterSwitch()));
    }
  };

  const campaign = answer?.campaign;
  const creative = useCreativeStatus(campaign, stats.target.rows);
  const tokens = answer?.extraTokens ?? [];
  const metrics = answer?.metrics ?? [];
  // The ad platform's numbers: under the source's number set (spec 3 §1), or when costs carry them.
  const showAdNumbers =
    showsNumberSet(numberSetsOf(campaign?.trafficSource ?? '')) || (stats.totals?.impressionsTotal ?? 0) > 0;
  const columns = useMemo(
    () =>
      targetColumns({
        tokens: tokens.filter((t) => applied?.extraTokens.includes(t.parameter)),
        metrics: metrics.filter(
          (m) => visibleMetrics.includes(m.parameter) || stats.target.eventColumns?.includes(m.parameter),
        ),
        showAdNumbers,
        customEvents: customEventNames(stats.target.rows),
      }),
    [tokens, metrics, visibleMetrics, applied, showAdNumbers, stats.target.rows, stats.target.eventColumns],
  );

  const exportCsv = async (table: ExportTable | '', format: ExportFormat) => {
    if (!range || !today) return;
    const found = checkFilters(campaignId, range.start, range.end, today);
    setProblem(found);
    if (found || campaignId === null) return;
    const a: Applied =
      applied && applied.campaignId === campaignId
        ? { ...applied, start: range.start, end: range.end }
        : {
            campaignId,
            trafficSource: campaignList.find((c) => c.campaignId === campaignId)?.trafficSource ?? '',
            start: range.start,
            end: range.end,
            extraTokens: [],
            landingDeleted: false,
            offerDeleted: false,
            pathDeleted: false,
          };
    setExporting(true);
    try {
      const res = await exportStatistics({
        ...fullBody(a, targetQuery, landingQuery, perPage),
        // Every column shown, custom events included; the server titles them as the screen does.
        targetData: columns.map((c) => c.key),
        landingData: landingExportColumns(a, DEFAULT_LANDING_COLUMNS),
        tables: table ? [table] : [],
        format,
        breakdownBy: breakdownBy.current,
      });
      if (res.downloadLink) {
        window.location.assign(res.downloadLink);
        notify.success(`${res.fileName ?? 'Campaign.csv'} is downloading.`);
      } else {
        notify.warning(res.message || STATS_MESSAGES.noDataToExport);
      }
    } catch (err) {
      toastFailure(err);
    } finally {
      setExporting(false);
    }
  };

  // Ad performance comes from the platform too: it shows even before the first visit.
  const adRecordsCard = applied && hasAdRecords(campaign?.trafficSource) && applied.start && applied.end && (
    <Card
      title="Ad performance"
      description="Per ad, from the platform and this tracker."
      flush
      className="stats-card"
      id="ad-records"
    >
      <AdRecords campaignId={applied.campaignId} startDate={applied.start} endDate={applied.end} />
    </Card>
  );

  const name = campaign?.name ?? campaignList.find((c) => c.campaignId === routeId)?.name;
  const noData = answer !== null && !answer.campaignVisits;
  const isDirect = campaign?.campaignType === 'direct_link';
  const unknown = campaigns.data && routeId !== null && !known;

  return (
    <div className="stats-screen">
      <PageHeader
        eyebrow="Statistics"
        title={name ?? 'Statistics'}
        description={
          applied
            ? `${describeRange(applied, dateFormat)}${campaign?.trafficSource ? ` · ${campaign.trafficSource}` : ''}`
            : 'Visits, conversions, revenue, spend and ROI per target, landing page, offer and path.'
        }
        actions={
          <>
            {routeId !== null && known && (
              <Link className="btn btn-ghost btn-md" to={`/basic-info/${routeId}`}>
                <Pencil size={16} aria-hidden />
                <span>Edit campaign</span>
              </Link>
            )}
            <LiveSwitch live={live} onChange={setLive} />
            <ExportControl busy={exporting} onExport={(table, format) => void exportCsv(table, format)} />
          </>
        }
      />

      <StatsFilters
        campaigns={campaignList}
        campaignsLoading={campaigns.isLoading}
        campaignId={campaignId}
        onCampaignChange={(id) => {
          setCampaignId(id);
          setProblem(null);
          if (id !== null && id !== routeId) navigate(`/stats/${id}`);
        }}
        range={range}
        onRangeChange={(v) => {
          setRange(v);
          if (problem?.field !== 'campaign') setProblem(null);
        }}
        today={today}
        problem={problem}
        searching={stats.searching}
        onSubmit={onSubmit}
      />

      {applied && <InsufficientBalanceNotice show={balanceError} />}
      {applied && <AlertsList campaignId={applied.campaignId} alerts={alerts} onChange={setAlerts} />}
      {applied && (
        <PlatformSyncStatusPanel
          campaignId={applied.campaignId}
          onSynced={() => {
            setCostsVersion((v) => v + 1);
            if (range) void runSearch(applied.campaignId, range, true, false);
          }}
        />
      )}

      {unknown ? (
        <Card>
          <EmptyState icon={ChartColumn} title="Campaign not found">
            It may have been deleted, or it belongs to another user. Pick one of your campaigns above.
          </EmptyState>
        </Card>
      ) : !applied ? (
        <Card>
          {routeId === null ? (
            <EmptyState icon={ChartColumn} title="Select a campaign">
              Choose a campaign and a date range, then press Search.
            </EmptyState>
          ) : (
            <div className="stats-loading" aria-busy>
              <span className="skeleton" style={{ width: '40%' }} />
              <span className="skeleton" style={{ width: '65%' }} />
              <span className="skeleton" style={{ width: '52%' }} />
            </div>
          )}
        </Card>
      ) : noData ? (
        <>
          <Card>
            <EmptyState
              icon={TrendingUp}
              title="No report data yet"
              action={
                <Link className="btn btn-primary btn-md" to={`/basic-info/${applied.campaignId}`}>
                  <span>Open the campaign's links</span>
                </Link>
              }
            >
              This campaign has not received a visit. Put its tracking link in your ad; visits, clicks and
              conversions appear here within seconds.
            </EmptyState>
          </Card>
          {adRecordsCard}
        </>
      ) : (
        <>
          {stats.failed ? (
            <StatsFailure busy={stats.searching} onRetry={refresh} />
          ) : (
            <FreshnessLine freshness={stats.freshness} busy={stats.searching} onRefresh={refresh} />
          )}
          <KpiStrip totals={stats.totals} loading={stats.totalsLoading && !stats.totals} />

          <Card
            title="Daily visitors"
            description={describeRange(applied, dateFormat)}
            className="stats-card"
            id="activity"
          >
            {activity.data ? (
              activity.data.length > 0 ? (
                <ActivityChart data={activity.data} />
              ) : (
                <p className="chart-empty">No visits in this range.</p>
              )
            ) : (
              <div className="chart-placeholder skeleton" />
            )}
          </Card>

          <Card
            title="Targets"
            description={
              creative.legend || "Per ad target (creative) from the tracking link's target parameter."
            }
            flush
            className="stats-card"
            id="targets"
          >
            <TargetTable
              state={stats.target}
              query={targetQuery}
              perPage={perPage}
              columns={columns}
              onQueryChange={changeTarget}
              metrics={metrics}
              visibleMetrics={visibleMetrics}
              onMetricsChange={(metrics) => {
                setVisibleMetrics(metrics);
                const next = withMetrics(applied, metrics);
                if (next.refetch) changeApplied({ metrics }, 'target');
                else setApplied(next.applied);
              }}
              tokens={tokens}
              selectedTokens={applied.extraTokens}
              onTokensChange={(extraTokens) => changeApplied({ extraTokens }, 'target')}
              hideEmpty={applied.noInput}
              onHideEmptyChange={(noInput) => {
                changeApplied({ noInput }, 'target');
                if (applied.landingExtraTokens?.length) changeApplied({ noInput }, 'placements');
              }}
              footer={targetFooter(stats.totals)}
              totals={stats.totals}
              totalsLoading={stats.totalsLoading}
              creative={creative}
            />
          </Card>

          {adRecordsCard}

          {!isDirect && (
            <Card
              title="Landing pages"
              description="Inactive pages are shaded blue, deleted ones grey."
              flush
              className="stats-card"
              id="landings"
            >
              <LandingTable
                state={stats.landing}
                query={landingQuery}
                perPage={perPage}
                onQueryChange={changeLanding}
                tokens={tokens}
                selectedTokens={applied.landingExtraTokens}
                onTokensChange={(landingExtraTokens) => changeApplied({ landingExtraTokens }, 'placements')}
                showDeleted={applied.landingDeleted}
                onShowDeletedChange={(landingDeleted) => changeApplied({ landingDeleted }, 'placements')}
                onToggle={(r, a) => void toggleLanding(r, a)}
                busyIds={idsOf('l')}
                onShowTests={(r) =>
                  setTestSubject({
                    name: r.landing_page,
                    summary: r.test_summary,
                    tests: r.test_data,
                    nameOf: (id) =>
                      stats.landing.rows.find((x) => x.page_id === Number(id))?.landing_page ??
                      `Landing page #${id}`,
                  })
                }
              />
            </Card>
          )}

          <div className="stats-grid">
            <Card title="Offer pages" flush className="stats-card" id="offers">
              <OfferTable
                rows={answer?.offer?.offerRecords ?? []}
                total={answer?.offer?.offerTotal ?? null}
                loading={stats.searching}
                showDeleted={applied.offerDeleted}
                onShowDeletedChange={(offerDeleted) => changeApplied({ offerDeleted }, 'placements')}
                onToggle={(r, a) => void toggleOffer(r, a)}
                busyIds={idsOf('o')}
              />
            </Card>
            <Card title="Paths" flush className="stats-card" id="paths">
              <PathTable
                rows={answer?.path?.pathRecords ?? []}
                total={answer?.path?.pathTotal ?? null}
                loading={stats.searching}
                showDeleted={applied.pathDeleted}
                onShowDeletedChange={(pathDeleted) => changeApplied({ pathDeleted }, 'placements')}
                onToggle={(r, a) => void togglePath(r, a)}
                busyIds={idsOf('p')}
              />
            </Card>
          </div>

          <BreakdownCard
            campaignId={applied.campaignId}
            start={applied.start}
            end={applied.end}
            stamp={stats.freshness?.generatedAt}
            onBy={setBreakdownBy}
          />

          <FilteredTrafficCard
            campaignId={applied.campaignId}
            start={applied.start}
            end={applied.end}
            stamp={stats.freshness?.generatedAt}
          />

          {!isDirect && (
            <Aggregator
              request={aggregate}
              onShowTests={setTestSubject}
              onStatusChange={() => {
                // Pages were switched: read the landing table again rather than the stored job.
                switchedAt.current = Date.now();
                if (applied)
                  void stats.searchPlacements(
                    fullBody(applied, targetQuery, landingQuery, perPage, { force: true }),
                  );
              }}
            />
          )}
        </>
      )}

      {applied && today && !unknown && (
        <CostsPanel
          campaignId={applied.campaignId}
          start={applied.start}
          end={applied.end}
          today={today}
          version={costsVersion}
          onChanged={() => range && void runSearch(applied.campaignId, range, true, false)}
        />
      )}

      {applied && range && campaign?.trafficSource === 'liveintent' && (
        <ForceSyncPanel
          campaignId={applied.campaignId}
          onDone={() => void runSearch(applied.campaignId, range, true, false)}
        />
      )}

      <TestResultsModal subject={testSubject} onClose={() => setTestSubject(null)} />
    </div>
  );
}
