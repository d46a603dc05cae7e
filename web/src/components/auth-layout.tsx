import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { APP_NAME, APP_VERSION } from '../lib/constants';
import { Button } from './button';
import { Logo } from './logo';

/** The centred card of the public screens (login, setup, license, passwords, register). */
export function AuthLayout() {
  return (
    <div className="auth-page">
      <main className="auth-main" id="main">
        <div className="auth-logo">
          <Logo variant="auth" />
        </div>
        <Outlet />
      </main>
      <footer className="auth-footer">
        {APP_NAME} · Version {APP_VERSION}
      </footer>
    </div>
  );
}

type AuthCardProps = {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  footer?: React.ReactNode;
  wide?: boolean;
};

export function AuthCard({ title, description, children, footer, wide }: AuthCardProps) {
  return (
    <section className={wide ? 'auth-card auth-card-wide' : 'auth-card'} aria-labelledby="auth-title">
      <header className="auth-card-header">
        <h1 id="auth-title" className="auth-title">
          {title}
        </h1>
        {description && <p className="auth-description">{description}</p>}
      </header>
      {children}
      {footer && <div className="auth-card-footer">{footer}</div>}
    </section>
  );
}

/** The one action of a public screen's form: full width, busy while the form is sent. */
export function AuthSubmit({
  busy,
  icon,
  children,
}: {
  busy: boolean;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <Button type="submit" variant="primary" size="lg" block busy={busy} icon={icon}>
      {children}
    </Button>
  );
}
