import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Search } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { formatDollars, formatInteger, formatPercent } from '../../lib/format';
import { IconButton } from '../button';
import { CellText } from './cell-text';
import { NoValue } from './no-value';
import { setPageLength } from './page-length';
import { PageLengthSelect } from './page-length-select';
import { lastPage, nextSort, type SortState } from './sorting';

// THE server-side data table of the app (HOUSE-STYLE 22): sticky header, sortable columns with
// a visible direction (descending first), search on Enter, a footer row of totals, skeleton rows
// while loading, an empty state, right-aligned tabular numbers, paging with the shared page length.

export type ColumnKind = 'text' | 'int' | 'money' | 'percent' | 'decimal';

export type Column<R> = {
  key: string;
  label: string;
  /** The header is read out but not shown (an actions column). */
  hideLabel?: boolean;
  kind?: ColumnKind;
  /** Decimals of percent and decimal columns (default 2). */
  digits?: number;
  /** Default true. */
  sortable?: boolean;
  /** A cell of one's own (switches, icons); otherwise the value is formatted by kind. */
  render?: (row: R) => ReactNode;
  /** The raw value (default row[key]). */
  value?: (row: R) => unknown;
  /** A longer explanation in the header's title. */
  hint?: string;
  className?: string;
  /** Why the row's value has no value (a ratio over 0, issue 27): the cell shows "—" with it. */
  noValue?: (row: R) => string | undefined;
};

/** Formats a value by column kind: money with $ and 2 decimals, percents, integers en-US. */
export function formatCell(kind: ColumnKind | undefined, value: unknown, digits = 2): ReactNode {
  if (value === null || value === undefined || value === '') return kind && kind !== 'text' ? '—' : '';
  switch (kind) {
    case 'money':
      // Landing rows arrive already written ('$1,234.56').
      return typeof value === 'string' ? value : formatDollars(Number(value));
    case 'percent':
      return formatPercent(Number(value), digits);
    case 'int':
      return formatInteger(Number(value));
    case 'decimal':
      return Number(value).toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    default:
      return <CellText text={String(value)} />;
  }
}

function cellOf<R>(c: Column<R>, row: R, raw: unknown): ReactNode {
  const why = c.noValue?.(row);
  return why ? <NoValue why={why} /> : formatCell(c.kind, raw, c.digits);
}

/** A value cell (row or footer): "—" with the reason when the ratio has no value (issue 27). */
export function valueCell(kind: ColumnKind, value: unknown, why?: string, digits?: number): ReactNode {
  return why ? <NoValue why={why} /> : formatCell(kind, value, digits);
}

const isNumeric = (kind?: ColumnKind) => kind !== undefined && kind !== 'text';

type Props<R> = {
  /** Prefix of test ids and control ids. */
  id: string;
  /** Accessible name of the table. */
  label: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (row: R, index: number) => string | number;
  /** Skeleton rows instead of the rows (a request or poll is running). */
  loading?: boolean;
  /** Footer totals by column key; the first column says "Total" unless given. */
  footer?: Record<string, ReactNode> | null;
  footerLoading?: boolean;
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  page?: number;
  perPage?: number;
  totalCount?: number;
  onPageChange?: (page: number) => void;
  /**
   * Told when the shared page length changes here. Without it the table asks for page 1; a
   * screen that reloads every table on that change itself passes its own handler.
   */
  onPerPageChange?: (perPage: number) => void;
  /** Search applied on Enter (or the search button). */
  search?: { value: string; placeholder?: string; onSearch: (value: string) => void };
  /** Controls at the right of the toolbar (pickers, toggles). */
  toolbar?: ReactNode;
  rowClassName?: (row: R) => string | undefined;
  /** Attributes of a row's <tr> that tests and styles find it by (data-student="…"). */
  rowAttributes?: (row: R) => Record<`data-${string}`, string>;
  /** Classes added to the <table> (a screen's own cell styles). */
  tableClassName?: string;
  empty?: ReactNode;
  /** Taller tables scroll inside with the header stuck to the top. */
  maxHeight?: number;
};

function SortIcon({ active, order }: { active: boolean; order?: 'asc' | 'desc' }) {
  if (!active) return <ArrowUpDown size={12} aria-hidden className="dt-sort-icon is-idle" />;
  return order === 'asc' ? (
    <ArrowUp size={12} aria-hidden className="dt-sort-icon" />
  ) : (
    <ArrowDown size={12} aria-hidden className="dt-sort-icon" />
  );
}

function SearchBox({ id, search }: { id: string; search: NonNullable<Props<unknown>['search']> }) {
  const [text, setText] = useState(search.value);
  useEffect(() => setText(search.value), [search.value]);
  return (
    <form
      className="dt-search"
      onSubmit={(e) => {
        e.preventDefault();
        search.onSearch(text.trim());
      }}
    >
      <Search size={14} aria-hidden className="dt-search-icon" />
      <input
        id={`${id}-search`}
        className="input input-sm"
        type="search"
        value={text}
        placeholder={search.placeholder ?? 'Search and press Enter'}
        aria-label={search.placeholder ?? 'Search'}
        onChange={(e) => {
          setText(e.target.value);
          // Clearing the box with its × shows everything again at once.
          if (e.target.value === '' && search.value !== '') search.onSearch('');
        }}
      />
    </form>
  );
}

