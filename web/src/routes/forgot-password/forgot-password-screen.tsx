import { Mail } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { forgotPasswordSchema } from '../../../../schema/auth-api';
import { requestPasswordReset } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard } from '../../components/auth-layout';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'forgot';

/** Forgot password (spec 1 §4, §5): success shows the check-your-email message, then /login. */
export function ForgotPasswordScreen() {
  useDocumentTitle('Forgot password');
  const navigate = useNavigate();
  const form = useForm(FORM, { email: '' });
  const { values, setValue, errors, formError, setFormError, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.check(forgotPasswordSchema, ['email']).ok) return;
    void form.submit(async () => {
      try {
        const answer = await requestPasswordReset({ email: values.email.trim() });
        notify.success(answer.message, { id: 'reset-mail' });
        navigate('/login', { replace: true });
      } catch (err) {
        const message = form.applyServerError(err, ['email']);
        if (message) setFormError(message);
      }
    });
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <span>
          Remembered it? <Link to="/login">Back to sign in</Link>
        </span>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <TextField
          id={`${FORM}-email`}
          label="Email"
          type="email"
          value={values.email}
          onValueChange={(v) => setValue('email', v)}
          error={errors.email}
          autoComplete="email"
          spellCheck={false}
          autoFocus
        />
        <Button
          type="submit"
          variant="primary"
          size="lg"
          block
          busy={busy}
          icon={<Mail size={16} aria-hidden />}
        >
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}
