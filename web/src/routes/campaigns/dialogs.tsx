import { ChevronRight, CornerLeftUp, Folder, FolderInput, FolderPlus, Pencil } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { CSV_COLUMNS, LIST_MESSAGES } from '../../../../schema/campaign-list-api';
import { NAME_MAX } from '../../../../schema/validators';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { useBusyAction } from '../../components/confirmed-action';
import { TextField } from '../../components/field';
import { FileUpload } from '../../components/file-upload';
import { FormModalFooter, Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { UploadModal, useUploadModal } from '../../components/upload-parts';
import { getStoredUser } from '../../lib/auth';
import { useOnOpen } from '../../lib/use-on-open';
import { type CampaignListItem, getCampaignList, type UploadAnswer } from './api';
import { type Crumb, rememberFolders } from './folder-trail';

// The list's dialogs: a folder name (new folder, drop on a campaign, rename), the folder
// picker behind "Move to…" (the keyboard's way to do what dragging does), and the uploads.

type FolderNameProps = {
  open: boolean;
  mode: 'create' | 'rename';
  initialName?: string;
  /** What the new folder will hold, shown under the title. */
  lead?: ReactNode;
  onClose: () => void;
  /** Throws the API's error to show it at the field. */
  onSubmit: (name: string) => Promise<void>;
};

const FORM = 'folder-name';

export function FolderNameDialog({ open, mode, initialName = '', lead, onClose, onSubmit }: FolderNameProps) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { busy, run } = useBusyAction();

  useOnOpen(open, initialName, () => {
    setName(initialName);
    setError(null);
    setFormError(null);
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    if (!trimmed) {
      // Renaming to an empty name is ignored (spec 1 §4); a new folder needs one.
      if (mode === 'rename') {
        onClose();
        return;
      }
      setError(LIST_MESSAGES.folderNameRequired);
      return;
    }
    await run(
      'run',
      () => onSubmit(trimmed),
      (err) => {
        if (err instanceof ApiError) {
          const fields = err.fieldErrors;
          if (fields.name) setError(fields.name);
          else setFormError(err.firstMessage);
        } else {
          setFormError('Something went wrong. Please try again.');
        }
      },
    );
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="sm"
      title={mode === 'create' ? 'New folder' : 'Rename folder'}
      footer={
        <FormModalFooter
          form={FORM}
          busy={busy !== null}
          onCancel={onClose}
          icon={mode === 'create' ? <FolderPlus size={16} aria-hidden /> : <Pencil size={16} aria-hidden />}
        >
          {mode === 'create' ? 'Create folder' : 'Rename'}
        </FormModalFooter>
      }
    >
      <form id={FORM} className="form" onSubmit={submit} noValidate>
        {lead && <div className="modal-lead">{lead}</div>}
        {formError && <Alert>{formError}</Alert>}
        <TextField
          id={`${FORM}-name`}
          label="Folder name"
          value={name}
          onValueChange={(v) => {
            setName(v);
            if (error) setError(null);
          }}
          error={error}
          maxLength={NAME_MAX}
          autoComplete="off"
          data-autofocus
        />
      </form>
    </Modal>
  );
}

type MoveProps = {
  open: boolean;
  /** What is being moved: ids and a short description. */
  moving: readonly CampaignListItem[];
  /** The folder the rows are in now. */
  from: number;
  onClose: () => void;
  onMove: (dir: number, label: string) => Promise<void>;
};

/** A folder picker: open folders, go up, and move the rows into the one shown. */
export function MoveToDialog({ open, moving, from, onClose, onMove }: MoveProps) {
  const [dir, setDir] = useState(0);
  const [trail, setTrail] = useState<Crumb[]>([]);
  const [folders, setFolders] = useState<CampaignListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useBusyAction();
  const movingIds = new Set(moving.map((m) => m.campaignId));

  useEffect(() => {
    if (open) {
      setDir(0);
      setTrail([]);
      setError(null);
    }
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setFolders(null);
    getCampaignList(dir)
      .then((answer) => {
        if (cancelled) return;
        rememberFolders(answer.result);
        setFolders(answer.result.filter((r) => r.is_dir === 1));
      })
      .catch((err) => {
        if (!cancelled)
          setError(err instanceof ApiError ? err.firstMessage : 'The folders could not be loaded.');
      });
    return () => {
      cancelled = true;
    };
  }, [open, dir]);

  const openFolder = (folder: CampaignListItem) => {
    setTrail((t) => [...t, { campaignId: folder.campaignId, name: folder.name }]);
    setDir(folder.campaignId);
  };
  const goTo = (index: number) => {
    const next = trail.slice(0, index + 1);
    setTrail(next);
    setDir(next.at(-1)?.campaignId ?? 0);
  };
  const here = trail.at(-1)?.name ?? 'Campaigns (top level)';
  const insideMoving = trail.some((c) => movingIds.has(c.campaignId));

  const move = () => {
    setError(null);
    return run(
      'run',
      () => onMove(dir, here),
      (err) => setError(err instanceof ApiError ? err.firstMessage : 'The move failed. Please try again.'),
    );
  };

  const what = moving.length === 1 ? `“${moving[0].name}”` : `${moving.length} items`;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Move to folder"
      footer={
        <FormModalFooter
          busy={busy !== null}
          onCancel={onClose}
          disabled={dir === from || insideMoving}
          icon={<FolderInput size={16} aria-hidden />}
          onClick={() => void move()}
          data-testid="move-here"
        >
          Move here
        </FormModalFooter>
      }
    >
      <div className="stack">
        <p className="modal-lead">
          Choose where {what} should go. Open a folder to move into it, or stay at the top level.
        </p>
        {error && <Alert>{error}</Alert>}
        <nav className="cl-picker-trail" aria-label="Folder path">
          <button type="button" className="link-button" onClick={() => goTo(-1)} disabled={dir === 0}>
            Campaigns
          </button>
          {trail.map((c, i) => (
            <span key={c.campaignId} className="cl-picker-trail-item">
              <ChevronRight size={14} aria-hidden />
              <button
                type="button"
                className="link-button"
                onClick={() => goTo(i)}
                disabled={i === trail.length - 1}
              >
                {c.name}
              </button>
            </span>
          ))}
        </nav>
        <ul className="cl-picker-list" aria-label={`Folders in ${here}`}>
          {dir !== 0 && (
            <li>
              <button type="button" className="cl-picker-item" onClick={() => goTo(trail.length - 2)}>
                <CornerLeftUp size={16} aria-hidden />
                <span>Up one level</span>
              </button>
            </li>
          )}
          {folders === null ? (
            <li className="cl-picker-empty">
              <Spinner size={14} /> Loading folders…
            </li>
          ) : folders.length === 0 ? (
            <li className="cl-picker-empty">No folders here.</li>
          ) : (
            folders.map((f) => (
              <li key={f.campaignId}>
                <button
                  type="button"
                  className="cl-picker-item"
                  onClick={() => openFolder(f)}
                  disabled={movingIds.has(f.campaignId)}
                  title={movingIds.has(f.campaignId) ? 'A folder cannot be moved into itself' : undefined}
                >
                  <Folder size={16} aria-hidden className="folder-icon" />
                  <span>{f.name}</span>
                  <ChevronRight size={14} aria-hidden className="cl-picker-item-chevron" />
                </button>
              </li>
            ))
          )}
        </ul>
        <p className="field-hint">
          {dir === from ? 'The selection is already here.' : `Destination: ${here}`}
        </p>
      </div>
    </Modal>
  );
}

