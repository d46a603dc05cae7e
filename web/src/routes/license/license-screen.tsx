import { KeyRound } from 'lucide-react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LICENSE_FIELD_ORDER, licenseSchema, MESSAGES } from '../../../../schema/auth-api';
import { ApiError } from '../../api/client';
import { activateLicense } from '../../api/endpoints';
import { useLicense } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { AuthCard, AuthSubmit } from '../../components/auth-layout';
import { EmailField, TextareaField } from '../../components/field';
import { SignInFooter } from '../../components/sign-in-footer';
import { notify } from '../../components/toaster';
import { formatDate } from '../../lib/format';
import { useForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/use-document-title';

const FORM = 'license';

function LicenseStatus() {
  const { data } = useLicense();
  if (!data) return null;
  const active = data.status === 'active';
  return (
    <div className="status-line" data-testid="license-status">
      <span className={active ? 'badge badge-success' : 'badge badge-warning'}>
        {active ? 'Active' : 'Inactive'}
      </span>
      <span>
        {active
          ? `Licensed to ${data.email ?? ''}${data.expires_at ? `, valid until ${formatDate(data.expires_at)}` : ''}.`
          : 'This installation has no valid license.'}
      </span>
    </div>
  );
}

/** License activation (spec 1 §5): email and license key; success goes to /login. */
export function LicenseScreen() {
  useDocumentTitle('License');
  const navigate = useNavigate();
  const form = useForm(FORM, { email: '', licenseKey: '' });
  const { values, formError, setFormError, busy } = form;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.check(licenseSchema, LICENSE_FIELD_ORDER).ok) return;
    void form.submit(async () => {
      try {
        await activateLicense({ email: values.email.trim(), licenseKey: values.licenseKey.trim() });
        notify.success('License activated.');
        navigate('/login', { replace: true });
      } catch (err) {
        // Spec 1 §8: 422/400 show the first error (at its field); anything else the fixed text.
        if (err instanceof ApiError && err.isValidation) {
          const message = form.applyServerError(err, LICENSE_FIELD_ORDER);
          if (message) setFormError(message);
        } else {
          setFormError(MESSAGES.licenseInvalid);
        }
      }
    });
  };

  return (
    <AuthCard
      title="Activate your license"
      description="Enter the email and license key of your purchase to activate this installation."
      footer={<SignInFooter lead="Already active?" />}
    >
      <LicenseStatus />
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError && <Alert>{formError}</Alert>}
        <EmailField {...form.field('email')} autoFocus />
        <TextareaField
          {...form.field('licenseKey', (v) => v.trim())}
          label="License key"
          rows={4}
          spellCheck={false}
          submitOnEnter
          className="input textarea mono"
        />
        <AuthSubmit busy={busy} icon={<KeyRound size={16} aria-hidden />}>
          Activate license
        </AuthSubmit>
      </form>
    </AuthCard>
  );
}
