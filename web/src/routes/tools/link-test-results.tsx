// The link tester's answer: the chain, the warnings, the URLs, every candidate with why it was
// or was not eligible, and the observed split of many dry runs.
import { ArrowRight, CircleAlert, CircleCheck } from 'lucide-react';
import type { Candidate, LinkTestAnswer, SplitAnswer } from '../../../../schema/tools-api';
import { Card } from '../../components/card';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { formatDollars, formatInteger } from '../../lib/format';
import { CopyField } from '../basic-info/editor-ui';

const RESULT_LABEL = {
  routed: { text: 'Routed', tone: 'badge-success' },
  fallback: { text: 'Not served', tone: 'badge-warning' },
  not_available: { text: 'Link not available', tone: 'badge-warning' },
} as const;

const FALLBACK_TEXT = {
  inactive: 'The campaign is paused',
  unrouted: 'Nothing can serve this visitor',
  deleted: 'The campaign is deleted',
} as const;

function Step({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="tools-step">
      <span className="caps-label">{label}</span>
      <span className={value ? 'tools-step-value' : 'tools-step-value is-empty'}>{value ?? 'none'}</span>
    </div>
  );
}

const CANDIDATE_COLUMNS: Column<Candidate>[] = [
  {
    key: 'name',
    label: 'Name',
    render: (c) => (
      <>
        <span className="cell-strong">{c.name}</span>
        {c.url && <span className="tools-url-hint">{c.url}</span>}
      </>
    ),
  },
  { key: 'poolName', label: 'Picked within', render: (c) => c.poolName },
  { key: 'share', label: 'Share', kind: 'int' },
  { key: 'sharePct', label: 'Chance', kind: 'percent' },
  {
    key: 'status',
    label: 'Status',
    render: (c) =>
      c.chosen ? (
        <span className="badge badge-accent">Chosen</span>
      ) : c.eligible ? (
        <span className="badge badge-success">Eligible</span>
      ) : (
        <span className="tools-reason">
          <span className="badge badge-warning">Not eligible</span> {c.reasonText}
        </span>
      ),
  },
];

