import { CloudUpload, FileText, Upload } from 'lucide-react';
import { type DragEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiError, api, apiUrl, type ErrorEnvelope, NETWORK_ERROR_MESSAGE } from '../api/client';
import { formatBytes } from '../lib/format';
import { KEYS, readKey } from '../lib/storage';
import { Button } from './button';
import { notify } from './toaster';
import { ChosenFile, UploadProgressBar } from './upload-parts';

// The one upload building block (spec 1 §4/§5, spec 2 §4/§5): the file is checked by its
// extension before anything is sent, a wrong or missing file shows the spec's hint for five
// seconds, the upload shows its progress (XMLHttpRequest reports upload progress, fetch does
// not), the button that started it is busy, and any error resets the state.

/** How long a hint about a missing or invalid file stays (spec 1 §9, spec 2 §9). */
const UPLOAD_HINT_MS = 5000;

export type UploadProgress = { loaded: number; total: number };

type UploadOptions = {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

function envelopeOf(body: unknown, fallback: string): ErrorEnvelope {
  if (body && typeof body === 'object' && typeof (body as ErrorEnvelope).message === 'string') {
    const b = body as ErrorEnvelope;
    return { message: b.message, errors: b.errors ?? { message: [b.message] } };
  }
  return { message: fallback, errors: { message: [fallback] } };
}

/**
 * POSTs `form` to the API path with the bearer token and reports upload progress; answers the
 * `data` of the envelope, or throws the client's ApiError (status 0 for a network failure).
 */
export function uploadWithProgress<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = readKey(KEYS.token);
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(
          (body && typeof body === 'object' && 'data' in body ? (body as { data: T }).data : body) as T,
        );
        return;
      }
      const error = new ApiError(xhr.status, envelopeOf(body, xhr.statusText), xhr.statusText);
      // An expired session: asking who we are goes through the shared client, whose 401
      // handling (clear the session, toast, go to login) is the app's one behaviour.
      if (xhr.status === 401 && token) void api.get('user').catch(() => {});
      reject(error);
    };
    xhr.onerror = () => reject(new ApiError(0, envelopeOf(null, NETWORK_ERROR_MESSAGE)));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Does the file name end in one of `extensions` (without dots, any case)? */
export function hasExtension(name: string, extensions: readonly string[]): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return false;
  const ext = name.slice(dot + 1).toLowerCase();
  return extensions.some((e) => e.toLowerCase() === ext);
}

/** A message shown under the control that goes away by itself after UPLOAD_HINT_MS. */
function useTimedHint() {
  const [hint, setHint] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const show = (message: string) => {
    if (timer.current) clearTimeout(timer.current);
    setHint(message);
    timer.current = setTimeout(() => setHint(null), UPLOAD_HINT_MS);
  };
  const clear = () => {
    if (timer.current) clearTimeout(timer.current);
    setHint(null);
  };
  return { hint, show, clear };
}

export type FileUploadProps<T> = {
  /** Prefix of the element ids: `${id}-input`, `${id}-hint`, `${id}-progress`. */
  id: string;
  /** The API path the file is posted to, e.g. 'uploadcsv'. */
  path: string;
  /** Allowed extensions without dots, e.g. ['csv']. */
  extensions: readonly string[];
  /** The spec's message when no file was chosen ('Select csv file for upload.'). */
  requiredMessage: string;
  /** The spec's message for a file with another extension ('Select Valid Csv file.'). */
  invalidMessage: string;
  /** The multipart field of the file (the spec's calls use 'uploads'). */
  fieldName?: string;
  /** Further multipart fields sent with the file (campaignId, dir, userId, overwrite...). */
  fields?: Record<string, string | number | boolean | null | undefined>;
  /**
   * 'dropzone': a drop area with Browse, the chosen file and an Upload button.
   * 'button': one button that opens the file picker and uploads the chosen file at once.
   */
  variant?: 'dropzone' | 'button';
  /** Button text: the Upload button of the drop zone, or the single button. */
  label?: string;
  /** Text inside the drop zone under its title. */
  description?: ReactNode;
  /** Refuse files above this size before sending (the server checks again). */
  maxBytes?: number;
  /**
   * What a failure says when the server sent no message of its own (a 5xx, a lost connection);
   * a message in the answer's errors is shown as it is (spec 2 §8 "Import error").
   */
  fallbackMessage?: string;
  /** Toast errors as well as showing them under the control (default true). */
  toastErrors?: boolean;
  disabled?: boolean;
  onUploaded: (answer: T, file: File) => void;
  onError?: (message: string, error: unknown) => void;
  /** Told when an upload starts and ends, for callers that lock their own controls. */
  onBusyChange?: (busy: boolean) => void;
};

