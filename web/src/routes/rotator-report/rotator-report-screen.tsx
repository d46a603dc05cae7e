import { ChartColumn, Link2Off } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import useSWR from 'swr';
import type { ReportRow } from '../../../../schema/money-api';
import { ApiError } from '../../api/client';
import { reportData, reportPeriods } from '../../api/money';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { SelectField } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { notify } from '../../components/toaster';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ReportCharts } from './report-charts';
import { periodLabel } from './report-metrics';
import { ReportTable } from './report-tables';

/** The participant's email travels in the URL hash (#email=...), so it never reaches a server log. */
function emailFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('email')?.trim() ?? '';
}

/**
 * The public rotator offer report (spec 4 "Rotator offer report"): no login, the participant's
 * email is the key. Periods load first and the last is selected; monthly totals run from the
 * start date; the daily table and the charts reload when the period changes.
 */
export function RotatorReportScreen() {
  useDocumentTitle('Rotator offer report');
  const { offer = '' } = useParams();
  const { hash } = useLocation();
  const email = emailFromHash(hash);
  const periods = useSWR(email ? ['report-periods', offer, email] : null, () => reportPeriods(offer, email), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const dates = periods.data?.dates ?? [];
  // The chosen period belongs to one offer and email; another report starts at its last period.
  const reportKey = `${offer}|${email}`;
  const [choice, setChoice] = useState<{ key: string; index: number } | null>(null);
  const index = choice?.key === reportKey ? choice.index : dates.length - 1;
  const period = dates[index];

  const months = useSWR(
    periods.data ? ['report-months', offer, email, periods.data.start_date] : null,
    () => reportData(offer, { group_by: 'month', start_date: periods.data!.start_date, email }),
    { revalidateOnFocus: false },
  );
  const days = useSWR(
    period ? ['report-days', offer, email, period.start_date, period.end_date] : null,
    () =>
      reportData(offer, { group_by: 'day', start_date: period.start_date, end_date: period.end_date, email }),
    { revalidateOnFocus: false, keepPreviousData: false },
  );

  const missing = !email || (periods.error instanceof ApiError && periods.error.status === 404);
  useEffect(() => {
    const err = periods.error ?? months.error ?? days.error;
    if (err && !(err instanceof ApiError && err.status === 404))
      notify.error(err instanceof ApiError ? err.firstMessage : 'The report could not be loaded.', {
        id: 'report',
      });
  }, [periods.error, months.error, days.error]);

  if (missing) {
    return (
      <div className="page report-page">
        <Card>
          <EmptyState icon={Link2Off} title="This report is not available">
            Open the report from the link you were sent: it carries the participant's email after #email=.
          </EmptyState>
        </Card>
      </div>
    );
  }

  return (
    <div className="page report-page">
      <PageHeader
        eyebrow="Rotator offer report"
        title={periods.data?.offer_name || `Offer ${offer}`}
        description={`Results of the offer for ${email}, by month and by day.`}
        actions={
          <SelectField
            id="report-period"
            label="Period"
            fieldClassName="report-period"
            value={period ? String(index) : ''}
            disabled={!dates.length}
            onValueChange={(v) => setChoice({ key: reportKey, index: Number(v) })}
            options={
              dates.length
                ? dates.map((d, i) => ({ value: String(i), label: periodLabel(d.start_date, d.end_date) }))
                : [{ value: '', label: 'Loading…' }]
            }
          />
        }
      />
      <ReportCard
        id="report-months"
        title="Monthly totals"
        description={periods.data ? `Since ${periods.data.start_date}.` : undefined}
        by="month"
        answer={months.data}
      />
      <ReportCard
        id="report-days"
        title="Daily figures"
        description={period ? periodLabel(period.start_date, period.end_date) : undefined}
        by="day"
        answer={days.data}
      />
      <Card title="Charts" description="Each day of the selected period.">
        {days.data ? (
          days.data.report.length ? (
            <ReportCharts rows={days.data.report} />
          ) : (
            <EmptyState icon={ChartColumn} title="No days in this period yet" />
          )
        ) : (
          <div className="chart-placeholder skeleton" style={{ height: 200 }} aria-hidden />
        )}
      </Card>
    </div>
  );
}

/** A card holding one report table, titled like the table; skeleton rows until the answer is in. */
function ReportCard({
  id,
  title,
  description,
  by,
  answer,
}: {
  id: string;
  title: string;
  description?: string;
  by: 'month' | 'day';
  answer: { report: readonly ReportRow[] } | undefined;
}) {
  return (
    <Card title={title} description={description} flush>
      <ReportTable id={id} label={title} by={by} rows={answer?.report} loading={!answer} />
    </Card>
  );
}
