// Above the campaigns table: the folder path (each crumb a drop target), the filters (search by
// name, show deleted), and the bar of actions on the selected rows.
import { ChevronRight, Download, Folder, FolderInput, FolderPlus, House, Search, X } from 'lucide-react';
import { Button, DeleteButton, IconButton } from '../../components/button';
import type { CampaignListItem } from './api';
import type { Crumb } from './folder-trail';
import type { CampaignDrag } from './use-campaign-drag';

type ToolbarProps = {
  dir: number;
  trail: readonly Crumb[];
  summary: string;
  drag: CampaignDrag;
  onOpenDir: (id: number) => void;
  search: string;
  setSearch: (search: string) => void;
  showDeleted: boolean;
  setShowDeleted: (show: boolean) => void;
};

export function CampaignsToolbar(props: ToolbarProps) {
  const { dir, trail, drag, onOpenDir, search, setSearch } = props;
  const crumbClass = (id: number) =>
    ['crumb', drag.isDropTarget('crumb', id) && 'is-drop-target'].filter(Boolean).join(' ');
  return (
    <div className="campaigns-toolbar">
      <nav className="crumbs" aria-label="Folder path">
        <ol>
          <li>
            <button
              type="button"
              className={crumbClass(0)}
              onClick={() => onOpenDir(0)}
              aria-current={dir === 0 ? 'location' : undefined}
              data-testid="crumb-0"
              {...drag.dropProps({ kind: 'crumb', id: 0 })}
            >
              <House size={14} aria-hidden />
              <span>Campaigns</span>
            </button>
          </li>
          {trail.map((c) => (
            <li key={c.campaignId}>
              <ChevronRight size={14} aria-hidden className="crumb-sep" />
              <button
                type="button"
                className={crumbClass(c.campaignId)}
                onClick={() => onOpenDir(c.campaignId)}
                aria-current={c.campaignId === dir ? 'location' : undefined}
                data-testid={`crumb-${c.campaignId}`}
                {...drag.dropProps({ kind: 'crumb', id: c.campaignId })}
              >
                <Folder size={14} aria-hidden />
                <span>{c.name}</span>
              </button>
            </li>
          ))}
        </ol>
        <span className="crumbs-summary" aria-live="polite">
          {props.summary}
        </span>
      </nav>
      <div className="campaigns-filters">
        <div className="cl-search">
          <Search size={15} aria-hidden className="cl-search-icon" />
          <input
            type="search"
            className="input input-sm"
            placeholder="Search by name"
            aria-label="Search campaigns by name"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setSearch('');
            }}
            data-testid="campaign-search"
          />
        </div>
        <label className="cl-switch">
          <input
            type="checkbox"
            role="switch"
            aria-checked={props.showDeleted}
            checked={props.showDeleted}
            onChange={(e) => props.setShowDeleted(e.target.checked)}
            data-testid="show-deleted"
          />
          <span className="cl-switch-track" aria-hidden />
          <span>Show deleted</span>
        </label>
      </div>
    </div>
  );
}

type BulkBarProps = {
  count: number;
  /** Every selected row, deleted ones included. */
  selectedRows: CampaignListItem[];
  /** The selected rows that are not deleted: the ones that can move or be deleted softly. */
  liveSelected: CampaignListItem[];
  bulkBusy: string | null;
  onMoveTo: (rows: CampaignListItem[]) => void;
  onNewFolderWith: (rows: CampaignListItem[]) => void;
  onExport: (rows: CampaignListItem[]) => void;
  onDelete: (rows: CampaignListItem[], permanent: boolean) => void;
  onClear: () => void;
};

export function BulkBar(props: BulkBarProps) {
  const { liveSelected, selectedRows, bulkBusy } = props;
  /** An action on the live selection: not offered while the selection has none. */
  const onLive = (act: (rows: CampaignListItem[]) => void) => ({
    disabled: !liveSelected.length,
    onClick: () => act(liveSelected),
  });
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected campaigns">
      <span className="bulk-count">
        <strong>{props.count}</strong> selected
      </span>
      <Button size="sm" icon={<FolderInput size={14} aria-hidden />} {...onLive(props.onMoveTo)}>
        Move to…
      </Button>
      <Button size="sm" icon={<FolderPlus size={14} aria-hidden />} {...onLive(props.onNewFolderWith)}>
        New folder with selection
      </Button>
      <Button
        size="sm"
        icon={<Download size={14} aria-hidden />}
        busy={bulkBusy === 'export'}
        onClick={() => props.onExport(selectedRows)}
        data-testid="bulk-export"
      >
        Export
      </Button>
      {liveSelected.length > 0 && (
        <DeleteButton
          busy={bulkBusy === 'delete'}
          onClick={() => props.onDelete(liveSelected, false)}
          data-testid="bulk-delete"
        >
          Delete
        </DeleteButton>
      )}
      <DeleteButton onClick={() => props.onDelete(selectedRows, true)}>Delete permanently</DeleteButton>
      <IconButton
        icon={X}
        className="bulk-clear"
        onClick={props.onClear}
        label="Clear selection"
        title="Clear selection"
      />
    </div>
  );
}
