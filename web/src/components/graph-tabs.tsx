/** A row of tabs over a chart or a view: which metric it shows, or which mode. */
export function GraphTabs<K extends string>({
  label,
  className = 'graph-tabs',
  options,
  selected,
  onSelect,
  dataName = 'metric',
}: {
  /** The tab list's accessible name. */
  label: string;
  className?: string;
  options: readonly { value: K; label: string }[];
  selected: K;
  onSelect: (value: K) => void;
  /** Each tab carries data-<dataName>="<value>" (tests and styles find it by that). */
  dataName?: 'metric' | 'mode';
}) {
  return (
    <div className={className} role="tablist" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="tab"
          className="graph-tab"
          aria-selected={selected === o.value}
          onClick={() => onSelect(o.value)}
          {...{ [`data-${dataName}`]: o.value }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
