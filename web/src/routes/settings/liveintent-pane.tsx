import { Lock, Save } from 'lucide-react';
import type { FormEvent } from 'react';
import { mutate } from 'swr';
import {
  extractAid,
  LI_OWN_FIELDS,
  LI_PERSONAL_FIELDS,
  liveIntentOwnSchema,
  liveIntentPersonalSchema,
  RETRIEVE_DAY_OPTIONS,
  SETTINGS_MESSAGES,
} from '../../../../schema/settings-api';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { CodeField, PasswordField, SelectField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { stripSpaces, useForm } from '../../lib/forms';
import { type InstallationSettings, SETTINGS_PATH, updateSetting } from './api';

const DAY_OPTIONS = RETRIEVE_DAY_OPTIONS.map((d) => ({
  value: String(d),
  label: d === -1 ? 'All' : `${d} days`,
}));

type Prefix = 'li' | 'pli';

function Switch({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="switch-field">
      <label className="switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-checked={checked}
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <span className="switch-track" aria-hidden>
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">{label}</span>
      </label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

function AccountForm({ prefix, settings }: { prefix: Prefix; settings: InstallationSettings }) {
  const own = prefix === 'li';
  const formId = own ? 'li-own' : 'li-personal';
  const daysKey = own ? 'retrieveNumDays' : 'pretrieveNumDays';
  const fields = own ? LI_OWN_FIELDS : LI_PERSONAL_FIELDS;
  const k = (name: string) => `${prefix}${name}`;
  const id = (name: string) => `${formId}-${name}`;
  const passwordSet = own ? settings.liPasswordSet : settings.pliPasswordSet;

  const form = useForm(formId, {
    [k('AdvertiserId')]: own ? settings.liAdvertiserId : settings.pliAdvertiserId,
    [k('Aid')]: own ? settings.liAid : settings.pliAid,
    [k('FetchEnable')]: String(own ? settings.liFetchEnable : settings.pliFetchEnable),
    [k('Username')]: own ? settings.liUsername : settings.pliUsername,
    [k('Password')]: '',
    [daysKey]: String(own ? settings.retrieveNumDays : settings.pretrieveNumDays),
    ...(own ? {} : { pliPauseAll: String(settings.pliPauseAll) }),
  } as Record<string, string>);
  const { values, setValue, formError, setFormError, busy } = form;
  const fetching = values[k('FetchEnable')] === '1';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const schema = own ? liveIntentOwnSchema : liveIntentPersonalSchema;
    const order = [k('AdvertiserId'), k('Aid'), k('Username'), k('Password'), daysKey];
    if (!form.check(schema, order, { ...values, passwordStored: passwordSet }).ok) return;
    void form.submit(async () => {
      try {
        const answer = await updateSetting(values);
        // Saved with a username and a password (given now or kept): the account is connected.
        const connected =
          values[k('Username')].trim() !== '' && (values[k('Password')] !== '' || passwordSet);
        notify.success(connected ? SETTINGS_MESSAGES.liveIntentConnected : answer.message);
        setValue(k('Password'), '');
        setValue(k('Aid'), extractAid(values[k('Aid')]));
        await mutate(SETTINGS_PATH);
      } catch (err) {
        const message = form.applyServerError(err, fields);
        if (message) setFormError(message);
      }
    });
  };

  return (
    <form id={formId} className="form li-account" onSubmit={onSubmit} noValidate>
      <div className="li-account-head">
        <h3 className="li-account-title">{own ? 'Own account' : 'Personal account'}</h3>
        <span className={passwordSet ? 'badge badge-success' : 'badge badge-neutral'}>
          {passwordSet ? 'Credentials stored' : 'Not connected'}
        </span>
      </div>
      {formError && <Alert>{formError}</Alert>}
      <Switch
        id={id('fetch')}
        label="Fetch reports from LiveIntent"
        checked={fetching}
        onChange={(on) => setValue(k('FetchEnable'), on ? '1' : '0')}
      />
      <div className="form-grid">
        <CodeField {...form.field(k('AdvertiserId'))} label="Advertiser ID" />
        <CodeField
          {...form.field(k('Aid'))}
          label="Advertiser app ID"
          onBlur={() => setValue(k('Aid'), extractAid(values[k('Aid')]))}
          hint="Or paste a LiveIntent link with aid=."
        />
        <CodeField
          {...form.field(k('Username'))}
          label="Client ID"
          hint='Your LiveIntent API client. With a personal access token, enter "pat".'
        />
        <PasswordField
          {...form.field(k('Password'), stripSpaces)}
          label="Client secret or access token"
          placeholder={passwordSet ? '•••••••• stored' : ''}
          hint={passwordSet ? 'Leave blank to keep the stored secret.' : undefined}
        />
        <SelectField
          {...form.field(daysKey)}
          label="Retrieval days"
          options={DAY_OPTIONS}
          hint="How far back each fetch reaches."
        />
      </div>
      {!own && (
        <Switch
          id={id('pause')}
          label="Pause all campaigns of this account"
          checked={values.pliPauseAll === '1'}
          onChange={(on) => setValue('pliPauseAll', on ? '1' : '0')}
        />
      )}
      <FormSubmitRow variant="secondary" busy={busy} icon={Save}>
        Save {own ? 'own account' : 'personal account'}
      </FormSubmitRow>
    </form>
  );
}

/**
 * The two LiveIntent credential sections (spec 2 §2, §5): an API client (id and secret) or a
 * personal access token (decision 150), with what the product does with them
 * (docs/operations.md, "Ad platforms"; docs/decisions/159).
 */
export function LiveIntentPane({ settings }: { settings: InstallationSettings }) {
  return (
    <Card
      id="liveintent"
      title="LiveIntent accounts"
      description="Credentials for importing spend from LiveIntent and managing its campaigns."
    >
      <div className="form">
        <Alert tone="info">
          <span data-testid="liveintent-use">
            The own account (a LiveIntent API client, its client ID and secret, or a personal access token)
            signs in to LiveIntent for the hourly cost import of campaigns linked to LiveIntent, for Force
            sync on the statistics screen (back as far as its retrieval days) and for the Manage LiveIntent
            screens. A LiveIntent connection saved on Integrations by a campaign’s owner is used instead where
            there is one. Filling in the personal account (advertiser and username) means this installation
            manages LiveIntent in that account: the Manage LiveIntent screens are then closed. Secrets are
            kept encrypted and never shown again.
          </span>
        </Alert>
        <div className="li-accounts">
          <AccountForm prefix="li" settings={settings} />
          <AccountForm prefix="pli" settings={settings} />
        </div>
        <p className="settings-footnote">
          <Lock size={13} aria-hidden /> Encrypted with this installation’s key. An install export leaves them
          out.
        </p>
      </div>
    </Card>
  );
}
