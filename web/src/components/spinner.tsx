import { LoaderCircle } from 'lucide-react';

export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <LoaderCircle
      className="spinner"
      size={size}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? 'status' : undefined}
    />
  );
}

/** Whole-page wait, for the first entry check before any screen can show. */
export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner size={22} />
      <span>{label}</span>
    </div>
  );
}