export function DataTable<R>({
  id,
  label,
  columns,
  rows,
  rowKey,
  loading,
  footer,
  footerLoading,
  sort,
  onSortChange,
  page = 1,
  perPage = 10,
  totalCount,
  onPageChange,
  onPerPageChange,
  search,
  toolbar,
  rowClassName,
  rowAttributes,
  tableClassName,
  empty,
  maxHeight = 560,
}: Props<R>) {
  const count = totalCount ?? rows.length;
  const pages = lastPage(count, perPage);
  const skeletons = Math.min(perPage, Math.max(rows.length, 3));
  const from = count === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(count, page * perPage);

  return (
    <div className="dt" data-testid={`${id}-table`} aria-busy={loading || undefined}>
      {(search || toolbar) && (
        <div className="dt-toolbar">
          {search ? <SearchBox id={id} search={search as NonNullable<Props<unknown>['search']>} /> : <span />}
          {toolbar && <div className="dt-toolbar-end">{toolbar}</div>}
        </div>
      )}
      {/* A table wider or taller than its card scrolls inside it; the keyboard reaches that
          scroll through the focusable region (WCAG 2.1.1), not only the mouse. */}
      <section
        className="dt-wrap"
        style={{ maxHeight }}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        tabIndex={0}
        aria-label={`${label}, scrollable`}
      >
        <table className={['table dt-table', tableClassName].filter(Boolean).join(' ')} aria-label={label}>
          <thead>
            <tr>
              {columns.map((c) => {
                const sortable = c.sortable !== false && !!onSortChange;
                const active = sort?.key === c.key;
                const cls = [isNumeric(c.kind) && 'num', c.className].filter(Boolean).join(' ') || undefined;
                return (
                  <th
                    key={c.key}
                    scope="col"
                    className={cls}
                    title={c.hint}
                    aria-sort={active ? (sort?.order === 'asc' ? 'ascending' : 'descending') : undefined}
                    data-col={c.key}
                  >
                    {c.hideLabel ? (
                      <span className="sr-only">{c.label}</span>
                    ) : sortable ? (
                      <button
                        type="button"
                        className={active ? 'dt-sort is-active' : 'dt-sort'}
                        onClick={() => onSortChange?.(nextSort(sort, c.key))}
                      >
                        <span>{c.label}</span>
                        <SortIcon active={active} order={sort?.order} />
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {loading ? (
              Array.from({ length: skeletons }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                <tr key={i} className="dt-skeleton-row" data-testid={`${id}-loading`}>
                  {columns.map((c) => (
                    <td key={c.key} className={isNumeric(c.kind) ? 'num' : undefined}>
                      <span className="skeleton" style={{ width: isNumeric(c.kind) ? 48 : '70%' }} />
                    </td>
                  ))}
                </tr>
              ))
            ) : rows.length === 0 ? (
              <tr className="dt-empty-row">
                <td colSpan={columns.length}>{empty ?? <p className="dt-empty">No rows.</p>}</td>
              </tr>
            ) : (
              rows.map((row, i) => (
                <tr
                  key={rowKey(row, i)}
                  className={rowClassName?.(row)}
                  data-row={String(rowKey(row, i))}
                  {...rowAttributes?.(row)}
                >
                  {columns.map((c) => {
                    const cls =
                      [isNumeric(c.kind) && 'num', c.className].filter(Boolean).join(' ') || undefined;
                    const raw = c.value ? c.value(row) : (row as Record<string, unknown>)[c.key];
                    return (
                      <td key={c.key} className={cls} data-col={c.key}>
                        {c.render ? c.render(row) : cellOf(c, row, raw)}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
          {footer !== undefined && (rows.length > 0 || loading) && (
            <tfoot>
              <tr data-testid={`${id}-footer`}>
                {columns.map((c, i) => (
                  <td key={c.key} className={isNumeric(c.kind) ? 'num' : undefined} data-col={c.key}>
                    {footerLoading || (loading && !footer) ? (
                      <span className="skeleton" style={{ width: 48 }} />
                    ) : footer && footer[c.key] !== undefined ? (
                      footer[c.key]
                    ) : i === 0 ? (
                      'Total'
                    ) : (
                      ''
                    )}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </section>
      {onPageChange && count > 0 && (
        <div className="dt-pager">
          <PageLengthSelect
            className="dt-page-length"
            value={perPage}
            onChange={(n) => {
              setPageLength(n);
              if (onPerPageChange) onPerPageChange(n);
              else onPageChange(1);
            }}
            testId={`${id}-page-length`}
          />
          <span className="dt-range" data-testid={`${id}-range`}>
            {from}–{to} of {formatInteger(count)}
          </span>
          <div className="dt-pages">
            <IconButton
              icon={ChevronLeft}
              label="Previous page"
              disabled={page <= 1 || loading}
              onClick={() => onPageChange(page - 1)}
            />
            <span className="dt-page-of">
              Page {page} of {pages}
            </span>
            <IconButton
              icon={ChevronRight}
              label="Next page"
              disabled={page >= pages || loading}
              onClick={() => onPageChange(page + 1)}
            />
          </div>
        </div>
      )}
    </div>
  );
}
