import { CloudUpload, Download, FileArchive, Trash2, Upload } from 'lucide-react';
import { type DragEvent, type FormEvent, useRef, useState } from 'react';
import { mutate } from 'swr';
import {
  DELETE_RECORDS_CODE,
  IMPORT_MAX_BYTES,
  SETTINGS_MESSAGES as M,
} from '../../../../schema/settings-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { useBusyAction, useConfirmedAction } from '../../components/confirmed-action';
import { TextField } from '../../components/field';
import { hasExtension } from '../../components/file-upload';
import { notify } from '../../components/toaster';
import { ChosenFile, UploadProgressBar } from '../../components/upload-parts';
import { cleanRecords, exportInstall, importInstall } from './api';
import { DataRow } from './data-row';

/** Every cached answer is stale after an import or a delete: refetch what is on screen. */
const refreshAll = () => mutate(() => true);

function ExportSection() {
  const { busy, run: runBusy } = useBusyAction();
  const run = () =>
    runBusy(
      'run',
      async () => {
        const answer = await exportInstall();
        notify.success(answer.message);
        window.location.assign(answer.downloadLink);
      },
      (err) =>
        notify.error(err instanceof ApiError ? err.firstMessage : 'The export failed. Please try again.'),
    );
  return (
    <DataRow
      id="export"
      title="Export installation"
      description="One ZIP with every campaign, landing and offer page, path, option, token, setting and statistic, to move this tracker or keep a backup. Users and stored credentials stay here."
    >
      <Button icon={<Download size={16} aria-hidden />} busy={busy !== null} onClick={() => void run()}>
        Export
      </Button>
    </DataRow>
  );
}

function ImportSection() {
  const confirm = useConfirm();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const busy = progress !== null;

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    if (!hasExtension(chosen.name, ['zip'])) {
      setHint(M.importFileInvalid);
      setFile(null);
      return;
    }
    if (chosen.size > IMPORT_MAX_BYTES) {
      setHint(M.importFileTooLarge);
      setFile(null);
      return;
    }
    setHint(null);
    setFile(chosen);
  };

  const clear = () => {
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const run = async () => {
    if (!file) {
      setHint(M.importFileRequired);
      return;
    }
    const ok = await confirm({
      title: 'Replace this installation’s data?',
      message:
        'Every campaign, page, token, statistic and cost here is replaced by the file’s. Users and stored credentials stay. This cannot be undone.',
      confirmLabel: 'Import',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (!ok) return;
    setProgress(0);
    try {
      const answer = await importInstall(file, ({ loaded, total }) =>
        setProgress(total ? loaded / total : 0),
      );
      clear();
      setProgress(null);
      notify.success(answer.message, {
        description: `${answer.rows.toLocaleString('en-US')} rows in ${answer.tables.length} tables.`,
      });
      // Everything on screen came from the data that was just replaced.
      void refreshAll();
    } catch (err) {
      setProgress(null);
      const message = err instanceof ApiError ? err.firstMessage : null;
      setHint(message);
      notify.error(M.importFailed, { description: message ?? undefined });
    }
  };

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setDragging(false);
    if (!busy) choose(e.dataTransfer.files?.[0] ?? null);
  };

  return (
    <DataRow
      id="import"
      title="Import installation"
      tone="stack"
      description="Load an export of this product. The file is checked completely before anything changes."
    >
      <div className="import-box">
        <input
          ref={inputRef}
          id="import-file"
          type="file"
          aria-labelledby="import-title"
          accept=".zip"
          className="sr-only"
          tabIndex={-1}
          disabled={busy}
          onChange={(e) => choose(e.target.files?.[0] ?? null)}
          data-testid="import-file-input"
        />
        <section
          className={['upload-zone', 'upload-zone-compact', dragging && 'is-dragging', hint && 'has-error']
            .filter(Boolean)
            .join(' ')}
          aria-label="Install export file"
          onDragOver={(e) => {
            if (busy || !Array.from(e.dataTransfer.types).includes('Files')) return;
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <CloudUpload size={18} aria-hidden className="upload-zone-inline-icon" />
          <p className="upload-zone-title">
            Drop an install export (.zip) here, or{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => inputRef.current?.click()}
              disabled={busy}
            >
              browse
            </button>
          </p>
        </section>
        {file && <ChosenFile file={file} icon={FileArchive} busy={busy} onClear={clear} />}
        {busy && <UploadProgressBar progress={progress ?? 0} label="Import progress" doing="Importing…" />}
        {hint && (
          <p className="upload-hint" role="alert" id="import-hint">
            {hint}
          </p>
        )}
        <div className="form-actions">
          <Button icon={<Upload size={16} aria-hidden />} busy={busy} onClick={() => void run()}>
            Import
          </Button>
        </div>
      </div>
    </DataRow>
  );
}

function DeleteSection() {
  const { busy, run } = useConfirmedAction();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() !== DELETE_RECORDS_CODE) {
      setError(M.deleteConfirmWrong);
      notify.error(M.deleteConfirmWrong);
      return;
    }
    await run(
      'run',
      {
        title: 'Delete all records?',
        message:
          'Every campaign, landing and offer page, path, option, token, statistic and cost is deleted. Users and settings stay. This cannot be undone.',
        confirmLabel: 'Delete everything',
        cancelLabel: 'Cancel',
        danger: true,
      },
      async () => {
        const answer = await cleanRecords(code.trim());
        setCode('');
        setError(null);
        notify.success(answer.message);
        void refreshAll();
      },
      (err) => {
        if (err instanceof ApiError && err.isValidation) {
          setError(err.firstMessage);
          notify.error(err.firstMessage);
        } else {
          notify.error(M.deleteFailed);
        }
      },
    );
  };

  return (
    <DataRow
      id="delete"
      title="Delete all records"
      tone="danger"
      description="Empties the tracker: campaigns, pages, tokens, statistics and costs. Users and settings stay. Export first if you may want them back."
    >
      <form className="delete-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField
          id="delete-confirm"
          label={`Type ${DELETE_RECORDS_CODE} to confirm`}
          value={code}
          onValueChange={(v) => {
            setCode(v);
            setError(null);
          }}
          error={error}
          inputMode="numeric"
          autoComplete="off"
          fieldClassName="delete-field"
        />
        <Button type="submit" variant="danger" busy={busy !== null} icon={<Trash2 size={16} aria-hidden />}>
          Delete all records
        </Button>
      </form>
    </DataRow>
  );
}

/** Export, import and delete-all of the installation's data (admins). */
export function DataPane() {
  return (
    <Card id="data" title="Data" description="Move, back up or empty this installation.">
      <div className="data-rows">
        <ExportSection />
        <ImportSection />
        <DeleteSection />
      </div>
    </Card>
  );
}
