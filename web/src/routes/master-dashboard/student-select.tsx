import { ChevronDown, Search, Users } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { Student } from '../../../../schema/operator-api';

type Props = {
  students: readonly Student[];
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The selection "Undo all" goes back to (the one last loaded). */
  applied: ReadonlySet<string>;
  loading?: boolean;
};

/** The detailed mode's student multi-select (spec 3 §2): search, Tick all, Tick none, Undo all. */
export function StudentSelect({ students, selected, onChange, applied, loading }: Props) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const panelId = useId();
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle
      ? students.filter(
          (s) => s.name.toLowerCase().includes(needle) || s.domain.toLowerCase().includes(needle),
        )
      : students;
  }, [students, search]);
  const summary =
    selected.size === 0
      ? 'No students selected'
      : selected.size === 1
        ? (students.find((s) => selected.has(s.id_hash))?.name ?? '1 student selected')
        : `${selected.size} students selected`;
  const toggle = (hash: string) => {
    const next = new Set(selected);
    if (next.has(hash)) next.delete(hash);
    else next.add(hash);
    onChange(next);
  };

  return (
    <div className="md-select field">
      <span className="field-label" id={`${panelId}-label`}>
        Students
      </span>
      <button
        type="button"
        className="input select md-select-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-labelledby={`${panelId}-label ${panelId}-summary`}
        onClick={() => setOpen((o) => !o)}
        disabled={loading}
      >
        <Users size={15} aria-hidden />
        <span id={`${panelId}-summary`}>{loading ? 'Loading students…' : summary}</span>
        <ChevronDown size={15} aria-hidden className="md-select-chevron" />
      </button>
      {open && (
        <div className="md-select-panel" id={panelId} data-testid="student-panel">
          <div className="md-select-actions">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => onChange(new Set(shown.map((s) => s.id_hash)))}
            >
              Tick all
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(new Set())}>
              Tick none
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(new Set(applied))}>
              Undo all
            </button>
          </div>
          <div className="input-group md-select-search">
            <Search size={15} aria-hidden className="md-select-search-icon" />
            <input
              className="input"
              type="search"
              placeholder="Search student..."
              aria-label="Search student"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <ul className="md-select-list">
            {shown.length === 0 && <li className="md-select-empty">No students match “{search}”.</li>}
            {shown.map((s) => (
              <li key={s.id_hash}>
                <label className="md-select-option">
                  <input
                    type="checkbox"
                    checked={selected.has(s.id_hash)}
                    onChange={() => toggle(s.id_hash)}
                  />
                  <span className="md-select-name">{s.name}</span>
                  <span className="md-select-domain">{s.domain.replace(/^https?:\/\//, '')}</span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
