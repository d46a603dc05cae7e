import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Wordmark } from './logo';

/** Shown when a screen fails to render or load: a way back instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <div className="auth-page">
      <main className="auth-main" id="main">
        <div className="auth-logo">
          <Wordmark />
        </div>
        <section className="auth-card" aria-labelledby="error-title">
          <div className="error-icon">
            <TriangleAlert size={20} aria-hidden />
          </div>
          <h1 id="error-title" className="auth-title">
            This page could not be shown
          </h1>
          <p className="auth-description">{message}</p>
          <div className="form-actions">
            <Link className="btn btn-primary btn-md" to="/" reloadDocument>
              <span>Back to the start</span>
            </Link>
          </div>
        </section>
      </main>
    </div>
  );
}
