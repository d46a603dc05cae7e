import { Lock } from 'lucide-react';
import { useLoaderData, useNavigate } from 'react-router';
import { MESSAGES, RESET_FIELD_ORDER, resetPasswordSchema } from '../../../../schema/auth-api';
import { resetPassword } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { PasswordField } from '../../components/field';
import { SignInFooter } from '../../components/sign-in-footer';
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
  const { formError, busy } = form;
  const input = { email, token, ...form.values };

  const onSubmit = form.onSubmitWith({
    schema: resetPasswordSchema,
    order: RESET_FIELD_ORDER,
    input: () => input,
    fields: VISIBLE,
    send: async () => {
      await resetPassword(input);
      notify.success(MESSAGES.passwordChanged);
      navigate('/login', { replace: true });
    },
  });

  return (
    <AuthCard
      title="Choose a new password"
      description={
        <>
          For the account <strong className="break-all">{email}</strong>. Spaces are removed as you type.
        </>
      }
      footer={<SignInFooter lead="Changed your mind?" />}
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <PasswordField {...form.field('password', stripSpaces)} label="New password" autoFocus />
        <PasswordField {...form.field('password_confirmation', stripSpaces)} label="Confirm new password" />
        <AuthSubmit busy={busy} icon={<Lock size={16} aria-hidden />}>
          Change password
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
