// The token forms of the integrations screen (spec 4 §2, §8): TikTok and MediaGo tokens,
// Taboola's client id and secret, and the Facebook conversion test. A stored value is shown
// masked beside its field; the field itself starts empty, so a secret never sits in the page.
import { FlaskConical, Save } from 'lucide-react';
import { mutate } from 'swr';
import {
  apiTokenInput,
  CONNECTION_MESSAGES as M,
  TABOOLA_ORDER,
  TEST_CONVERSION_ORDER,
  taboolaInput,
  testConversionInput,
} from '../../../../schema/connections-api';
import { Card } from '../../components/card';
import { CodeField, PasswordField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { useForm } from '../../lib/forms';
import {
  setPlatformToken,
  setTaboola,
  TABOOLA_KEY,
  testConversion,
  tokenKey,
  usePlatformToken,
  useTaboola,
} from './api';

/**
 * The save of a token form with the spec's toasts: success, then `after`; or the failure message,
 * with the error passed on to the form. The toast carries the message, so the form shows nothing
 * more; field messages stay at their fields.
 */
function withToasts(
  call: () => Promise<unknown>,
  success: string,
  failure: string,
  after: () => Promise<unknown> | undefined = () => undefined,
) {
  return {
    failure: () => null,
    send: async () => {
      try {
        await call();
      } catch (err) {
        notify.error(failure);
        throw err;
      }
      notify.success(success);
      await after();
    },
  };
}

function Stored({ label, value, testId }: { label: string; value: string | undefined; testId: string }) {
  return (
    <p className="integration-stored">
      {label}:{' '}
      {value ? (
        <code data-testid={testId}>{value}</code>
      ) : (
        <span className="integration-none" data-testid={testId}>
          none stored
        </span>
      )}
    </p>
  );
}

export function PlatformTokenForm({ platform, label }: { platform: 'tiktok' | 'mediago'; label: string }) {
  const stored = usePlatformToken(platform);
  const form = useForm(`${platform}-form`, { api_token: '' });
  const onSubmit = form.onSubmitWith({
    schema: apiTokenInput,
    order: ['api_token'],
    ...withToasts(
      () => setPlatformToken(platform, form.values.api_token),
      M.tokenSaved,
      M.tokenFailed,
      () => {
        form.setValue('api_token', '');
        return mutate(tokenKey(platform));
      },
    ),
  });
  return (
    <Card title={label} description={`The ${label} API token the cost import and ad records use.`}>
      <form id={`${platform}-form`} className="form" onSubmit={onSubmit} noValidate>
        <Stored label="Stored token" value={stored.data?.token} testId={`${platform}-stored`} />
        <PasswordField
          {...form.field('api_token')}
          label={`${label} API token`}
          autoComplete="off"
          spellCheck={false}
        />
        <FormSubmitRow busy={form.busy} icon={Save}>
          Save token
        </FormSubmitRow>
      </form>
    </Card>
  );
}

export function TaboolaForm() {
  const stored = useTaboola();
  const form = useForm('taboola-form', { client_id: '', client_secret: '' });
  const onSubmit = form.onSubmitWith({
    schema: taboolaInput,
    order: TABOOLA_ORDER,
    ...withToasts(
      () => setTaboola(form.values),
      M.taboolaSaved,
      M.taboolaFailed,
      () => {
        form.setValue('client_id', '');
        form.setValue('client_secret', '');
        return mutate(TABOOLA_KEY);
      },
    ),
  });
  return (
    <Card title="Taboola" description="The Backstage API client credentials of your Taboola account.">
      <form id="taboola-form" className="form" onSubmit={onSubmit} noValidate>
        <div className="integration-stored-pair">
          <Stored label="Stored client ID" value={stored.data?.client_id} testId="taboola-client-stored" />
          <Stored
            label="Stored client secret"
            value={stored.data?.client_secret}
            testId="taboola-secret-stored"
          />
        </div>
        <div className="form-grid">
          <CodeField {...form.field('client_id')} label="Client ID" />
          <PasswordField
            {...form.field('client_secret')}
            label="Client secret"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <FormSubmitRow busy={form.busy} icon={Save}>
          Save Taboola
        </FormSubmitRow>
      </form>
    </Card>
  );
}

export function ConversionTestForm() {
  const form = useForm('conversion-test', { dataset_id: '', test_event_code: '' });
  const onSubmit = form.onSubmitWith({
    schema: testConversionInput,
    order: TEST_CONVERSION_ORDER,
    ...withToasts(() => testConversion(form.values), M.conversionOk, M.conversionFailed),
  });
  return (
    <form id="conversion-test" className="form integration-subform" onSubmit={onSubmit} noValidate>
      <h3 className="form-section-title">Conversion test</h3>
      <p className="field-hint">
        Sends one test event to the dataset; it appears under Test events in Facebook's Events Manager.
      </p>
      <div className="form-grid">
        <TextField {...form.field('dataset_id')} label="Dataset ID" inputMode="numeric" autoComplete="off" />
        <TextField {...form.field('test_event_code')} label="Test event code" autoComplete="off" />
      </div>
      <FormSubmitRow variant="secondary" busy={form.busy} icon={FlaskConical}>
        Send test conversion
      </FormSubmitRow>
    </form>
  );
}
