// Facebook-style ad performance records (spec 4 §3, §4, §9) for facebook, tiktok and taboola
// campaigns: POST starts the queued job, the screen polls it every 3 s until it says done and
// shows loading rows until then. Columns AD ID … Ad Spend, all selectable (all on by default);
// CTR, CPC and spend with 2 decimals (spec 4 §9), counts as whole numbers. Answer types are schema's (schema/integrations-api.ts).
import { Columns3 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { AD_RECORD_PLATFORMS } from '../../../../schema/integrations';
import type {
  AdPerformanceRecord,
  AdRecordsAnswer,
  AdRecordsStartAnswer,
} from '../../../../schema/integrations-api';
import { adCtr, cpc as cpcOf } from '../../../../schema/metrics';
import { api } from '../../api/client';
import { ColumnPicker } from '../../components/data-table/column-picker';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { SortState } from '../../components/data-table/sorting';

/** Spec 4 §9: the records poll every 3000 ms. */
const AD_RECORDS_POLL_MS = 3000;

const COLUMNS: Column<AdPerformanceRecord>[] = [
  { key: 'id', label: 'AD ID', kind: 'text' },
  { key: 'ad_name', label: 'AD Name', kind: 'text' },
  { key: 'visits', label: 'Visits', kind: 'int' },
  { key: 'clicks', label: 'Clicks', kind: 'int' },
  { key: 'impressions', label: 'Impressions', kind: 'int' },
  { key: 'conversions', label: 'Conversions', kind: 'int' },
  { key: 'ctr', label: 'CTR', kind: 'percent', hint: 'Clicks / impressions × 100' },
  { key: 'cpc', label: 'CPC', kind: 'money', hint: 'Ad spend / clicks' },
  { key: 'spend', label: 'Ad Spend', kind: 'money' },
];
const ALL = COLUMNS.map((c) => c.key);

export const hasAdRecords = (trafficSource: string | undefined) =>
  (AD_RECORD_PLATFORMS as readonly string[]).includes(trafficSource ?? '');

type State = { loading: boolean; rows: AdPerformanceRecord[]; error: string | null };

/** Starts the job for the campaign and range, then polls until done; a new range starts over. */
function useAdRecords(campaignId: number, startDate: string, endDate: string): State {
  const [state, setState] = useState<State>({ loading: true, rows: [], error: null });
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    setState({ loading: true, rows: [], error: null });
    const poll = async (uuid: string) => {
      try {
        const answer = await api.get<AdRecordsAnswer>(`facebook/ad-performance/${encodeURIComponent(uuid)}`);
        if (stopped) return;
        if (answer.done) setState({ loading: false, rows: answer.data, error: answer.error });
        else timer = window.setTimeout(() => void poll(uuid), AD_RECORDS_POLL_MS);
      } catch (err) {
        if (!stopped) setState({ loading: false, rows: [], error: (err as Error).message });
      }
    };
    api
      .post<AdRecordsStartAnswer>('facebook/ad-performance', { campaignId, startDate, endDate })
      .then((answer) => {
        if (!stopped) timer = window.setTimeout(() => void poll(answer.uuid), AD_RECORDS_POLL_MS);
      })
      .catch((err: Error) => {
        if (!stopped) setState({ loading: false, rows: [], error: err.message });
      });
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [campaignId, startDate, endDate]);
  return state;
}

function sorted(rows: AdPerformanceRecord[], sort: SortState): AdPerformanceRecord[] {
  const key = sort.key as keyof AdPerformanceRecord;
  const dir = sort.order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    return (
      (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * dir
    );
  });
}

type Props = { campaignId: number; startDate: string; endDate: string };

export function AdRecords({ campaignId, startDate, endDate }: Props) {
  const { loading, rows, error } = useAdRecords(campaignId, startDate, endDate);
  const [shown, setShown] = useState<string[]>(ALL);
  const [sort, setSort] = useState<SortState>({ key: 'spend', order: 'desc' });
  const columns = COLUMNS.filter((c) => shown.includes(c.key));

  const footer = useMemo(() => {
    const sum = (k: 'visits' | 'clicks' | 'impressions' | 'conversions' | 'spend') =>
      rows.reduce((n, r) => n + r[k], 0);
    const clicks = sum('clicks');
    const spend = sum('spend');
    const two = (n: number) =>
      n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const int = (n: number) => n.toLocaleString('en-US');
    return {
      visits: int(sum('visits')),
      clicks: int(clicks),
      impressions: int(sum('impressions')),
      conversions: int(sum('conversions')),
      ctr: `${two(adCtr(clicks, sum('impressions')))}%`,
      cpc: `$${two(cpcOf(spend, clicks))}`,
      spend: `$${two(spend)}`,
    };
  }, [rows]);

  return (
    <DataTable
      id="ad-records"
      label="Ad performance records"
      columns={columns}
      rows={sorted(rows, sort)}
      rowKey={(r) => r.id}
      loading={loading}
      footer={footer}
      sort={sort}
      onSortChange={setSort}
      perPage={Math.max(rows.length, 5)}
      toolbar={
        <ColumnPicker
          label="Columns"
          icon={<Columns3 size={14} aria-hidden />}
          options={COLUMNS.map((c) => ({ key: c.key, label: c.label }))}
          selected={shown}
          onChange={setShown}
          testId="ad-records-columns"
        />
      }
      empty={
        <p className="dt-empty" data-testid="ad-records-empty">
          {error ?? 'No ads had impressions or visits in this range.'}
        </p>
      }
    />
  );
}
