import { KeyRound, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirm } from '../../components/confirm-dialog';
import { useBusyAction } from '../../components/confirmed-action';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { formatDateTime } from '../../lib/format';
import { CopyField } from '../basic-info/editor-ui';
import { createOperatorCredential, revokeOperatorCredential, useOperatorCredentials } from './api';

// The credential the operator's master dashboard reads this installation with (docs/decisions/080
// and 137): made here instead of by hand with POST /api/masterdashboard-credentials. Its value is
// shown once; rotating is making a new one, giving it to the operator, then revoking the old one.

const failed = (err: unknown, fallback: string) =>
  notify.error(err instanceof ApiError ? err.firstMessage : fallback);

export function OperatorCredentialPane() {
  const confirm = useConfirm();
  const { data, mutate } = useOperatorCredentials(true);
  const [label, setLabel] = useState('operator');
  const { busy, run } = useBusyAction<'create'>();
  const [made, setMade] = useState<{ label: string; credential: string } | null>(null);
  const live = (data?.credentials ?? []).filter((c) => c.revoked_at === null);

  const create = async () => {
    await run(
      'create',
      async () => {
        const answer = await createOperatorCredential(label.trim());
        setMade(answer);
        notify.success('Credential created. Copy it now: it is shown only once.');
        await mutate();
      },
      (err) => {
        failed(err, 'The credential could not be created. Please try again.');
      },
    );
  };

  const revoke = async (id: number, name: string) => {
    const ok = await confirm({
      title: `Revoke “${name || 'unnamed'}”?`,
      message: 'The master dashboard can no longer read this installation with it, at once.',
      confirmLabel: 'Revoke',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (!ok) return;
    try {
      notify.success((await revokeOperatorCredential(id)).message);
      await mutate();
    } catch (err) {
      failed(err, 'The credential could not be revoked. Please try again.');
    }
  };

  return (
    <Card
      id="operator-credential"
      title="Master dashboard access"
      description="Your coach’s master dashboard reads this installation’s numbers with a credential you make here. Give it to the operator when they add your installation; to rotate, make a new one, give it to them, then revoke the old one."
    >
      <div className="stack">
        <div className="operator-credential-form">
          <TextField
            id="operator-credential-label"
            label="Label"
            value={label}
            onValueChange={setLabel}
            maxLength={100}
            hint="Only for you: which operator or date this credential is for."
          />
          <Button
            variant="primary"
            icon={<KeyRound size={16} aria-hidden />}
            busy={busy !== null}
            onClick={() => void create()}
            data-testid="operator-credential-create"
          >
            {live.length > 0 ? 'Make a new credential' : 'Make a credential'}
          </Button>
        </div>
        {made && (
          <CopyField
            id="operator-credential-value"
            label={`New credential “${made.label || 'unnamed'}”`}
            value={made.credential}
            hint="Shown only once: only its fingerprint is stored. Paste it into the operator’s Add installation form."
          />
        )}
        {data && live.length === 0 && (
          <p className="data-row-description" data-testid="operator-credential-none">
            No live credential: no master dashboard can read this installation.
          </p>
        )}
        {live.length > 0 && (
          <ul className="operator-credential-list" aria-label="Live credentials">
            {live.map((c) => (
              <li key={c.id} data-testid="operator-credential-row">
                <span className="break-all">
                  <strong>{c.label || 'unnamed'}</strong> · made {formatDateTime(c.created_at)}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<Trash2 size={14} aria-hidden />}
                  onClick={() => void revoke(c.id, c.label)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
