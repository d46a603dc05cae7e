import { History } from 'lucide-react';
import type { BalanceAnswer, BalanceLog } from '../../../../schema/money-api';
import { CAUSE_LABELS, WALLET_LABELS } from '../../components/balance/wallets';
import { type Column, DataTable } from '../../components/data-table/data-table';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format';

const COLUMNS: Column<BalanceLog>[] = [
  { key: 'created_at', label: 'Date', sortable: false, render: (r) => formatDateTime(r.created_at) },
  { key: 'platform', label: 'Wallet', sortable: false, render: (r) => WALLET_LABELS[r.platform] },
  {
    key: 'amount',
    label: 'Amount',
    kind: 'money',
    sortable: false,
    render: (r) => <span className={r.amount < 0 ? 'is-negative' : 'is-positive'}>{r.amountFormatted}</span>,
  },
  { key: 'cause', label: 'Type', sortable: false, render: (r) => CAUSE_LABELS[r.cause] },
  { key: 'note', label: 'Note', sortable: false },
  {
    key: 'addedByName',
    label: 'Added by',
    sortable: false,
    render: (r) => (r.role ? `${r.addedByName} (${r.role})` : r.addedByName),
  },
];

type Props = {
  data?: BalanceAnswer;
  loading: boolean;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
};

/** Every ledger entry of the wallets, newest first, paged on the server. */
export function BalanceLogTable({ data, loading, page, perPage, onPageChange, onPerPageChange }: Props) {
  return (
    <DataTable<BalanceLog>
      id="balance-log"
      label="Balance log"
      columns={COLUMNS}
      rows={data?.balanceLogs ?? []}
      rowKey={(r) => r.id}
      loading={loading && !data}
      page={page}
      perPage={perPage}
      totalCount={data?.pagination.total ?? 0}
      onPageChange={onPageChange}
      onPerPageChange={onPerPageChange}
      empty={
        <EmptyState icon={History} title="No balance changes yet">
          Adjustments, rotator fundings and daily ad spend will be listed here.
        </EmptyState>
      }
    />
  );
}
