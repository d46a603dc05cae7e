import type { LucideIcon } from 'lucide-react';
import { FileArchive, FileSpreadsheet, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { formatBytes } from '../lib/format';
import { Button, IconButton } from './button';
import { Modal } from './modal';

// The parts of an upload that FileUpload, the installation import and the upload modals share.

/** The file chosen, its size, and (while nothing is sending) a button that removes it. */
export function ChosenFile({
  file,
  icon: Icon,
  busy,
  onClear,
}: {
  file: File;
  icon: LucideIcon;
  busy: boolean;
  onClear: () => void;
}) {
  return (
    <div className="upload-file">
      <Icon size={16} aria-hidden className="upload-file-icon" />
      <span className="upload-file-name">{file.name}</span>
      <span className="upload-file-size">{formatBytes(file.size)}</span>
      {!busy && (
        <IconButton
          icon={X}
          iconSize={14}
          className="upload-file-clear"
          onClick={onClear}
          label={`Remove ${file.name}`}
          title="Remove"
        />
      )}
    </div>
  );
}

/**
 * The bar of an upload: the percent sent, then a moving bar with what the server is doing
 * once every byte is sent (`progress` 1).
 */
export function UploadProgressBar({
  id,
  progress,
  label,
  doing,
}: {
  id?: string;
  /** 0 to 1. */
  progress: number;
  /** The bar's accessible name. */
  label: string;
  /** What shows once every byte is sent ("Processing…"). */
  doing: string;
}) {
  const percent = Math.round(progress * 100);
  const processing = progress >= 1;
  return (
    <div className="upload-progress" id={id}>
      <div
        className={processing ? 'upload-progress-track is-processing' : 'upload-progress-track'}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={processing ? undefined : percent}
        aria-label={label}
      >
        <div className="upload-progress-bar" style={{ width: processing ? '100%' : `${percent}%` }} />
      </div>
      <span className="upload-progress-label">{processing ? doing : `${percent}%`}</span>
    </div>
  );
}

/** The Upload CSV and Import ZIP buttons of the screens that take their rows from a file. */
export function UploadButtons({ onChoose }: { onChoose: (kind: 'csv' | 'zip') => void }) {
  return (
    <>
      <Button icon={<FileSpreadsheet size={16} aria-hidden />} onClick={() => onChoose('csv')}>
        Upload CSV
      </Button>
      <Button icon={<FileArchive size={16} aria-hidden />} onClick={() => onChoose('zip')}>
        Import ZIP
      </Button>
    </>
  );
}

/** An upload modal's busy state: Close (and Escape) wait while the upload runs. */
export function useUploadModal(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const close = () => {
    if (!busy) onClose();
  };
  return { busy, setBusy, close };
}

/** The modal around an upload block, with its one Close button. */
export function UploadModal({
  open,
  title,
  upload,
  children,
}: {
  open: boolean;
  title: string;
  upload: ReturnType<typeof useUploadModal>;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={upload.close}
      footer={
        <Button variant="secondary" onClick={upload.close} disabled={upload.busy}>
          Close
        </Button>
      }
    >
      <div className="stack">{children}</div>
    </Modal>
  );
}
