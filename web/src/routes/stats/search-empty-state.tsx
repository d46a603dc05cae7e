import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/empty-state';

/**
 * The empty state of a searchable statistics table: while a search is applied it says that
 * nothing matches and how to see every row again; otherwise the table's own title and text.
 */
export function SearchEmptyState({
  icon,
  search,
  noun,
  title,
  children,
}: {
  icon: LucideIcon;
  search: string;
  /** One row of the table, as in "No target matches this search". */
  noun: string;
  /** The title without a search. */
  title: string;
  /** The text without a search. */
  children: ReactNode;
}) {
  return (
    <EmptyState icon={icon} title={search ? `No ${noun} matches this search` : title}>
      {search ? `Clear the search box to see every ${noun}.` : children}
    </EmptyState>
  );
}
