import { Rocket } from 'lucide-react';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { MESSAGES, SETUP_FIELD_ORDER, startupSchema } from '../../../../schema/auth-api';
import { ApiError } from '../../api/client';
import { applicationStartup } from '../../api/endpoints';
import { useTimezones } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { AuthCard } from '../../components/auth-layout';
import { EmailField, PasswordField, SelectField, TextareaField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'setup';

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** First-run setup (spec 1 §4, §5): the first administrator and the installation's settings. */
export function ApplicationStartupScreen() {
  useDocumentTitle('Set up Edge Tracker');
  const navigate = useNavigate();
  const guessedZone = useMemo(browserTimeZone, []);
  const { data: zones, isLoading: zonesLoading } = useTimezones();
  const form = useForm(FORM, {
    username: '',
    password: '',
    confirm_password: '',
    baseurl: window.location.origin,
    email: '',
    timezone: guessedZone,
    license_key: '',
  });
  const { values, formError, busy } = form;

  const zoneOptions = useMemo(() => {
    const list = zones?.length ? [...zones] : [];
    if (values.timezone && !list.includes(values.timezone)) list.unshift(values.timezone);
    return [
      { value: '', label: 'Select a time zone' },
      ...list.map((z) => ({ value: z, label: z.replace(/_/g, ' ') })),
    ];
  }, [zones, values.timezone]);

  const onSubmit = form.onSubmitWith({
    schema: startupSchema,
    order: SETUP_FIELD_ORDER,
    send: async () => {
      // The wizard does not sign in (spec 1 §4): the answer's token is not kept.
      await applicationStartup(values);
      notify.success(MESSAGES.setupComplete);
      navigate('/login', { replace: true });
    },
    failure: (err, message) =>
      message && err instanceof ApiError && err.status === 0 ? err.message : message,
  });

  return (
    <AuthCard
      wide
      title="Set up your installation"
      description="Create the administrator account and tell Edge Tracker where it runs. This takes a minute and is done once."
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}

        <section className="form-section" aria-labelledby="setup-section-account">
          <h2 className="form-section-title" id="setup-section-account">
            Administrator account
          </h2>
          <TextField
            {...form.field('username')}
            label="Username"
            hint="Required: letters, digits, dots, dashes or @. 'Admin' is reserved for the product."
            hintOnError
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
          />
          <div className="form-grid">
            <PasswordField {...form.field('password', stripSpaces)} />
            <PasswordField {...form.field('confirm_password', stripSpaces)} label="Confirm password" />
          </div>
        </section>

        <section className="form-section" aria-labelledby="setup-section-installation">
          <h2 className="form-section-title" id="setup-section-installation">
            Installation
          </h2>
          <div className="form-grid">
            <TextField
              {...form.field('baseurl')}
              label="Base URL"
              type="url"
              hint="The address your tracking links and emails use."
              autoComplete="url"
              spellCheck={false}
            />
            <EmailField {...form.field('email')} hint="The license's email, also used for password resets." />
          </div>
          <SelectField
            {...form.field('timezone')}
            label="Time zone"
            options={zoneOptions}
            hint={zonesLoading ? 'Loading time zones…' : 'Statistics days start and end in this time zone.'}
          />
        </section>

        <section className="form-section" aria-labelledby="setup-section-license">
          <h2 className="form-section-title" id="setup-section-license">
            License
          </h2>
          <TextareaField
            {...form.field('license_key', (v) => v.trim())}
            label="License key"
            hint="Paste the key you received with your purchase."
            rows={4}
            spellCheck={false}
            submitOnEnter
            className="input textarea mono"
          />
        </section>

        <FormSubmitRow size="lg" busy={busy} icon={Rocket}>
          Complete setup
        </FormSubmitRow>
      </form>
    </AuthCard>
  );
}
