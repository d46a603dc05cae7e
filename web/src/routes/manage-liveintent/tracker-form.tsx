// The conversion tracker form (spec 4 §2, §5): term regex and segment name, both required.
import { Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { TRACKER_ORDER, trackerSchema } from '../../../../schema/liveintent-api';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { useForm } from '../../lib/forms';
import { getTracker, send } from './api';
import { errorText, managePath, SuccessDialog, toast } from './shared';

const FORM = 'li-tracker-form';

export function TrackerForm({ id }: { id: number }) {
  const { segmentId } = useParams();
  const form = useForm(FORM, { termRegex: '', segmentName: '' });
  const [loaded, setLoaded] = useState(!segmentId);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!segmentId) return;
    getTracker(id, segmentId)
      .then(({ conversionTracker: t }) => {
        form.setValue('termRegex', t.li_term_regex);
        form.setValue('segmentName', t.li_segment_name);
        setLoaded(true);
      })
      .catch((err) => toast.error(errorText(err)));
  }, [id, segmentId, form.setValue]);

  const payload = () => ({ campaignId: id, segmentId: segmentId ?? '', ...form.values });
  const onSubmit = form.onSubmitWith({
    schema: trackerSchema,
    order: TRACKER_ORDER,
    input: payload,
    send: async () => {
      try {
        const res = await send(segmentId ? 'edit-conversiontracker' : 'create-conversiontracker', payload());
        setDone(res.message);
      } catch (err) {
        toast.error(errorText(err));
        throw err;
      }
    },
  });

  if (!loaded) return <PageSpinner />;
  return (
    <Card
      title={segmentId ? 'Edit conversion tracker' : 'New conversion tracker'}
      description="A visit to a page whose address matches the term regex counts as a conversion on LiveIntent."
    >
      <form id={FORM} className="form" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <TextField {...form.field('segmentName')} label="Segment name" autoComplete="off" />
          <TextField
            {...form.field('termRegex')}
            label="Term regex"
            autoComplete="off"
            spellCheck={false}
            hint="For example /thank-you"
          />
        </div>
        <div className="form-actions">
          <Button
            type="submit"
            variant="primary"
            busy={form.busy}
            icon={<Save size={16} aria-hidden />}
            data-testid="li-save"
          >
            {segmentId ? 'Save tracker' : 'Create tracker'}
          </Button>
        </div>
      </form>
      <SuccessDialog message={done} back={managePath(id)} />
    </Card>
  );
}
