import { UserPlus } from 'lucide-react';
import { useNavigate } from 'react-router';
import { ACCOUNT_MESSAGES, type RegistrationAnswer } from '../../../../schema/accounts-api';
import { MESSAGES, REGISTER_FIELD_ORDER, registerSchema } from '../../../../schema/auth-api';
import { ApiError } from '../../api/client';
import { register } from '../../api/endpoints';
import { useApi } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { EmailField, PasswordField, TextField } from '../../components/field';
import { SignInFooter } from '../../components/sign-in-footer';
import { Spinner } from '../../components/spinner';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'register';

/**
 * Sign-up (spec 1): name, email, password. Off by default on the server; the screen asks first
 * and, when it is off, says so instead of showing a form that can only fail (issue 17).
 */
export function RegisterScreen() {
  useDocumentTitle('Create an account');
  const status = useApi<RegistrationAnswer>('registration', { revalidateOnFocus: false });
  const footer = <SignInFooter lead="Already have an account?" label="Sign in" />;
  if (!status.data && !status.error) {
    return (
      <AuthCard title="Create an account" footer={footer}>
        <p className="auth-description" role="status">
          <Spinner size={14} /> Checking whether sign-up is open…
        </p>
      </AuthCard>
    );
  }
  if (status.data && !status.data.open) {
    return (
      <AuthCard title="Registration is closed" footer={footer}>
        <Alert tone="info">
          <span data-testid="registration-closed">{ACCOUNT_MESSAGES.registrationClosed}</span>
        </Alert>
      </AuthCard>
    );
  }
  // Open, or the check failed: the form (the server still refuses when sign-up is off).
  return <RegisterForm footer={footer} />;
}

function RegisterForm({ footer }: { footer: React.ReactNode }) {
  const navigate = useNavigate();
  const form = useForm(FORM, { name: '', email: '', password: '' });
  const { values, formError, busy } = form;

  const onSubmit = form.onSubmitWith({
    schema: registerSchema,
    order: REGISTER_FIELD_ORDER,
    send: async () => {
      await register({ name: values.name.trim(), email: values.email.trim(), password: values.password });
      notify.success(MESSAGES.registered);
      navigate('/login', { replace: true });
    },
    // 403 carries 'Registration is disabled on this installation.'; others their status text.
    failure: (err, message) =>
      !(err instanceof ApiError)
        ? String(err)
        : err.status === 422
          ? message
          : err.body.message || err.statusText,
  });

  return (
    <AuthCard
      title="Create an account"
      description="Sign up to track your campaigns. Your administrator may also create accounts for you."
      footer={footer}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <TextField {...form.field('name')} label="Name" autoComplete="name" autoFocus />
        <EmailField {...form.field('email')} />
        <PasswordField {...form.field('password', stripSpaces)} />
        <AuthSubmit busy={busy} icon={<UserPlus size={16} aria-hidden />}>
          Create account
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
