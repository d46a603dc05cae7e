import { Mail } from 'lucide-react';
import { useNavigate } from 'react-router';
import { forgotPasswordSchema } from '../../../../schema/auth-api';
import { requestPasswordReset } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { EmailField } from '../../components/field';
import { SignInFooter } from '../../components/sign-in-footer';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'forgot';

/** Forgot password (spec 1 §4, §5): success shows the check-your-email message, then /login. */
export function ForgotPasswordScreen() {
  useDocumentTitle('Forgot password');
  const navigate = useNavigate();
  const form = useForm(FORM, { email: '' });
  const { values, formError, busy } = form;

  const onSubmit = form.onSubmitWith({
    schema: forgotPasswordSchema,
    order: ['email'],
    send: async () => {
      const answer = await requestPasswordReset({ email: values.email.trim() });
      notify.success(answer.message, { id: 'reset-mail' });
      navigate('/login', { replace: true });
    },
  });

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      footer={<SignInFooter lead="Remembered it?" />}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <EmailField {...form.field('email')} autoFocus />
        <AuthSubmit busy={busy} icon={<Mail size={16} aria-hidden />}>
          Send reset link
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
