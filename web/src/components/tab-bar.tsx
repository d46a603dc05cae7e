import type { LucideIcon } from 'lucide-react';
import type { KeyboardEvent } from 'react';

// A row of tabs (role="tablist") over one tab panel: each tab a button with its icon and label,
// the selected one in the tab order. The screen styles it by its class names and chooses what
// the arrow keys do (move the focus, or select as well).

export type TabItem<K extends string> = { key: K; label: string; icon: LucideIcon };

/** Where an arrow key, Home or End moves from tab `at` of `count` (the arrows wrap round); null for any other key. */
export function tabStep(key: string, at: number, count: number): number | null {
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  if (key === 'ArrowRight' || key === 'ArrowLeft')
    return (at + (key === 'ArrowRight' ? 1 : -1) + count) % count;
  return null;
}

export function TabBar<K extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix,
  panelId,
  className,
  tabClassName,
  onKeyDown,
}: {
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The tab list's accessible name. */
  label: string;
  /** Each tab's id and test id: `${idPrefix}-${key}`. */
  idPrefix: string;
  /** The id of the panel the tabs control. */
  panelId: string;
  className: string;
  /** The class of a tab; the selected one has `is-active` too. */
  tabClassName: string;
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
}) {
  return (
    <div className={className} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => {
        const Icon = t.icon;
        const isSelected = t.key === selected;
        return (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${idPrefix}-${t.key}`}
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            className={isSelected ? `${tabClassName} is-active` : tabClassName}
            onClick={() => onSelect(t.key)}
            data-testid={`${idPrefix}-${t.key}`}
          >
            <Icon size={15} aria-hidden />
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
