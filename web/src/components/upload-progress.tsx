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
