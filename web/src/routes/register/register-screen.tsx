import { UserPlus } from 'lucide-react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, REGISTER_FIELD_ORDER, registerSchema } from '../../../../schema/auth-api';
import { ApiError } from '../../api/client';
import { register } from '../../api/endpoints';
import { Alert } from '../../components/alert';
import { AuthCard } from '../../components/auth-layout';
import { Button } from '../../components/button';
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
  const { values, setValue, errors, formError, setFormError, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.check(registerSchema, REGISTER_FIELD_ORDER).ok) return;
    void form.submit(async () => {
      try {
        await register({ name: values.name.trim(), email: values.email.trim(), password: values.password });
        notify.success(MESSAGES.registered);
        navigate('/login', { replace: true });
      } catch (err) {
        if (err instanceof ApiError && err.status === 422) {
          const message = form.applyServerError(err, REGISTER_FIELD_ORDER);
          if (message) setFormError(message);
        } else if (err instanceof ApiError) {
          // 403 carries 'Registration is disabled on this installation.'; others their status text.
          setFormError(err.body.message || err.statusText);
        } else {
          setFormError(String(err));
        }
      }
    });
  };

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
        <TextField
          id={`${FORM}-name`}
          label="Name"
          value={values.name}
          onValueChange={(v) => setValue('name', v)}
          error={errors.name}
          autoComplete="name"
          autoFocus
        />
        <TextField
          id={`${FORM}-email`}
          label="Email"
          type="email"
          value={values.email}
          onValueChange={(v) => setValue('email', v)}
          error={errors.email}
          autoComplete="email"
          spellCheck={false}
        />
        <TextField
          id={`${FORM}-password`}
          label="Password"
          type="password"
          value={values.password}
          onValueChange={(v) => setValue('password', stripSpaces(v))}
          error={errors.password}
          autoComplete="new-password"
        />
        <Button
          type="submit"
          variant="primary"
          size="lg"
          block
          busy={busy}
          icon={<UserPlus size={16} aria-hidden />}
        >
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
