import { KeyRound } from 'lucide-react';
import { useNavigate } from 'react-router';
import { SETTINGS_MESSAGES as M } from '../../../../schema/settings-api';
import { useLicense } from '../../api/hooks';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirmedAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';
import { formatDate } from '../../lib/format';
import { deactivateLicense } from './api';

/** The license of the installation; deactivating it goes to /license (spec 2 §2). */
export function LicensePane() {
  const navigate = useNavigate();
  const { busy, run } = useConfirmedAction();
  const { data, mutate } = useLicense();
  const active = data?.status === 'active';

  const deactivate = () =>
    run(
      'run',
      {
        title: 'Deactivate the license?',
        message:
          'Nobody can sign in to this installation until a license is activated again. Tracking links keep working.',
        confirmLabel: 'Deactivate',
        cancelLabel: 'Cancel',
        danger: true,
      },
      async () => {
        await deactivateLicense();
        await mutate();
        navigate('/license');
      },
      () => notify.error(M.licenseDeactivateFailed),
    );

  return (
    <Card id="license" title="License" description="The license that lets this installation run.">
      <div className="data-row">
        <div className="data-row-text">
          <p className="license-line" data-testid="settings-license">
            <span className={active ? 'badge badge-success' : 'badge badge-warning'}>
              {data ? (active ? 'Active' : 'Inactive') : '…'}
            </span>
            <span>
              {active
                ? `Licensed to ${data?.email ?? ''}${data?.expires_at ? `, valid until ${formatDate(data.expires_at)}` : ''}.`
                : data
                  ? 'This installation has no valid license.'
                  : 'Checking the license…'}
            </span>
          </p>
          <p className="data-row-description">
            Deactivate before moving the license to another installation.
          </p>
        </div>
        <Button
          variant="danger"
          icon={<KeyRound size={16} aria-hidden />}
          busy={busy !== null}
          onClick={() => void deactivate()}
        >
          Deactivate license
        </Button>
      </div>
    </Card>
  );
}
