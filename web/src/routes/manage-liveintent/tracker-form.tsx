// The conversion tracker form (spec 4 §2, §5): term regex and segment name, both required.
import { useParams } from 'react-router';
import { TRACKER_ORDER, trackerSchema } from '../../../../schema/liveintent-api';
import { CodeField, TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { useForm } from '../../lib/forms';
import { getTracker } from './api';
import { LiSaveCard, useLiSave } from './li-form';
import { managePath } from './shared';

const FORM = 'li-tracker-form';

export function TrackerForm({ id }: { id: number }) {
  const { segmentId } = useParams();
  const form = useForm(FORM, { termRegex: '', segmentName: '' });
  const save = useLiSave(form, {
    campaignId: id,
    refId: segmentId,
    load: async (campaignId, ref) => {
      const { conversionTracker: t } = await getTracker(campaignId, ref);
      form.setValue('termRegex', t.li_term_regex);
      form.setValue('segmentName', t.li_segment_name);
    },
    verbs: { create: 'create-conversiontracker', edit: 'edit-conversiontracker' },
    schema: trackerSchema,
    order: TRACKER_ORDER,
    payload: () => ({ campaignId: id, segmentId: segmentId ?? '', ...form.values }),
  });

  if (!save.loaded) return <PageSpinner />;
  return (
    <LiSaveCard
      noun="conversion tracker"
      buttonNoun="tracker"
      editing={Boolean(segmentId)}
      description="A visit to a page whose address matches the term regex counts as a conversion on LiveIntent."
      formId={FORM}
      form={form}
      save={save}
      back={managePath(id)}
    >
      <div className="form-grid">
        <TextField {...form.field('segmentName')} label="Segment name" autoComplete="off" />
        <CodeField {...form.field('termRegex')} label="Term regex" hint="For example /thank-you" />
      </div>
    </LiSaveCard>
  );
}
