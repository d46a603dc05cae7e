import { Gauge, Network, RefreshCw, Users } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLoaderData } from 'react-router';
import useSWR from 'swr';
import type { Student, StudentsDataAnswer } from '../../../../schema/operator-api';
import { useCurrentUser, useInstallationToday } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import {
  DateRange,
  type DateRangeValue,
  describeRange,
  initialRange,
} from '../../components/date-range/date-range';
import { EmptyState } from '../../components/empty-state';
import { GraphTabs } from '../../components/graph-tabs';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { getStoredUser } from '../../lib/auth';
import { useDocumentTitle } from '../../lib/use-document-title';
import { MD_ERRORS, mdApi, notifyMdFailure, type Range } from './api';
import { GraphModal } from './graph-modal';
import { InstallationsCard } from './installations-card';
import { DetailedTable, GeneralTable } from './report-tables';
import { StudentSelect } from './student-select';

type Mode = 'detailed' | 'general';
const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'detailed', label: 'Detailed' },
  { value: 'general', label: 'General' },
];

/** Master dashboard (spec 3 §2, §4, §8): the operator's view over many student installations. */
/** The operator's dashboard on its host; elsewhere, what it is and where it lives. */
export function MasterDashboardScreen() {
  const { operator } = useLoaderData() as { operator: boolean };
  return operator ? <OperatorDashboard /> : <NotOperatorHost />;
}

function NotOperatorHost() {
  useDocumentTitle('Master dashboard');
  const isAdmin = getStoredUser()?.roleType === 'admin';
  return (
    <>
      <PageHeader title="Master dashboard" />
      <Card>
        <EmptyState
          icon={Network}
          title="The master dashboard is not on this installation"
          action={
            isAdmin && (
              <Link className="btn btn-secondary btn-md" to="/setting#operator-credential">
                Make an operator credential
              </Link>
            )
          }
        >
          <span data-testid="md-not-here">
            The master dashboard is where a coach (the operator) sees the numbers of every student’s
            installation side by side. It runs only on the operator’s own installation; this one is read by
            the operator with a credential its admin makes in Settings, under Master dashboard access.
          </span>
        </EmptyState>
      </Card>
    </>
  );
}

function OperatorDashboard() {
  useDocumentTitle('Master dashboard');
  const me = useCurrentUser();
  const today = useInstallationToday();
  const [mode, setMode] = useState<Mode>('detailed');
  const [range, setRange] = useState<DateRangeValue | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [applied, setApplied] = useState<Set<string>>(new Set());
  const [detailed, setDetailed] = useState<StudentsDataAnswer | null>(null);
  const [loadingDetailed, setLoadingDetailed] = useState(false);
  const [graphFor, setGraphFor] = useState<Student | null>(null);

  useEffect(() => {
    if (today && !range) setRange(initialRange('past-7-days', today));
  }, [today, range]);
  const dates: Range | null =
    range?.start && range.end ? { start_date: range.start, end_date: range.end } : null;

  const students = useSWR('md-students', mdApi.students, { revalidateOnFocus: false });
  useEffect(() => {
    if (students.error) notifyMdFailure(students.error, MD_ERRORS.students);
  }, [students.error]);
  const general = useSWR(
    mode === 'general' && dates ? ['md-general', dates.start_date, dates.end_date] : null,
    () => mdApi.allReports(dates as Range),
  );
  useEffect(() => {
    if (general.error) notifyMdFailure(general.error, MD_ERRORS.allReports);
  }, [general.error]);

  async function loadDetailed() {
    if (selected.size === 0) {
      notify.warning(MD_ERRORS.selectStudent);
      return;
    }
    if (!dates) return;
    setLoadingDetailed(true);
    try {
      setDetailed(await mdApi.studentsData([...selected], dates));
      setApplied(new Set(selected));
    } catch (err) {
      notifyMdFailure(err, MD_ERRORS.studentsData);
    } finally {
      setLoadingDetailed(false);
    }
  }

  // A new date range reloads the students already shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the dates trigger the reload
  useEffect(() => {
    if (mode === 'detailed' && detailed && applied.size > 0) void loadDetailed();
  }, [dates?.start_date, dates?.end_date]);

  const list = students.data?.students ?? [];
  // The role arrives as 'type|name' (spec 4 §6).
  const isAdmin = me.data?.user.role.split('|')[0] === 'admin';
  const unavailable = detailed?.unavailable ?? [];
  const generalStale = useMemo(
    () => (general.data?.students ?? []).filter((s) => s.refreshed_at === null),
    [general.data],
  );

  return (
    <div className="stats-screen md-screen">
      <PageHeader
        title="Master dashboard"
        description={range ? describeRange(range) : 'Ad spend, revenue, ROI and net profit of every student.'}
      />
      <section className="card md-filters" aria-label="Filters">
        <GraphTabs
          label="Mode"
          className="md-modes"
          options={MODES}
          selected={mode}
          onSelect={setMode}
          dataName="mode"
        />
        {range && today && <DateRange id="md" value={range} today={today} onChange={setRange} />}
        {mode === 'detailed' && (
          <div className="md-detailed-bar">
            <StudentSelect
              students={list}
              selected={selected}
              applied={applied}
              onChange={setSelected}
              loading={students.isLoading}
            />
            <Button
              variant="primary"
              busy={loadingDetailed}
              onClick={loadDetailed}
              icon={<RefreshCw size={15} aria-hidden />}
            >
              Show students
            </Button>
          </div>
        )}
      </section>

      {mode === 'detailed' ? (
        <Card title="Selected students" flush>
          {unavailable.length > 0 && (
            <div className="md-unavailable">
              <Alert>
                Not answering:{' '}
                {unavailable
                  .map((u) => `${u.name} (${u.domain.replace(/^https?:\/\//, '')}): ${u.error}`)
                  .join('; ')}
              </Alert>
            </div>
          )}
          {detailed && detailed.students.length > 0 ? (
            <DetailedTable rows={detailed.students} onGraph={setGraphFor} />
          ) : (
            <EmptyState icon={Users} title={detailed ? 'No student answered' : 'No students selected'}>
              {detailed
                ? 'None of the selected installations answered. Try again in a moment.'
                : 'Tick one or more students above, then choose Show students.'}
            </EmptyState>
          )}
        </Card>
      ) : (
        <Card
          title="All students"
          description="From the totals the operator refreshes every few minutes."
          flush
        >
          {generalStale.length > 0 && (
            <div className="md-unavailable">
              <Alert tone="info">Not refreshed yet: {generalStale.map((s) => s.name).join(', ')}</Alert>
            </div>
          )}
          {general.data && general.data.students.length > 0 ? (
            <GeneralTable rows={general.data.students} total={general.data.total} />
          ) : general.data || general.error ? (
            <EmptyState icon={Gauge} title="No students yet">
              Student installations added below show here with their totals.
            </EmptyState>
          ) : (
            <div className="chart-placeholder skeleton" />
          )}
        </Card>
      )}

      {isAdmin && <InstallationsCard students={list} onChanged={() => void students.mutate()} />}
      {dates && <GraphModal student={graphFor} range={dates} onClose={() => setGraphFor(null)} />}
    </div>
  );
}
