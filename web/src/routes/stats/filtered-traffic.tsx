import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { toDmy } from '../../../../schema/dates';
import {
  FILTERED_TITLES,
  type FilteredDay,
  type FilteredTrafficAnswer,
} from '../../../../schema/stats-reports-api';
import { useApi } from '../../api/hooks';
import { Card } from '../../components/card';
import { type Column, DataTable, formatCell } from '../../components/data-table/data-table';
import { usePaging } from '../../components/data-table/page-length';
import { pageRows, type SortState, sortRows } from '../../components/data-table/sorting';
import { EmptyState } from '../../components/empty-state';

// Filtered traffic per day and why (issue 17, docs/decisions/111): clicks stored but left out of
// every number, and the conversions that still arrived on them, shown apart from the tables.

const COLUMNS: Column<FilteredDay>[] = [
  { key: 'day', label: FILTERED_TITLES.day, kind: 'text', className: 'cell-strong' },
  { key: 'clicks', label: FILTERED_TITLES.clicks, kind: 'int' },
  { key: 'bot', label: FILTERED_TITLES.bot, kind: 'int', hint: 'Crawlers and empty user agents' },
  { key: 'prefetch', label: FILTERED_TITLES.prefetch, kind: 'int', hint: 'Link previews and HEAD requests' },
  { key: 'duplicate', label: FILTERED_TITLES.duplicate, kind: 'int', hint: 'A click id received again' },
  {
    key: 'other',
    label: FILTERED_TITLES.other,
    kind: 'int',
    hint: 'Inactive campaign, no route, landing page opened directly',
  },
  { key: 'conversions', label: FILTERED_TITLES.conversions, kind: 'int' },
  { key: 'revenue', label: FILTERED_TITLES.revenue, kind: 'money' },
];

/** The filtered-traffic key of a campaign and range; `stamp` asks again after each search. */
function useFilteredTraffic(campaignId: number, start: string, end: string, stamp: unknown) {
  const path = `stats-reports/filtered?campaignId=${campaignId}&startDate=${start ? toDmy(start) : ''}&endDate=${end ? toDmy(end) : ''}`;
  return useApi<FilteredTrafficAnswer>([path, stamp], { revalidateOnFocus: false });
}

export function FilteredTrafficCard({
  campaignId,
  start,
  end,
  stamp,
}: {
  campaignId: number;
  start: string;
  end: string;
  stamp: unknown;
}) {
  const { data, error, isLoading } = useFilteredTraffic(campaignId, start, end, stamp);
  const [sort, setSort] = useState<SortState>({ key: 'day', order: 'desc' });
  const { page, perPage, setPage } = usePaging();
  const rows = data?.days ?? [];
  const sorted = sortRows(rows, sort, (r, k) => (r as Record<string, unknown>)[k]);
  const total = data?.total;
  return (
    <Card
      title="Filtered traffic"
      description="Clicks left out of every number above, per day and why; conversions on them are shown here, apart."
      flush
      className="stats-card"
      id="filtered"
    >
      {error ? (
        <p className="stats-card-note">
          The filtered traffic could not be loaded. Press Refresh above to try again.
        </p>
      ) : (
        <DataTable<FilteredDay>
          id="filtered"
          label="Filtered traffic"
          columns={COLUMNS}
          rows={pageRows(sorted, page, perPage)}
          rowKey={(r) => r.day}
          loading={isLoading}
          footer={
            total && rows.length
              ? Object.fromEntries(
                  COLUMNS.slice(1).map((c) => [
                    c.key,
                    formatCell(c.kind, total[c.key as keyof typeof total]),
                  ]),
                )
              : null
          }
          sort={sort}
          onSortChange={(s) => {
            setSort(s);
            setPage(1);
          }}
          page={page}
          perPage={perPage}
          totalCount={rows.length}
          onPageChange={setPage}
          maxHeight={420}
          empty={
            <EmptyState icon={ShieldAlert} title="No filtered clicks">
              No bot, prefetch, duplicate or otherwise filtered click in this range.
            </EmptyState>
          }
        />
      )}
    </Card>
  );
}
