import { LogIn } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useLoaderData, useNavigate } from 'react-router';
import { MESSAGES } from '../../../../schema/auth-api';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';
import { type LoginInput, login } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { PasswordField, TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { storeSession, takeIntendedUrl } from '../../lib/auth';
import { focusField, stripSpaces, useForm } from '../../lib/forms';
import type { LoginLoaderData } from '../../lib/guards';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'login';
const USERNAME_REQUIRED = 'Username field is required.';

/** Spec 1 §8: 422/400 -> first error; 429 -> the server's words; otherwise the fixed message. */
function loginFailureMessage(err: unknown, viaLink: boolean): string {
  if (!(err instanceof ApiError)) return MESSAGES.loginFailed;
  if (err.status === 0) return NETWORK_ERROR_MESSAGE;
  if (err.status === 422 || err.status === 400 || err.status === 429) return err.firstMessage;
  // 403 is only answered with the right password of a disabled account (issue 17): say so.
  if (err.status === 403) return err.firstMessage;
  // A one-time link has no username or password to blame: say what failed.
  if (viaLink && err.status === 401) return err.firstMessage;
  return MESSAGES.loginFailed;
}

export function LoginScreen() {
  useDocumentTitle('Sign in');
  const { loginLink } = useLoaderData() as LoginLoaderData;
  const navigate = useNavigate();
  const form = useForm(FORM, { username: '', password: '' });
  const { values, errors, setErrors, formError, setFormError } = form;
  // A login attempt is ignored while another is in progress (spec 1 §4).
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const [viaLink, setViaLink] = useState(Boolean(loginLink));

  const attempt = async (input: LoginInput, isLink: boolean) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setFormError(null);
    try {
      const answer = await login(input);
      if (answer.license === 'inactive' || !answer.token) {
        notify.warning('The license of this installation is inactive. Activate it to continue.', {
          id: 'license-inactive',
        });
        navigate('/license');
        return;
      }
      storeSession({ token: answer.token, user: answer.user, role: answer.role });
      navigate(takeIntendedUrl() ?? '/campaigns', { replace: true });
    } catch (err) {
      setFormError(loginFailureMessage(err, isLink));
      if (!isLink) focusField(FORM, 'password');
    } finally {
      inFlight.current = false;
      setBusy(false);
      setViaLink(false);
    }
  };

  // Auto-login from /login#loginToken=...&hash=... ; the secret leaves the address bar at once.
  const linkUsed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the link the page was opened with
  useEffect(() => {
    if (!loginLink || linkUsed.current) return;
    linkUsed.current = true;
    window.history.replaceState(window.history.state, '', '/login');
    void attempt({ username: '', password: '', ...loginLink }, true);
  }, [loginLink]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!values.username.trim()) found.username = USERNAME_REQUIRED;
    if (!values.password) found.password = MESSAGES.passwordRequired;
    setErrors(found);
    if (found.username || found.password) {
      focusField(FORM, found.username ? 'username' : 'password');
      return;
    }
    void attempt(
      { username: values.username.trim(), password: values.password, loginToken: '', hash: '' },
      false,
    );
  };

  return (
    <AuthCard
      title="Sign in"
      description="Welcome back. Sign in to see your campaigns and results."
      footer={
        <span>
          License inactive? <Link to="/license">Activate a license</Link>
        </span>
      }
    >
      <form
        className="form"
        onSubmit={onSubmit}
        noValidate
        aria-describedby={formError ? 'login-error' : undefined}
      >
        {viaLink && busy && <Alert tone="info">Signing you in with your one-time link…</Alert>}
        {formError && <Alert id="login-error">{formError}</Alert>}
        <TextField
          {...form.field('username')}
          label="Username"
          autoComplete="username"
          autoFocus={!loginLink}
          autoCapitalize="none"
          spellCheck={false}
        />
        <PasswordField {...form.field('password', stripSpaces)} autoComplete="current-password" />
        <div className="form-row-between">
          <Link to="/forgot-password" className="link-muted">
            Forgot password?
          </Link>
        </div>
        <AuthSubmit busy={busy} icon={<LogIn size={16} aria-hidden />}>
          Sign in
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
