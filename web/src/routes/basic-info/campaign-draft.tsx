// The new campaign's draft in local storage (spec 1 §3, §9): under 'CAMPAIGN' + the time the draft
// was started, the basic tab's values as they are typed, so a reload or a closed tab does not
// lose them. A new campaign form offers the newest draft back (Restore or Discard); creating the
// campaign, or leaving it on purpose ("Leave" in the unsaved-changes dialog), clears it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { formatDateTime } from '../../lib/format';
import {
  CAMPAIGN_DRAFT_PREFIX,
  clearCampaignDrafts,
  readCampaignDraft,
  writeCampaignDraft,
} from '../../lib/storage';
import type { CampaignForm } from './campaign-form';

export type CampaignDraft = {
  /** When the draft was started (ms): the number after 'CAMPAIGN' in its key. */
  startedAt: number | null;
  restore: () => void;
  discard: () => void;
};

export function useCampaignDraft(
  isNew: boolean,
  form: CampaignForm | null,
  dirty: boolean,
  setForm: (draft: CampaignForm) => void,
) {
  const key = useRef<string | null>(null);
  const [offered, setOffered] = useState<{ key: string; value: string } | null>(null);

  // Each new form looks once for a draft left behind.
  useEffect(() => {
    if (!isNew) {
      key.current = null;
      setOffered(null);
      return;
    }
    setOffered(readCampaignDraft());
  }, [isNew]);

  useEffect(() => {
    if (!isNew || !form || !dirty) return;
    key.current ??= `${CAMPAIGN_DRAFT_PREFIX}${Date.now()}`;
    writeCampaignDraft(key.current, JSON.stringify(form));
  }, [isNew, form, dirty]);

  const clear = useCallback(() => {
    clearCampaignDrafts();
    key.current = null;
    setOffered(null);
  }, []);

  const draft: CampaignDraft | null =
    offered && form
      ? {
          startedAt: Number(offered.key.slice(CAMPAIGN_DRAFT_PREFIX.length)) || null,
          restore: () => {
            try {
              // The folder of this visit wins over the draft's.
              setForm({ ...form, ...(JSON.parse(offered.value) as Partial<CampaignForm>), dir: form.dir });
              key.current = offered.key;
              setOffered(null);
            } catch {
              clear();
            }
          },
          discard: clear,
        }
      : null;
  return { draft, clear };
}

/** The offer of a kept draft, above a new campaign's form. */
export function DraftNotice({ draft }: { draft: CampaignDraft | null }) {
  if (!draft) return null;
  return (
    <div className="ce-draft" data-testid="campaign-draft">
      <Alert tone="info">
        An unsaved new campaign
        {draft.startedAt ? ` from ${formatDateTime(draft.startedAt)}` : ''} is kept on this device.
        <span className="ce-draft-actions">
          <Button variant="secondary" onClick={draft.restore}>
            Restore draft
          </Button>
          <Button variant="ghost" onClick={draft.discard}>
            Discard
          </Button>
        </span>
      </Alert>
    </div>
  );
}