type UploadKind = 'csv' | 'zip';

const CSV_EXAMPLE = `name,campaignType,trafficSource,cpc,urlAppendToken
Spring promo,landing_page,taboola,0.15,adid
Brand search,direct_link,,,`;

export function UploadDialog({
  kind,
  dir,
  folderName,
  onClose,
  onUploaded,
}: {
  kind: UploadKind | null;
  dir: number;
  folderName: string;
  onClose: () => void;
  onUploaded: (kind: UploadKind, answer: UploadAnswer) => void;
}) {
  const upload = useUploadModal(onClose);
  const user = getStoredUser();
  return (
    <UploadModal
      open={kind !== null}
      title={kind === 'csv' ? 'Upload campaigns from CSV' : 'Import campaigns from ZIP'}
      upload={upload}
    >
      {kind === 'csv' && (
        <>
          <p className="modal-lead">
            One campaign per line, into <strong>{folderName}</strong>. The first line names the columns; only{' '}
            <code>name</code> is required.
          </p>
          <FileUpload<UploadAnswer>
            id="campaigns-csv"
            path="uploadcsv"
            extensions={['csv']}
            requiredMessage={LIST_MESSAGES.csvRequired}
            invalidMessage={LIST_MESSAGES.csvInvalid}
            fields={{ userId: user?.userId, dir }}
            maxBytes={1024 * 1024}
            label="Upload CSV"
            description="UTF-8 CSV, up to 1 MB and 500 campaigns."
            onBusyChange={upload.setBusy}
            onUploaded={(answer) => onUploaded('csv', answer)}
          />
          <details className="cl-upload-help">
            <summary>Columns and an example</summary>
            <p className="field-hint">{CSV_COLUMNS.join(', ')}</p>
            <pre className="mono cl-upload-example">{CSV_EXAMPLE}</pre>
          </details>
        </>
      )}
      {kind === 'zip' && (
        <>
          <p className="modal-lead">
            A ZIP made by <em>Export</em>, from this or another installation. Its campaigns, folders, landing
            pages, offers, paths, options and tokens are recreated in <strong>{folderName}</strong>.
          </p>
          <FileUpload<UploadAnswer>
            id="campaigns-zip"
            path="import-campaigns"
            extensions={['zip']}
            requiredMessage={LIST_MESSAGES.zipRequired}
            invalidMessage={LIST_MESSAGES.zipInvalid}
            fallbackMessage={LIST_MESSAGES.importFailed}
            fields={{ userId: user?.userId, dir }}
            maxBytes={10 * 1024 * 1024}
            label="Import ZIP"
            description="An export ZIP, up to 10 MB."
            onBusyChange={upload.setBusy}
            onUploaded={(answer) => onUploaded('zip', answer)}
          />
        </>
      )}
    </UploadModal>
  );
}
