import { Layers } from 'lucide-react';
import type { StatsExtraToken } from '../../api/endpoints';
import { ColumnPicker } from '../../components/data-table/column-picker';
import type { Column } from '../../components/data-table/data-table';

// Grouping a table by the campaign's extra tokens (spec 3 §3: extraTokens, extraTokenFields,
// landingExtraTokens, landingExtraTokenFields, noInputTokens): any number of tokens at once, one
// row per combination of their values.

type Props = {
  /** Prefix of the ids and test ids: 'token' for the targets, 'landing-token' for landing pages. */
  idPrefix: string;
  tokens: StatsExtraToken[];
  selected: string[];
  onChange: (parameters: string[]) => void;
  /** Leave out rows without a value of a grouped token; no checkbox when not given. */
  hideEmpty?: boolean;
  onHideEmptyChange?: (hide: boolean) => void;
};

export function TokenPicker({ idPrefix, tokens, selected, onChange, hideEmpty, onHideEmptyChange }: Props) {
  return (
    <>
      <ColumnPicker
        label="Group by tokens"
        icon={<Layers size={14} aria-hidden />}
        options={tokens.map((t) => ({ key: t.parameter, label: t.token_name || t.parameter }))}
        selected={selected}
        onChange={onChange}
        emptyText="This campaign has no extra tokens. Add them in the campaign's settings."
        testId={`${idPrefix}-picker`}
      />
      {onHideEmptyChange && selected.length > 0 && (
        <label className="toggle-inline" htmlFor={`${idPrefix}-hide-empty`}>
          <input
            id={`${idPrefix}-hide-empty`}
            type="checkbox"
            checked={hideEmpty ?? false}
            onChange={(e) => onHideEmptyChange(e.target.checked)}
            data-testid={`${idPrefix}-hide-empty`}
          />
          <span>Hide visits without token values</span>
        </label>
      )}
    </>
  );
}

/** One text column per grouped token, named as the campaign names the token. */
export function tokenColumns<T>(tokens: StatsExtraToken[], selected: string[]): Column<T>[] {
  return selected.map((parameter) => ({
    key: parameter,
    label: tokens.find((t) => t.parameter === parameter)?.token_name || parameter,
    kind: 'text' as const,
  }));
}

/** A row's key: its page or target, and when grouped its token values and place (rows repeat it). */
export function groupedRowKey(
  base: string | number,
  row: Record<string, unknown>,
  selected: string[],
  index: number,
): string | number {
  if (selected.length === 0) return base;
  return `${base}\u0000${selected.map((t) => String(row[t] ?? '')).join('\u0000')}\u0000${index}`;
}
