import { ChevronDown } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

type PickerOption = { key: string; label: string };

type Props = {
  label: string;
  icon?: ReactNode;
  options: readonly PickerOption[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** Shown when there is nothing to pick. */
  emptyText?: string;
  testId?: string;
};

/** A button that opens a checklist (the metric picker, the extra-token choice, the column picker). */
export function ColumnPicker({ label, icon, options, selected, onChange, emptyText, testId }: Props) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const toggle = (key: string) => {
    const next = selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key];
    // Keep the options' order, whatever order they were ticked in.
    onChange(options.map((o) => o.key).filter((k) => next.includes(k)));
  };
  const count = options.filter((o) => selected.includes(o.key)).length;

  return (
    <div className="picker" ref={ref} data-testid={testId}>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {icon}
        <span>{label}</span>
        {count > 0 && <span className="picker-count">{count}</span>}
        <ChevronDown size={14} aria-hidden />
      </button>
      {open && (
        <fieldset className="picker-menu" id={id} aria-label={label}>
          {options.length === 0 ? (
            <p className="picker-empty">{emptyText ?? 'Nothing to choose.'}</p>
          ) : (
            options.map((o) => (
              <label key={o.key} className="picker-option">
                <input type="checkbox" checked={selected.includes(o.key)} onChange={() => toggle(o.key)} />
                <span>{o.label}</span>
              </label>
            ))
          )}
        </fieldset>
      )}
    </div>
  );
}
