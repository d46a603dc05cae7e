// What the campaigns list says when it has no rows: a search that matched nothing, an empty
// folder, or no campaigns at all yet; each with the next thing to do.
import { CornerLeftUp, FileSpreadsheet, FolderOpen, Megaphone, Plus, SearchX } from 'lucide-react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import type { Crumb } from './folder-trail';

type Props = {
  search: string;
  clearSearch: () => void;
  dir: number;
  folderName: string;
  parent: Crumb;
  onOpenDir: (id: number) => void;
  onNewCampaign: () => void;
  onUploadCsv: () => void;
};

export function CampaignsEmpty({ search, clearSearch, dir, folderName, parent, ...props }: Props) {
  if (search.trim()) {
    return (
      <EmptyState
        icon={SearchX}
        title={`No campaigns match “${search.trim()}”`}
        action={
          <Button size="sm" onClick={clearSearch}>
            Clear search
          </Button>
        }
      >
        The search looks at names in {folderName === 'Campaigns' ? 'the top level' : `“${folderName}”`}.
      </EmptyState>
    );
  }
  if (dir !== 0) {
    return (
      <EmptyState
        icon={FolderOpen}
        title="This folder is empty"
        action={
          <Button
            size="sm"
            icon={<CornerLeftUp size={14} aria-hidden />}
            onClick={() => props.onOpenDir(parent.campaignId)}
          >
            Back to {parent.name}
          </Button>
        }
      >
        Drag campaigns onto this folder in {parent.name}, or choose <strong>Move to…</strong> in a campaign's
        menu.
      </EmptyState>
    );
  }
  return (
    <EmptyState
      icon={Megaphone}
      title="No campaigns yet"
      action={
        <div className="cl-empty-actions">
          <Button variant="primary" icon={<Plus size={16} aria-hidden />} onClick={props.onNewCampaign}>
            New campaign
          </Button>
          <Button icon={<FileSpreadsheet size={16} aria-hidden />} onClick={props.onUploadCsv}>
            Upload CSV
          </Button>
        </div>
      }
    >
      Create your first campaign to get a tracking link, or bring campaigns in from a CSV file or an export
      ZIP.
    </EmptyState>
  );
}
