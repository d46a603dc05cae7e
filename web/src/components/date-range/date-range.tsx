import { QUICK_RANGES } from '../../../../schema/dates';
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
const CUSTOM = 'custom';

/**
 * Quick choice, start and end pickers. Changing a date by hand clears the quick choice; an end
 * before the start is set to the start; 'This week' leaves the dates alone (spec 1 §2, spec 3 §2).
 */
export function DateRange({ id, value, onChange, today, withLastN, startError, endError, disabled }: Props) {
  const selected =
    value.quick === null ? CUSTOM : value.quick === 'last-n' && value.lastN === -1 ? ALL_TIME : value.quick;
  const pick = (choice: string) => {
    if (choice === CUSTOM) return;
    if (choice === ALL_TIME) onChange(chooseLastN(value, -1, today));
    else if (choice === 'last-n' && value.lastN === -1) onChange(chooseLastN(value, 30, today));
    else onChange(chooseQuick(value, choice as RangeChoice, today));
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
              if (e.target.value !== '' && Number.isFinite(n)) onChange(chooseLastN(value, n, today));
            }}
            title="-1 means all time"
            disabled={disabled}
          />
        </div>
      )}
      <div className={startError ? 'field has-error' : 'field'}>
        <label className="field-label" htmlFor={`${id}-start`}>
          Start date
        </label>
        <input
          id={`${id}-start`}
          className="input"
          type="date"
          value={value.start}
          onChange={(e) => onChange(setStart(value, e.target.value))}
          aria-invalid={startError ? true : undefined}
          aria-describedby={startError ? `${id}-start-error` : undefined}
          disabled={disabled}
        />
        {startError && (
          <p className="field-error" id={`${id}-start-error`}>
            {startError}
          </p>
        )}
      </div>
      <div className={endError ? 'field has-error' : 'field'}>
        <label className="field-label" htmlFor={`${id}-end`}>
          End date
        </label>
        <input
          id={`${id}-end`}
          className="input"
          type="date"
          value={value.end}
          min={value.start || undefined}
          onChange={(e) => onChange(setEnd(value, e.target.value))}
          aria-invalid={endError ? true : undefined}
          aria-describedby={endError ? `${id}-end-error` : undefined}
          disabled={disabled}
        />
        {endError && (
          <p className="field-error" id={`${id}-end-error`}>
            {endError}
          </p>
        )}
      </div>
    </div>
  );
}

export type { DateRangeValue } from './range';
export { describeRange, initialRange } from './range';
