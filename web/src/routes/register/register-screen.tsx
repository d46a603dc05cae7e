import { UserPlus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, REGISTER_FIELD_ORDER, registerSchema } from '../../../../schema/auth-api';
import { ApiError } from '../../api/client';
import { register } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'register';

/** Sign-up (spec 1): name, email, password. Off by default on the server (403 then). */
export function RegisterScreen() {
  useDocumentTitle('Create an account');
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
      footer={
        <span>
          Already have an account? <Link to="/login">Sign in</Link>
        </span>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <TextField {...form.field('name')} label="Name" autoComplete="name" autoFocus />
        <TextField
          {...form.field('email')}
          label="Email"
          type="email"
          autoComplete="email"
          spellCheck={false}
        />
        <TextField
          {...form.field('password', stripSpaces)}
          label="Password"
          type="password"
          autoComplete="new-password"
        />
        <AuthSubmit busy={busy} icon={<UserPlus size={16} aria-hidden />}>
          Create account
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
