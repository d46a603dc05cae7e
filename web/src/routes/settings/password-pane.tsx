import { KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { PASSWORD_FIELDS, passwordChangeSchema } from '../../../../schema/settings-api';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { PasswordField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { KEYS, writeKey } from '../../lib/storage';
import { updateSetting } from './api';

const FORM = 'password';
const EMPTY = { oldPassword: '', newPassword: '', confirmPassword: '' };

/** Any user's own password. Saving signs out every other session of the user. */
export function PasswordPane({ username }: { username: string }) {
  const form = useForm(FORM, EMPTY);
  const { values, setValues, formError, setFormError, busy } = form;

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
          <PasswordField
            {...form.field('oldPassword', stripSpaces)}
            label="Old password"
            autoComplete="current-password"
          />
          <PasswordField {...form.field('newPassword', stripSpaces)} label="New password" />
          <PasswordField {...form.field('confirmPassword', stripSpaces)} label="Confirm password" />
        </div>
        <FormSubmitRow busy={busy} icon={KeyRound}>
          Change password
        </FormSubmitRow>
      </form>
    </Card>
  );
}
