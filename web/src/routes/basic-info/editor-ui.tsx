// Small building blocks of the campaign editor: switch, device picker, copy field, selection,
// sortable header, traffic share. Kept here because only this screen uses them.
import { ArrowDown, ArrowUp, ArrowUpDown, Check, Copy } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { notify } from '../../components/toaster';
import { withToggled } from '../../lib/sets';
import type { Agent } from './types';

const COPIED = 'Copied to Clipboard.';
const COPY_FAILED = 'Error Occured.';

async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(COPIED);
  } catch {
    notify.error(COPY_FAILED);
  }
}

type SwitchProps = {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  busy?: boolean;
};

/** An on/off switch (role="switch") with its label to the right. */
export function Switch({ id, checked, onChange, label, description, disabled, busy }: SwitchProps) {
  return (
    <div className={['ce-switch-row', disabled && 'is-disabled'].filter(Boolean).join(' ')}>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-busy={busy || undefined}
        aria-describedby={description ? `${id}-description` : undefined}
        className={['ce-switch', checked && 'is-on', busy && 'is-busy'].filter(Boolean).join(' ')}
        disabled={disabled}
        onClick={() => {
          if (!busy) onChange(!checked);
        }}
      >
        <span className="ce-switch-thumb" aria-hidden />
      </button>
      <div className="ce-switch-text">
        <label htmlFor={id} className="ce-switch-label">
          {label}
        </label>
        {description && (
          <p className="field-hint" id={`${id}-description`}>
            {description}
          </p>
        )}
      </div>
    </div>
  );
}

const ANY_AGENT = 1;

export function parseAgents(list: string): number[] {
  const ids = list
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  return ids.length ? ids : [ANY_AGENT];
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** 'Any device', or the device names: 'Desktop, Mobile'. */
export function devicesLabel(list: string, agents: Agent[]): string {
  const ids = parseAgents(list);
  if (ids.includes(ANY_AGENT)) return 'Any device';
  return ids.map((id) => capitalise(agents.find((a) => a.id === id)?.agent_name ?? `#${id}`)).join(', ');
}

/** Devices as checkboxes: 'Any device' alone, or any set of the others. */
export function DevicePicker({
  id,
  agents,
  value,
  onChange,
  error,
}: {
  id: string;
  agents: Agent[];
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string | null;
}) {
  const toggle = (agentId: number, on: boolean) => {
    if (agentId === ANY_AGENT) return onChange([ANY_AGENT]);
    const others = value.filter((v) => v !== ANY_AGENT && v !== agentId);
    const next = on ? [...others, agentId].sort((a, b) => a - b) : others;
    onChange(next.length ? next : [ANY_AGENT]);
  };
  return (
    <fieldset className={['field', error && 'has-error'].filter(Boolean).join(' ')} id={id} data-field={id}>
      <legend className="field-label">Devices</legend>
      <div className="ce-checks">
        {agents.map((a) => (
          <label key={a.id} className="ce-check">
            <input
              type="checkbox"
              checked={value.includes(a.id)}
              onChange={(e) => toggle(a.id, e.target.checked)}
              data-testid={`${id}-${a.agent_name}`}
            />
            <span>{a.id === ANY_AGENT ? 'Any device' : capitalise(a.agent_name)}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        <p className="field-hint">Visitors on other devices are not sent here.</p>
      )}
    </fieldset>
  );
}

/** A read-only value with a copy button ('Copied to Clipboard.'). */
export function CopyField({
  id,
  label,
  value,
  hint,
  multiline = false,
}: {
  id: string;
  label: ReactNode;
  value: string;
  hint?: ReactNode;
  multiline?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyToClipboard(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="field ce-copy-field" data-field={id}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="ce-copy-row">
        {multiline ? (
          <textarea id={id} className="input textarea mono ce-copy-value" readOnly value={value} rows={3} />
        ) : (
          <input
            id={id}
            className="input mono ce-copy-value"
            readOnly
            value={value}
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
        <button
          type="button"
          className="btn btn-secondary btn-md ce-copy-btn"
          onClick={() => void copy()}
          aria-label={`${copied ? 'Copied' : 'Copy'} ${typeof label === 'string' ? label : 'value'}`}
          data-testid={`${id}-copy`}
        >
          {copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
          <span>{copied ? 'Copied' : 'Copy'}</span>
        </button>
      </div>
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
}

/** The selected ids of a table; stale ids (rows gone from the list) drop out. */
export function useSelection(ids: number[]) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const present = useMemo(() => new Set(ids), [ids]);
  const live = useMemo(() => new Set([...selected].filter((id) => present.has(id))), [selected, present]);
  return {
    selected: live,
    count: live.size,
    all: ids.length > 0 && live.size === ids.length,
    some: live.size > 0 && live.size < ids.length,
    toggle: (id: number, on: boolean) => setSelected((s) => withToggled(s, [id], on)),
    toggleAll: (on: boolean) => setSelected(on ? new Set(ids) : new Set()),
    clear: () => setSelected(new Set()),
  };
}

export type Sort = { key: string; dir: 'asc' | 'desc' };

/** A column header that sorts, with its direction visible and announced (aria-sort). */
export function SortHeader({
  label,
  column,
  sort,
  onSort,
  num,
}: {
  label: string;
  column: string;
  sort: Sort;
  onSort: (sort: Sort) => void;
  num?: boolean;
}) {
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.dir === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      className={num ? 'num' : undefined}
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className={['ce-sort', active && 'is-active'].filter(Boolean).join(' ')}
        onClick={() => onSort({ key: column, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })}
      >
        {label}
        <Icon size={12} aria-hidden />
      </button>
    </th>
  );
}

export function sortRows<T>(rows: T[], sort: Sort, value: (row: T, key: string) => string | number): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * sign;
    return String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: 'base' }) * sign;
  });
}

/**
 * Each row's percent of the traffic of its group (path or option): shares are weights among
 * the group's live, active rows; paused and deleted rows get none.
 */
export function trafficPercents<T>(
  rows: T[],
  id: (row: T) => number,
  group: (row: T) => number | string,
  share: (row: T) => number,
  live: (row: T) => boolean,
): Map<number, number> {
  const totals = new Map<number | string, number>();
  for (const r of rows) if (live(r)) totals.set(group(r), (totals.get(group(r)) ?? 0) + share(r));
  const out = new Map<number, number>();
  for (const r of rows) {
    const total = totals.get(group(r)) ?? 0;
    out.set(id(r), live(r) && total > 0 ? (share(r) / total) * 100 : 0);
  }
  return out;
}

type Selection = ReturnType<typeof useSelection>;

/** The header of a table's check column: select all, indeterminate when some rows are chosen. */
export function SelectAllHeader({
  selection,
  label,
  disabled,
}: {
  selection: Selection;
  label: string;
  disabled?: boolean;
}) {
  return (
    <th className="ce-check-col">
      <input
        type="checkbox"
        aria-label={label}
        checked={selection.all}
        disabled={disabled}
        ref={(el) => {
          if (el) el.indeterminate = selection.some;
        }}
        onChange={(e) => selection.toggleAll(e.target.checked)}
      />
    </th>
  );
}

/** A row's cell of the check column: the row chosen or not. */
export function SelectCell({ selection, id, label }: { selection: Selection; id: number; label: string }) {
  return (
    <td className="ce-check-col">
      <input
        type="checkbox"
        aria-label={label}
        checked={selection.selected.has(id)}
        onChange={(e) => selection.toggle(id, e.target.checked)}
      />
    </td>
  );
}
