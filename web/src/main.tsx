import './lib/zod-jitless';
import './styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { SWRConfig } from 'swr';
import { MESSAGES } from '../../schema/auth-api';
import { ApiError, setNoticeHandler, setUnauthorizedHandler } from './api/client';
import { ConfirmProvider } from './components/confirm-dialog';
import { AppToaster, notify } from './components/toaster';
import { clearSession, rememberIntendedUrl } from './lib/auth';
import { router } from './router';

// Spec 4 §8: a 401 clears the session, resets the side link, toasts and goes to /login. The
// page the user was on becomes the intended URL, so signing in again brings them back.
setUnauthorizedHandler(() => {
  const { pathname, search } = router.state.location;
  clearSession();
  if (pathname !== '/login') rememberIntendedUrl(pathname + search);
  notify.warning(MESSAGES.sessionTimeout, { id: 'session-timeout' });
  if (pathname !== '/login') void router.navigate('/login', { replace: true });
});

// Spec 4 §8: what the generic API layer shows by itself (a server failure's status text, a 2xx
// answer's data.message when it says errors: true) is a warning toast.
setNoticeHandler((message) => notify.warning(message));

const swrConfig = {
  // A 4xx will not fix itself by asking again; network trouble may.
  shouldRetryOnError: (err: unknown) => !(err instanceof ApiError) || err.status === 0 || err.status >= 500,
  errorRetryCount: 2,
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SWRConfig value={swrConfig}>
      <ConfirmProvider>
        <RouterProvider router={router} />
      </ConfirmProvider>
      <AppToaster />
    </SWRConfig>
  </StrictMode>,
);
