// One table of the manage screen's tabs (spec 4 §2): the platform's objects of one kind with a
// column list, each row with Edit (its edit page) and Delete (asked first, then the list
// reloads); 'Loading' or the error while it loads, the empty state when there are none.
import type { LucideIcon } from 'lucide-react';
import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { mutate } from 'swr';
import { Button } from '../../components/button';
import { useConfirmedAction } from '../../components/confirmed-action';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
import { send } from './api';
import { errorText, toast } from './shared';

const DELETE_CONFIRM = {
  title: 'Are you sure?',
  message: "You won't be able to revert this!",
  confirmLabel: 'Yes, delete it!',
  cancelLabel: 'Cancel',
  danger: true,
};

export type ObjectColumn<T> = {
  header: string;
  /** Right-aligned numbers. */
  num?: boolean;
  className?: string;
  render: (row: T) => ReactNode;
};

function Loading({ error }: { error: unknown }) {
  if (error)
    return (
      <p className="li-error" role="alert">
        {errorText(error)}
      </p>
    );
  return (
    <div className="li-loading">
      <Spinner label="Loading" />
    </div>
  );
}

function Actions({
  edit,
  onDelete,
  busy,
  name,
}: {
  edit: string;
  onDelete: () => void;
  busy: boolean;
  name: string;
}) {
  return (
    <div className="li-row-actions">
      <Link className="btn btn-ghost btn-sm" to={edit} aria-label={`Edit ${name}`}>
        <Pencil size={14} aria-hidden />
        <span>Edit</span>
      </Link>
      <Button
        variant="ghost"
        size="sm"
        busy={busy}
        onClick={onDelete}
        aria-label={`Delete ${name}`}
        icon={<Trash2 size={14} aria-hidden />}
      >
        Delete
      </Button>
    </div>
  );
}

export function ObjectsTable<T>({
  campaignId,
  rows,
  error,
  label,
  empty,
  testId,
  refOf,
  nameOf,
  columns,
  editPath,
  remove,
}: {
  campaignId: number;
  /** Undefined while loading. */
  rows: T[] | undefined;
  error: unknown;
  /** The table's name: 'Line items'. */
  label: string;
  empty: { icon: LucideIcon; title: string; text: string };
  /** Rows are `<testId>-row-<ref>`. */
  testId: string;
  /** The object's platform id. */
  refOf: (row: T) => string;
  nameOf: (row: T) => string;
  columns: ObjectColumn<T>[];
  /** The edit page: /manage-liveintent/campaign/<id>/<editPath>/<ref>/edit. */
  editPath: string;
  /** The delete call: its verb, its body for the row, the list to reload and the toast on failure. */
  remove: { verb: string; body: (row: T) => Record<string, unknown>; list: string; failure?: string };
}) {
  const { busy, run } = useConfirmedAction<string>();
  const onDelete = (row: T) =>
    run(
      refOf(row),
      DELETE_CONFIRM,
      async () => {
        const res = await send(remove.verb, { campaignId, ...remove.body(row) });
        toast.success(res.message);
        await mutate(remove.list);
      },
      (err) => toast.error(remove.failure ?? errorText(err)),
    );

  if (!rows) return <Loading error={error} />;
  if (rows.length === 0)
    return (
      <EmptyState icon={empty.icon} title={empty.title}>
        {empty.text}
      </EmptyState>
    );
  return (
    <section
      className="table-wrap"
      aria-label={`${label}, scrollable`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
      tabIndex={0}
    >
      <table className="table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.num ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
            <th scope="col" className="actions">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={refOf(row)} data-testid={`${testId}-row-${refOf(row)}`}>
              {columns.map((c) => (
                <td key={c.header} className={c.num ? 'num' : c.className}>
                  {c.render(row)}
                </td>
              ))}
              <td className="actions">
                <Actions
                  name={nameOf(row)}
                  edit={`/manage-liveintent/campaign/${campaignId}/${editPath}/${refOf(row)}/edit`}
                  busy={busy === refOf(row)}
                  onDelete={() => void onDelete(row)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
