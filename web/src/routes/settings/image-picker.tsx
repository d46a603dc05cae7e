import { ImageUp, RotateCcw } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { hasExtension } from '../../components/file-upload';
import { formatBytes } from '../../lib/format';

/** What kind of image a picker takes: its label, file types, size limit and their messages. */
export type ImageSpec = {
  label: string;
  extensions: readonly string[];
  maxBytes: number;
  typeMessage: string;
  sizeMessage: string;
  hint: ReactNode;
  variant: 'logo' | 'favicon';
};

/**
 * The state of one picker: the chosen file, not uploaded yet (it goes with Save), whether the
 * reset to the built-in image was asked for, and the picker's message.
 */
export function useImageChoice() {
  const [file, setFile] = useState<File | null>(null);
  const [reset, setReset] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    file,
    reset,
    error,
    setError,
    choose: (chosen: File | null) => {
      setFile(chosen);
      if (chosen) setReset(false);
    },
    askReset: () => setReset(true),
    /** After a save: nothing chosen any more. */
    clear: () => {
      setFile(null);
      setReset(false);
    },
  };
}

type Props = ImageSpec & {
  id: string;
  /** The image stored now ('' for the built-in one). */
  current: string;
  choice: ReturnType<typeof useImageChoice>;
  /** What shows when there is no image of the installation's own. */
  fallback: ReactNode;
};

/** An image chosen for the form: checked here, previewed at once, uploaded with Save. */
export function ImagePicker({
  id,
  label,
  current,
  choice,
  extensions,
  maxBytes,
  typeMessage,
  sizeMessage,
  hint,
  fallback,
  variant,
}: Props) {
  const { file, reset, error, choose: onFile, askReset: onReset, setError: onError } = choice;
  const inputRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => {
    if (!file && inputRef.current) inputRef.current.value = '';
  }, [file]);

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    if (!hasExtension(chosen.name, extensions)) {
      onError(typeMessage);
      onFile(null);
      return;
    }
    if (chosen.size > maxBytes) {
      onError(sizeMessage);
      onFile(null);
      return;
    }
    onError(null);
    onFile(chosen);
  };

  const shown = preview ?? (reset ? '' : current);
  const status = file
    ? `${file.name} · ${formatBytes(file.size)} · saved with the settings`
    : reset
      ? 'The built-in image is used after saving'
      : current
        ? 'Your uploaded image'
        : 'The built-in image';

  return (
    <div className={['field', 'image-picker', error && 'has-error'].filter(Boolean).join(' ')}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="image-picker-row">
        <div className={`image-preview image-preview-${variant}`} data-testid={`${id}-preview`}>
          {shown ? <img src={shown} alt={`${label} preview`} /> : fallback}
        </div>
        <div className="image-picker-body">
          <p className="image-picker-status">{status}</p>
          <div className="image-picker-actions">
            <input
              ref={inputRef}
              id={id}
              type="file"
              className="sr-only"
              tabIndex={-1}
              accept={extensions.map((e) => `.${e}`).join(',')}
              aria-labelledby={`${id}-label`}
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
              data-testid={`${id}-input`}
            />
            <Button
              size="sm"
              icon={<ImageUp size={15} aria-hidden />}
              onClick={() => inputRef.current?.click()}
            >
              {current || file ? 'Replace' : 'Upload'}
            </Button>
            {onReset && (current || file) && !reset && (
              <Button
                size="sm"
                variant="ghost"
                icon={<RotateCcw size={15} aria-hidden />}
                onClick={() => {
                  onFile(null);
                  onError(null);
                  onReset();
                }}
              >
                Reset to default
              </Button>
            )}
          </div>
        </div>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : (
        <p className="field-hint">{hint}</p>
      )}
    </div>
  );
}
