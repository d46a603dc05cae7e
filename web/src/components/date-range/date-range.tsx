import { type ReactNode, useState } from 'react';
import { QUICK_RANGES } from '../../../../schema/dates';
import { Field } from '../field';
import {
  chooseLastN,
  chooseQuick,
  type DateRangeValue,
  QUICK_LABELS,
  type RangeChoice,
  setEnd,
  setStart,
} from './range';

type Props = {
  /** Prefix of the controls' ids (several pickers may share a page). */
  id: string;
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
  /** The installation's day ('yyyy-MM-dd'): quick choices count from it. */
  today: string;
  /** Offer "last N days" (statistics); the dashboard has only the quick choices. */
  withLastN?: boolean;
  startError?: string | null;
  endError?: string | null;
  disabled?: boolean;
};

const ALL_TIME = 'all-time';
/** Said when an end date before the start was set to the start (the spec's rule, spec 1 §4). */
const END_MOVED = 'The end date cannot be before the start date, so it was set to the start date.';
const CUSTOM = 'custom';

/**
 * Quick choice, start and end pickers. Changing a date by hand clears the quick choice; an end
 * before the start is set to the start, and says so under the end date (issue 27); 'This week'
 * leaves the dates alone (spec 1 §2, spec 3 §2).
 */
export function DateRange({ id, value, onChange, today, withLastN, startError, endError, disabled }: Props) {
  // Set when the last change by hand moved the end to the start; any other change clears it.
  const [moved, setMoved] = useState(false);
  const change = (next: DateRangeValue, asked?: { start: string; end: string }) => {
    setMoved(Boolean(asked?.start && asked.end && asked.end < asked.start));
    onChange(next);
  };
  const selected =
    value.quick === null ? CUSTOM : value.quick === 'last-n' && value.lastN === -1 ? ALL_TIME : value.quick;
  const pick = (choice: string) => {
    if (choice === CUSTOM) return;
    if (choice === ALL_TIME) change(chooseLastN(value, -1, today));
    else if (choice === 'last-n' && value.lastN === -1) change(chooseLastN(value, 30, today));
    else change(chooseQuick(value, choice as RangeChoice, today));
  };
  const choices: RangeChoice[] = withLastN ? [...QUICK_RANGES, 'last-n'] : [...QUICK_RANGES];

  return (
    <div className="date-range" data-testid={`${id}-range`}>
      <div className="field date-range-quick">
        <label className="field-label" htmlFor={`${id}-quick`}>
          Range
        </label>
        <select
          id={`${id}-quick`}
          className="input select"
          value={selected}
          onChange={(e) => pick(e.target.value)}
          disabled={disabled}
        >
          {selected === CUSTOM && <option value={CUSTOM}>Custom range</option>}
          {choices.map((c) => (
            <option key={c} value={c}>
              {QUICK_LABELS[c]}
            </option>
          ))}
          {withLastN && <option value={ALL_TIME}>All time</option>}
        </select>
      </div>
      {withLastN && value.quick === 'last-n' && value.lastN !== -1 && (
        <div className="field date-range-n">
          <label className="field-label" htmlFor={`${id}-last-n`}>
            Days
          </label>
          <input
            id={`${id}-last-n`}
            className="input"
            type="number"
            min={-1}
            step={1}
            inputMode="numeric"
            value={value.lastN}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (e.target.value !== '' && Number.isFinite(n)) change(chooseLastN(value, n, today));
            }}
            title="-1 means all time"
            disabled={disabled}
          />
        </div>
      )}
      <DateField
        id={`${id}-start`}
        label="Start date"
        value={value.start}
        onChange={(start) => change(setStart(value, start), { start, end: value.end })}
        error={startError}
        disabled={disabled}
      />
      <DateField
        id={`${id}-end`}
        label="End date"
        value={value.end}
        min={value.start || undefined}
        onChange={(end) => change(setEnd(value, end), { start: value.start, end })}
        error={endError}
        describedBy={moved ? `${id}-end-moved` : undefined}
        disabled={disabled}
      >
        <p
          className="field-hint date-range-moved"
          id={`${id}-end-moved`}
          role="status"
          data-testid={`${id}-end-moved`}
        >
          {moved && !endError ? END_MOVED : ''}
        </p>
      </DateField>
    </div>
  );
}

/** A date input in its field; `describedBy` names a note when there is no message (the note, `children`, is empty then). */
function DateField({
  id,
  label,
  value,
  min,
  onChange,
  error,
  describedBy,
  disabled,
  children,
}: {
  id: string;
  label: string;
  value: string;
  min?: string;
  onChange: (day: string) => void;
  error?: string | null;
  describedBy?: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        className="input"
        type="date"
        value={value}
        min={min}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : describedBy}
        disabled={disabled}
      />
      {children}
    </Field>
  );
}

export type { DateRangeValue } from './range';
export { describeRange, initialRange } from './range';
