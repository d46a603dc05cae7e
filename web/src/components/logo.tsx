import { useLogo } from '../api/hooks';
import { APP_NAME } from '../lib/constants';

/** The built-in mark: the same rising line as the favicon. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className="logo-mark"
    >
      <rect width="32" height="32" rx="8" fill="var(--accent)" />
      <path
        d="M8 21l6-7 4 4 6-8"
        stroke="#fff"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The built-in wordmark, used while the installation has no logo of its own. */
export function Wordmark({ title = APP_NAME, size = 28 }: { title?: string; size?: number }) {
  return (
    <span className="wordmark">
      <LogoMark size={size} />
      <span className="wordmark-text">{title}</span>
    </span>
  );
}

/**
 * The installation's logo from GET /api/logo; the auth screens use the transparent variant.
 * An empty logo means the built-in wordmark.
 */
export function Logo({ variant = 'header' }: { variant?: 'header' | 'auth' }) {
  const { data } = useLogo();
  const title = data?.title || APP_NAME;
  const src = variant === 'auth' ? data?.transparent_logo || data?.logo : data?.logo;
  if (src) {
    return <img className={`logo-img logo-img-${variant}`} src={src} alt={title} />;
  }
  return <Wordmark title={title} size={variant === 'auth' ? 32 : 26} />;
}
