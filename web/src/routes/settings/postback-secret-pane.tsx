import { RefreshCw, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { useConfirmedAction } from '../../components/confirmed-action';
import { notify } from '../../components/toaster';
import { formatDate, formatDateTime, formatInteger } from '../../lib/format';
import { endLegacyGrace, rotatePostbackSecret, usePostbackSecret } from './api';
import { DataRow } from './data-row';

// The installation's postback secret (docs/tracking.md "Postback secret", docs/decisions/120).
// Each campaign converts only with its own secret (derived from this one, shown in its editor);
// this one converts every campaign only during the grace period of an installation that existed
// before, and the admin ends that period here once no network uses it any more.

const failed = (err: unknown, fallback: string) =>
  notify.error(err instanceof ApiError ? err.firstMessage : fallback);

export function PostbackSecretPane() {
  const { data, mutate } = usePostbackSecret(true);
  const { busy, run } = useConfirmedAction<'rotate' | 'end'>();
  const [shown, setShown] = useState(false);
  const legacy = data?.legacy;

  /** Asked first as a danger; the answer's message toasted and the secret read again. */
  const act = (
    key: 'rotate' | 'end',
    ask: { title: string; message: string; confirmLabel: string },
    call: () => Promise<{ message: string }>,
    fallback: string,
  ) =>
    run(
      key,
      { ...ask, cancelLabel: 'Cancel', danger: true },
      async () => {
        notify.success((await call()).message);
        await mutate();
      },
      (err) => failed(err, fallback),
    );

  const rotate = () =>
    act(
      'rotate',
      {
        title: 'Rotate the postback secret?',
        message:
          'Every campaign without a secret of its own gets a new one at once: conversions with the old URLs are refused until the networks have the new ones.',
        confirmLabel: 'Rotate',
      },
      rotatePostbackSecret,
      'The postback secret could not be rotated. Please try again.',
    );

  const end = () =>
    act(
      'end',
      {
        title: 'End the grace period?',
        message:
          'From now on each campaign converts only with its own secret. Postback URLs that still carry the installation’s secret are refused.',
        confirmLabel: 'End grace period',
      },
      endLegacyGrace,
      'The grace period could not be ended. Please try again.',
    );

  return (
    <Card
      id="postback-secret"
      title="Postback secret"
      description="Each campaign’s postback and pixel URLs carry a secret of their own, derived from this one; copy them from the campaign editor."
    >
      <div className="data-rows">
        <DataRow
          id="postback-secret"
          title="Installation secret"
          details={
            <>
              <p className="data-row-description">
                <code data-testid="postback-installation-secret">
                  {data ? (shown ? data.secret : `••••${data.secret.slice(-4)}`) : '…'}
                </code>{' '}
                <Button size="sm" variant="ghost" disabled={!data} onClick={() => setShown(!shown)}>
                  {shown ? 'Hide' : 'Show'}
                </Button>
              </p>
              <p className="data-row-description">
                Rotating it gives every campaign without a secret of its own a new one.
              </p>
            </>
          }
        >
          <Button
            variant="secondary"
            icon={<RefreshCw size={16} aria-hidden />}
            busy={busy === 'rotate'}
            disabled={!data}
            onClick={() => void rotate()}
          >
            Rotate
          </Button>
        </DataRow>
        <DataRow
          id="postback-grace"
          title="Grace period for old postback URLs"
          testId="postback-grace"
          details={
            !legacy ? (
              <p className="data-row-description">Loading…</p>
            ) : legacy.until === null ? (
              <p className="data-row-description" data-testid="postback-grace-state">
                Off: only each campaign’s own secret converts it.
              </p>
            ) : (
              <>
                <p className="data-row-description" data-testid="postback-grace-state">
                  Until {formatDate(legacy.until)}, the installation’s secret still converts every campaign
                  without a secret of its own. Used {formatInteger(legacy.uses)}{' '}
                  {legacy.uses === 1 ? 'time' : 'times'} in the last 30 days
                  {legacy.lastUsedAt ? `, last on ${formatDateTime(legacy.lastUsedAt)}` : ''}.
                </p>
                {legacy.campaigns.length > 0 && (
                  <p className="data-row-description">
                    Still used by:{' '}
                    {legacy.campaigns
                      .map((c) => `${c.name || `#${c.id}`} (${formatInteger(c.uses)})`)
                      .join(', ')}
                    . Update their postback URLs at the networks, then end the grace period.
                  </p>
                )}
              </>
            )
          }
        >
          {legacy?.until != null && (
            <Button
              variant="danger"
              icon={<ShieldOff size={16} aria-hidden />}
              busy={busy === 'end'}
              onClick={() => void end()}
            >
              End grace period
            </Button>
          )}
        </DataRow>
      </div>
    </Card>
  );
}
