// The Facebook section of the basic tab (spec 2 §4, §5, §8): the Facebook campaign id and its
// verification. A Facebook campaign saves only once verified; the server checks the
// verification it signed (docs/decisions/075), so changing the id clears it.
import { BadgeCheck, CircleAlert } from 'lucide-react';
import { useState } from 'react';
import {
  CONNECTION_MESSAGES as CM,
  type FacebookVerifyData,
  FB_CAMPAIGN_ID,
} from '../../../../schema/connections-api';
import { ApiError, api } from '../../api/client';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import '../../styles/integrations.css';
import { basicId } from './campaign-form';

type Props = {
  metainfo: Record<string, unknown>;
  onMetainfo: (metainfo: Record<string, unknown>) => void;
};

export function FacebookVerify({ metainfo, onMetainfo }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fbId = String(metainfo.facebook_campaign_id ?? '');
  const verified = metainfo.verified === true && typeof metainfo.verification === 'string';
  const message = typeof metainfo.verified_message === 'string' ? metainfo.verified_message : '';

  const onId = (value: string) => {
    setError(null);
    const { verification: _v, ...rest } = metainfo;
    onMetainfo({ ...rest, facebook_campaign_id: value.trim(), verified: false, verified_message: '' });
  };

  const verify = async () => {
    if (!FB_CAMPAIGN_ID.test(fbId)) {
      setError(CM.fbCampaignIdInvalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api.get<FacebookVerifyData>(
        `facebook/campaign/verify/${encodeURIComponent(fbId)}`,
      );
      const ok = answer.is_external && answer.verification !== '';
      const { verification: _v, ...rest } = metainfo;
      onMetainfo({
        ...rest,
        facebook_campaign_id: fbId,
        verified: ok,
        verified_message: answer.message,
        ...(ok ? { verification: answer.verification } : {}),
      });
      if (ok) notify.success(answer.message);
      else notify.error(answer.message);
      if (answer.is_internal) {
        notify.warning('Another campaign of this installation already tracks this Facebook campaign.');
      }
    } catch (err) {
      // Spec 2 §8: a 401 shows the server's message (not shown here: the session handler owns it).
      const text = err instanceof ApiError && err.status !== 502 ? err.firstMessage : CM.verifyFailed;
      setError(text);
      notify.error(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="fb-verify">
      <div className="fb-verify-row">
        <TextField
          id={basicId('facebook_campaign_id')}
          label="Facebook campaign ID"
          value={fbId}
          onValueChange={onId}
          inputMode="numeric"
          autoComplete="off"
          error={error}
          hint={
            verified
              ? undefined
              : 'Verify the ID before saving: a Facebook campaign saves only once verified.'
          }
          fieldClassName="fb-verify-field"
        />
        <Button
          variant="secondary"
          busy={busy}
          onClick={() => void verify()}
          data-testid="facebook-verify"
          disabled={fbId === ''}
          className="fb-verify-button"
        >
          Verify
        </Button>
      </div>
      <p
        className={verified ? 'fb-verify-status is-verified' : 'fb-verify-status'}
        data-testid="facebook-verify-status"
        aria-live="polite"
      >
        {verified ? <BadgeCheck size={16} aria-hidden /> : <CircleAlert size={16} aria-hidden />}
        <span>{verified ? message || CM.verified : message || 'Not verified yet.'}</span>
      </p>
    </div>
  );
}
