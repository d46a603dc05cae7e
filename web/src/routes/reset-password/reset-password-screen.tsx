import { Lock } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, useLoaderData, useNavigate } from 'react-router';
import { MESSAGES, RESET_FIELD_ORDER, resetPasswordSchema } from '../../../../schema/auth-api';
import { resetPassword } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard } from '../../components/auth-layout';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'reset';
const VISIBLE = ['password', 'password_confirmation'] as const;

/** Reset password: the link was verified on entry (the loader); success goes to /login. */
export function ResetPasswordScreen() {
  useDocumentTitle('Choose a new password');
  const { email, token } = useLoaderData() as { email: string; token: string };
  const navigate = useNavigate();
  const form = useForm(FORM, { password: '', password_confirmation: '' });
  const { values, setValue, errors, formError, setFormError, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const input = { email, token, ...values };
    if (!form.check(resetPasswordSchema, RESET_FIELD_ORDER, input).ok) return;
    void form.submit(async () => {
      try {
        await resetPassword(input);
        notify.success(MESSAGES.passwordChanged);
        navigate('/login', { replace: true });
      } catch (err) {
        const message = form.applyServerError(err, VISIBLE);
        if (message) setFormError(message);
      }
    });
  };

  return (
    <AuthCard
      title="Choose a new password"
      description={
        <>
          For the account <strong className="break-all">{email}</strong>. Spaces are removed as you type.
        </>
      }
      footer={
        <span>
          Changed your mind? <Link to="/login">Back to sign in</Link>
        </span>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <TextField
          id={`${FORM}-password`}
          label="New password"
          type="password"
          value={values.password}
          onValueChange={(v) => setValue('password', stripSpaces(v))}
          error={errors.password}
          autoComplete="new-password"
          autoFocus
        />
        <TextField
          id={`${FORM}-password_confirmation`}
          label="Confirm new password"
          type="password"
          value={values.password_confirmation}
          onValueChange={(v) => setValue('password_confirmation', stripSpaces(v))}
          error={errors.password_confirmation}
          autoComplete="new-password"
        />
        <Button
          type="submit"
          variant="primary"
          size="lg"
          block
          busy={busy}
          icon={<Lock size={16} aria-hidden />}
        >
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