function CandidateTable({ title, rows }: { title: string; rows: Candidate[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="tools-table-block">
      <h3 className="tools-subtitle">{title}</h3>
      <DataTable<Candidate>
        id={`candidates-${title.toLowerCase().replace(/ /g, '-')}`}
        label={title}
        columns={CANDIDATE_COLUMNS}
        rows={rows}
        rowKey={(c) => c.id}
        rowClassName={(c) => (c.eligible ? undefined : 'tools-row-muted')}
        tableClassName="tools-table"
      />
    </div>
  );
}

const LEVEL = { path: 'Path', landing: 'Landing page', offer: 'Offer' } as const;

type SplitRow = SplitAnswer['rows'][number];

const SPLIT_COLUMNS: Column<SplitRow>[] = [
  {
    key: 'name',
    label: 'Item',
    render: (r) => (
      <>
        <span className="tools-level">{LEVEL[r.level]}</span> <span className="cell-strong">{r.name}</span>
      </>
    ),
  },
  { key: 'poolName', label: 'Picked within', render: (r) => r.poolName },
  { key: 'configuredPct', label: 'Configured', kind: 'percent' },
  { key: 'observedPct', label: 'Observed', kind: 'percent' },
  {
    key: 'count',
    label: 'Picks',
    kind: 'int',
    render: (r) => `${formatInteger(r.count)} / ${formatInteger(r.poolRuns)}`,
  },
  {
    key: 'withinTolerance',
    label: 'Check',
    render: (r) =>
      r.withinTolerance ? (
        <span className="badge badge-success">Within tolerance</span>
      ) : (
        <span className="badge badge-warning">Off by more</span>
      ),
  },
];

function SplitCard({ split }: { split: SplitAnswer }) {
  return (
    <Card
      title="Observed split"
      description={`${formatInteger(split.runs)} dry runs against the configured shares. Within tolerance: the observed share is within the stated points of the configured one (±4 points at 1,000 runs of a group, wider for fewer).`}
      flush
    >
      <DataTable<SplitRow>
        id="split"
        label="Observed split"
        columns={SPLIT_COLUMNS}
        rows={split.rows}
        rowKey={(r) => `${r.level}-${r.id}`}
        tableClassName="tools-table"
      />
      <ul className="tools-pools">
        {split.pools.map((p) => (
          <li key={`${p.level}-${p.pool}`}>
            {LEVEL[p.level]}s of {p.poolName === 'Campaign' ? 'the campaign' : p.poolName}:{' '}
            {p.degreesOfFreedom === 0 ? (
              <>one item, always picked.</>
            ) : (
              <>
                {formatInteger(p.runs)} picks, tolerance ±{p.tolerancePct} points, chi-square {p.chiSquare}{' '}
                with {p.degreesOfFreedom} degree{p.degreesOfFreedom === 1 ? '' : 's'} of freedom (limit{' '}
                {p.critical}):{' '}
                <strong>
                  {p.consistent ? 'consistent with the shares' : 'not consistent with the shares'}
                </strong>
              </>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function LinkTestResults({ answer }: { answer: LinkTestAnswer }) {
  const result = RESULT_LABEL[answer.result];
  const device =
    answer.visitor.deviceFrom === 'user_agent'
      ? `${answer.visitor.device} (from the user agent)`
      : answer.visitor.deviceFrom === 'default'
        ? `${answer.visitor.device} (default)`
        : answer.visitor.device;
  return (
    <div className="ce-tab-stack" data-testid="link-test-results">
      <Card
        title={
          <span className="tools-title-row">
            {answer.campaign.name} <span className={`badge ${result.tone}`}>{result.text}</span>
          </span>
        }
        description={`Visitor: ${device}${answer.visitor.country ? `, ${answer.visitor.country}` : ''}${answer.visitor.bot ? ', a bot' : ''}. Redirect: ${answer.redirect.description}`}
      >
        <div className="stack">
          {answer.fallback ? (
            <p className="tools-fallback">
              {FALLBACK_TEXT[answer.fallback.reason]}: the link answers{' '}
              {answer.fallback.status === 302
                ? `a 302 to the custom URL ${answer.fallback.url}`
                : 'the 404 page “Link not available”'}
              .
            </p>
          ) : (
            <div className="tools-chain">
              {answer.campaign.campaignType === 'multiple_path_type' && (
                <>
                  <Step label="Path" value={answer.path?.name ?? null} />
                  <ArrowRight size={16} aria-hidden className="tools-chain-arrow" />
                </>
              )}
              {answer.landingUrl !== null && (
                <>
                  <Step label="Landing page" value={answer.landing?.name ?? null} />
                  <ArrowRight size={16} aria-hidden className="tools-chain-arrow" />
                </>
              )}
              <Step
                label="Offer"
                value={answer.offer ? `${answer.offer.name} (${formatDollars(answer.offer.payout)})` : null}
              />
            </div>
          )}
          {answer.warnings.length > 0 ? (
            <ul className="tools-warnings" aria-label="Warnings">
              {answer.warnings.map((w) => (
                <li key={w.message} className="tools-warning">
                  <CircleAlert size={16} aria-hidden />
                  <span>{w.message}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="tools-ok">
              <CircleCheck size={16} aria-hidden /> No warnings.
            </p>
          )}
        </div>
      </Card>

      {(answer.landingUrl || answer.offerUrl) && (
        <Card
          title="Where the visitor goes"
          description="The click id shown is a test id that the tracking routes refuse. Check the URLs here: opening the click-through link would count a landing-page click without a click id."
        >
          <div className="stack">
            {answer.landingUrl && (
              <CopyField id="lt-landing-url" label="Landing-page URL" value={answer.landingUrl} />
            )}
            {answer.clickThroughUrl && (
              <CopyField id="lt-click-url" label="Click-through link" value={answer.clickThroughUrl} />
            )}
            {answer.offerUrl && (
              <CopyField
                id="lt-offer-url"
                label={`Offer URL (click id in ${answer.offerClickIdParam})`}
                value={answer.offerUrl}
              />
            )}
          </div>
        </Card>
      )}

      {answer.candidates.paths.length + answer.candidates.landings.length + answer.candidates.offers.length >
        0 && (
        <Card
          title="Candidates"
          description="Every item of the campaign, and why it can or cannot serve this visitor."
        >
          <div className="stack">
            <CandidateTable title="Paths" rows={answer.candidates.paths} />
            <CandidateTable title="Landing pages" rows={answer.candidates.landings} />
            <CandidateTable title="Offers" rows={answer.candidates.offers} />
          </div>
        </Card>
      )}

      {answer.split && <SplitCard split={answer.split} />}
    </div>
  );
}