/** An upload control: client-side checks, progress bar, busy state, reset on error. */
export function FileUpload<T = unknown>({
  id,
  path,
  extensions,
  requiredMessage,
  invalidMessage,
  fieldName = 'uploads',
  fields,
  variant = 'dropzone',
  label = 'Upload',
  description,
  maxBytes,
  fallbackMessage,
  toastErrors = true,
  disabled = false,
  onUploaded,
  onError,
  onBusyChange,
}: FileUploadProps<T>) {
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const { hint, show: showHint, clear: clearHint } = useTimedHint();
  const titleId = useId();
  const accept = extensions.map((e) => `.${e}`).join(',');

  useEffect(() => () => abortRef.current?.abort(), []);

  const setBusyState = (value: boolean) => {
    setBusy(value);
    onBusyChange?.(value);
  };

  const reset = () => {
    setFile(null);
    setProgress(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const fail = (message: string, error: unknown = null, toast = toastErrors) => {
    reset();
    setBusyState(false);
    showHint(message);
    if (toast) notify.error(message);
    onError?.(message, error);
  };

  /** The spec's checks on a chosen file; answers whether it may be sent. */
  const check = (candidate: File | null): candidate is File => {
    if (!candidate) {
      fail(requiredMessage);
      return false;
    }
    if (!hasExtension(candidate.name, extensions)) {
      fail(invalidMessage);
      return false;
    }
    if (maxBytes !== undefined && candidate.size > maxBytes) {
      fail(`The file is too large: the limit is ${formatBytes(maxBytes)}.`);
      return false;
    }
    return true;
  };

  const send = async (chosen: File) => {
    clearHint();
    setBusyState(true);
    setProgress(0);
    const form = new FormData();
    form.append(fieldName, chosen, chosen.name);
    for (const [k, v] of Object.entries(fields ?? {})) {
      if (v !== undefined && v !== null) form.append(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
    }
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const answer = await uploadWithProgress<T>(path, form, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => setProgress(total ? loaded / total : 0),
      });
      reset();
      setBusyState(false);
      onUploaded(answer, chosen);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') {
        reset();
        setBusyState(false);
        return;
      }
      // A 401 is answered by the app (login); the other errors show here.
      const apiError = err instanceof ApiError ? err : null;
      const own = apiError ? Object.values(apiError.body.errors ?? {})[0]?.[0] : undefined;
      const message =
        own || fallbackMessage || apiError?.firstMessage || 'The upload failed. Please try again.';
      fail(message, err, toastErrors && apiError?.status !== 401);
    } finally {
      abortRef.current = null;
    }
  };

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    clearHint();
    if (variant === 'button') {
      if (check(chosen)) void send(chosen);
      return;
    }
    if (check(chosen)) setFile(chosen);
  };

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    setDragging(false);
    if (busy || disabled) return;
    choose(e.dataTransfer.files?.[0] ?? null);
  };

  const onDragOver = (e: DragEvent<HTMLElement>) => {
    if (busy || disabled) return;
    if (!Array.from(e.dataTransfer.types).includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const input = (
    <input
      ref={inputRef}
      id={`${id}-input`}
      type="file"
      accept={accept}
      className="sr-only"
      tabIndex={-1}
      disabled={busy || disabled}
      onChange={(e) => choose(e.target.files?.[0] ?? null)}
      aria-label={`Choose a .${extensions.join(' or .')} file`}
      aria-describedby={hint ? `${id}-hint` : undefined}
      data-testid={`${id}-input`}
    />
  );

  const progressBar = busy && (
    <UploadProgressBar
      id={`${id}-progress`}
      progress={progress ?? 0}
      label="Upload progress"
      doing="Processing…"
    />
  );

  const hintLine = hint && (
    <p className="upload-hint" id={`${id}-hint`} role="alert">
      {hint}
    </p>
  );

  if (variant === 'button') {
    return (
      <div className="upload upload-inline" data-testid={id}>
        {input}
        <Button
          icon={<Upload size={16} aria-hidden />}
          busy={busy}
          disabled={disabled}
          onClick={() => inputRef.current?.click()}
        >
          {label}
        </Button>
        {progressBar}
        {hintLine}
      </div>
    );
  }

  return (
    <div className="upload" data-testid={id}>
      {input}
      <section
        className={['upload-zone', dragging && 'is-dragging', busy && 'is-busy', hint && 'has-error']
          .filter(Boolean)
          .join(' ')}
        aria-labelledby={titleId}
        onDragOver={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <div className="upload-zone-icon">
          <CloudUpload size={20} aria-hidden />
        </div>
        <p className="upload-zone-title" id={titleId}>
          Drop a .{extensions.join(' or .')} file here, or{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => inputRef.current?.click()}
            disabled={busy || disabled}
          >
            browse
          </button>
        </p>
        {description && <div className="upload-zone-text">{description}</div>}
      </section>
      {file && <ChosenFile file={file} icon={FileText} busy={busy} onClear={reset} />}
      {progressBar}
      {hintLine}
      <div className="upload-actions">
        <Button
          variant="primary"
          icon={<Upload size={16} aria-hidden />}
          busy={busy}
          disabled={disabled}
          onClick={() => {
            if (check(file)) void send(file);
          }}
          data-testid={`${id}-submit`}
        >
          {label}
        </Button>
      </div>
    </div>
  );
}
