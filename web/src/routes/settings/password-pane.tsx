import { KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { PASSWORD_FIELDS, passwordChangeSchema } from '../../../../schema/settings-api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { KEYS, writeKey } from '../../lib/storage';
import { updateSetting } from './api';

const FORM = 'password';
const id = (name: string) => `${FORM}-${name}`;
const EMPTY = { oldPassword: '', newPassword: '', confirmPassword: '' };

/** Any user's own password. Saving signs out every other session of the user. */
export function PasswordPane({ username }: { username: string }) {
  const form = useForm(FORM, EMPTY);
  const { values, setValue, setValues, errors, formError, setFormError, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.check(passwordChangeSchema, PASSWORD_FIELDS).ok) return;
    void form.submit(async () => {
      try {
        const answer = await updateSetting(values);
        // The change revoked every token; the answer carries this session's new one.
        if (answer.token) writeKey(KEYS.token, answer.token);
        setValues(EMPTY);
        notify.success(answer.message);
      } catch (err) {
        const message = form.applyServerError(err, PASSWORD_FIELDS);
        if (message) setFormError(message);
      }
    });
  };

  return (
    <Card
      id="password"
      title="Password"
      description={`Change the password of ${username}. Other devices signed in as you are signed out.`}
    >
      <form id={FORM} className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        {/* A hidden username helps password managers file the new password under the account. */}
        <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
        <div className="form-grid form-grid-3">
          <TextField
            id={id('oldPassword')}
            label="Old password"
            type="password"
            value={values.oldPassword}
            onValueChange={(v) => setValue('oldPassword', stripSpaces(v))}
            error={errors.oldPassword}
            autoComplete="current-password"
          />
          <TextField
            id={id('newPassword')}
            label="New password"
            type="password"
            value={values.newPassword}
            onValueChange={(v) => setValue('newPassword', stripSpaces(v))}
            error={errors.newPassword}
            autoComplete="new-password"
          />
          <TextField
            id={id('confirmPassword')}
            label="Confirm password"
            type="password"
            value={values.confirmPassword}
            onValueChange={(v) => setValue('confirmPassword', stripSpaces(v))}
            error={errors.confirmPassword}
            autoComplete="new-password"
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} icon={<KeyRound size={16} aria-hidden />}>
            Change password
          </Button>
        </div>
      </form>
    </Card>
  );
}
