// The LiveIntent campaign form (spec 4 §2, §5): create, or edit by refId. Defaults of spec 4 §9:
// deliver_impression, bid 1.00, category 1, today 00:00 to 23:59.
import { useParams } from 'react-router';
import {
  LI_CAMPAIGN_ORDER,
  liCampaignSchema,
  needsTracker,
  STRATEGIES,
  STRATEGY_BID_LABELS,
  STRATEGY_LABELS,
  type Strategy,
} from '../../../../schema/liveintent-api';
import { useInstallationToday } from '../../api/hooks';
import { SelectField, TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { useForm } from '../../lib/forms';
import { getLiCampaign, useIabCategories, useTrackers } from './api';
import { LiSaveCard, ScheduleFields, useLiSave } from './li-form';
import { dayOf, managePath, platformDate, timeOf } from './shared';

const FORM = 'li-campaign-form';

export function CampaignForm({ id }: { id: number }) {
  const today = useInstallationToday();
  if (!today) return <PageSpinner />;
  return <CampaignFormBody id={id} today={today} />;
}

function CampaignFormBody({ id, today }: { id: number; today: string }) {
  const { refId } = useParams();
  const form = useForm(FORM, {
    strategyType: 'deliver_impression',
    bidAmount: '1.00',
    name: '',
    category: '1',
    conversionPixel: '',
    startDate: today,
    startTime: '00:00',
    endDate: today,
    endTime: '23:59',
  });
  const categories = useIabCategories();
  const trackers = useTrackers(id);

  const v = form.values;
  const payload = () => ({
    campaignId: id,
    refId: refId ?? '',
    strategyType: v.strategyType,
    category: v.category,
    startDate: platformDate(v.startDate, v.startTime),
    endDate: platformDate(v.endDate, v.endTime),
    bidAmount: v.bidAmount,
    name: v.name,
    conversionPixel: needsTracker(v.strategyType) ? v.conversionPixel : '',
  });
  const save = useLiSave(form, {
    campaignId: id,
    refId,
    load: async (campaignId, ref) => {
      const { liCampaign: c } = await getLiCampaign(campaignId, ref);
      form.setValue('strategyType', c.perf_goal);
      form.setValue('bidAmount', c.bidAmount.toFixed(2));
      form.setValue('name', c.li_name);
      form.setValue('category', String(c.category));
      form.setValue('conversionPixel', c.conversionPixel);
      form.setValue('startDate', dayOf(c.li_start_date));
      form.setValue('startTime', timeOf(c.li_start_date));
      form.setValue('endDate', dayOf(c.li_end_date));
      form.setValue('endTime', timeOf(c.li_end_date));
    },
    verbs: { create: 'create-campaign', edit: 'edit-campaign' },
    schema: liCampaignSchema(today),
    order: LI_CAMPAIGN_ORDER,
    payload,
  });

  if (!save.loaded) return <PageSpinner />;
  const strategy = v.strategyType as Strategy;
  return (
    <LiSaveCard
      noun="campaign"
      editing={Boolean(refId)}
      description="A campaign on LiveIntent for this tracker campaign."
      formId={FORM}
      form={form}
      save={save}
      back={managePath(id, 'campaigns')}
      showFormError
    >
      <div className="form-grid">
        <TextField {...form.field('name')} label="Name" autoComplete="off" />
        <SelectField
          {...form.field('strategyType')}
          label="Strategy"
          options={STRATEGIES.map((s) => ({ value: s, label: STRATEGY_LABELS[s] }))}
        />
        <TextField
          {...form.field('bidAmount')}
          label={`${STRATEGY_BID_LABELS[strategy] ?? 'Bid'} ($)`}
          inputMode="decimal"
        />
        <SelectField
          {...form.field('category')}
          label="IAB category"
          options={(categories.data ?? [{ id: 1, code: 'IAB1', name: 'Arts & Entertainment' }]).map((c) => ({
            value: String(c.id),
            label: `${c.code} ${c.name}`,
          }))}
        />
        {needsTracker(strategy) && (
          <SelectField
            {...form.field('conversionPixel')}
            label="Conversion tracker"
            options={[
              { value: '', label: 'Select a conversion tracker' },
              ...(trackers.data?.conversionTrackers ?? [])
                .filter((t) => t.li_conversion_refid !== '0')
                .map((t) => ({ value: t.li_conversion_refid, label: t.li_segment_name })),
            ]}
          />
        )}
      </div>
      <ScheduleFields field={form.field} />
    </LiSaveCard>
  );
}
