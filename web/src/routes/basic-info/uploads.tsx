// The landing-page CSV upload and the landing/offer ZIP imports (spec 2 §5, §7) in a modal,
// over the shared FileUpload block (extension check with the 5 s hint, progress, busy state).
import { useState } from 'react';
import { OPERATION_MESSAGES, UPLOAD_LIMITS } from '../../../../schema/pages-operations-api';
import { FileUpload } from '../../components/file-upload';
import { notify } from '../../components/toaster';
import { UploadModal, useUploadModal } from '../../components/upload-parts';
import type { Landing, Offer, UploadAnswer } from './types';

const SAMPLE_CSV =
  'name,url,share,path,agents\r\nQuiz lander,https://example.com/quiz,50,,any\r\nVideo lander,https://example.com/video?c={clickid},50,,desktop|mobile\r\n';

export function LandingCsvModal({
  open,
  campaignId,
  onClose,
  onUploaded,
}: {
  open: boolean;
  campaignId: number;
  onClose: () => void;
  onUploaded: () => void;
}) {
  const [overwrite, setOverwrite] = useState(false);
  const upload = useUploadModal(onClose);
  const { busy } = upload;
  return (
    <UploadModal open={open} title="Upload landing pages (CSV)" upload={upload}>
      <p className="modal-lead">
        One landing page per row. Columns: <code>name</code>, <code>url</code>, <code>share</code>, and
        optionally <code>path</code> (name or id) and <code>agents</code> (devices, e.g.{' '}
        <code>desktop|mobile</code>). A header row is optional. Nothing is saved if any row is invalid.{' '}
        <a
          href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE_CSV)}`}
          download="landing-pages-sample.csv"
        >
          Download a sample
        </a>
      </p>
      <label className="ce-check ce-check-block">
        <input
          type="checkbox"
          checked={overwrite}
          onChange={(e) => setOverwrite(e.target.checked)}
          disabled={busy}
          data-testid="landing-csv-overwrite"
        />
        <span>
          <strong>Replace the current landing pages.</strong> They are deleted (and can be restored from “Show
          deleted”).
        </span>
      </label>
      <FileUpload<UploadAnswer<Landing>>
        id="landing-csv"
        path="lading-pages-csv"
        extensions={['csv']}
        requiredMessage={OPERATION_MESSAGES.csvRequired}
        invalidMessage={OPERATION_MESSAGES.csvInvalid}
        maxBytes={UPLOAD_LIMITS.csvBytes}
        fields={{ campaignId, overwrite: overwrite ? 1 : 0 }}
        label="Upload CSV"
        description="At most 1,000 rows and 2 MB."
        onBusyChange={upload.setBusy}
        onUploaded={() => {
          notify.success(OPERATION_MESSAGES.landingsUploaded);
          setOverwrite(false);
          onUploaded();
          onClose();
        }}
      />
    </UploadModal>
  );
}

export function ZipImportModal({
  open,
  kind,
  campaignId,
  onClose,
  onImported,
}: {
  open: boolean;
  kind: 'landing' | 'offer';
  campaignId: number;
  onClose: () => void;
  onImported: () => void;
}) {
  const upload = useUploadModal(onClose);
  const noun = kind === 'landing' ? 'landing pages' : 'offer pages';
  return (
    <UploadModal open={open} title={`Import ${noun} (ZIP)`} upload={upload}>
      <p className="modal-lead">
        Import a ZIP written by “Export” on the {noun} table of this or another campaign. The {noun} are added
        to this campaign; paths and options are matched by name.
      </p>
      <FileUpload<UploadAnswer<Landing | Offer>>
        id={`${kind}-zip`}
        path={kind === 'landing' ? 'import-landings' : 'import-offers'}
        extensions={['zip']}
        requiredMessage={OPERATION_MESSAGES.zipRequired}
        invalidMessage={OPERATION_MESSAGES.zipInvalid}
        maxBytes={UPLOAD_LIMITS.zipBytes}
        fields={{ campaignId }}
        label="Import ZIP"
        description="At most 5 MB."
        onBusyChange={upload.setBusy}
        onUploaded={() => {
          notify.success(
            kind === 'landing' ? OPERATION_MESSAGES.landingsImported : OPERATION_MESSAGES.offersImported,
          );
          onImported();
          onClose();
        }}
      />
    </UploadModal>
  );
}
