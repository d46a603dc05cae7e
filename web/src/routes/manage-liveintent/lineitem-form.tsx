// The line item form (spec 4 §2, §5, §9): campaign, name, status (paused by default), dates,
// daily cap and budget, data-provider segments, and age and gender targeting with include or
// exclude. The rules that need the campaign (goal, dates) are the server's too.
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import {
  AGE_TARGETS,
  GENDER_TARGETS,
  LINE_ITEM_ORDER,
  lineItemCampaignErrors,
  lineItemSchema,
  TARGET_TYPES,
} from '../../../../schema/liveintent-api';
import { useInstallationToday } from '../../api/hooks';
import { SelectField, TextField } from '../../components/field';
import { PageSpinner } from '../../components/spinner';
import { useForm } from '../../lib/forms';
import { getLineItem, useLiCampaigns } from './api';
import { LiSaveCard, ScheduleFields, useLiSave } from './li-form';
import { dayOf, managePath, platformDate, timeOf } from './shared';

const FORM = 'li-lineitem-form';

const TARGET_TYPE_OPTIONS = TARGET_TYPES.map((t) => ({
  value: t,
  label: t === 'include' ? 'Include' : 'Exclude',
}));

function Targets({
  legend,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly { id: number; label: string }[];
  chosen: number[];
  onChange: (next: number[]) => void;
}) {
  return (
    <fieldset className="li-targets">
      <legend className="field-label">{legend}</legend>
      {options.map((o) => (
        <label key={o.id} className="li-check">
          <input
            type="checkbox"
            checked={chosen.includes(o.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, o.id] : chosen.filter((x) => x !== o.id))
            }
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

/** 'bluekai:771, oracle:12' as the segments list. */
const parseSegments = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [type, ...rest] = s.split(':');
      return { type: type.trim(), id: rest.join(':').trim() };
    });

export function LineItemForm({ id }: { id: number }) {
  const today = useInstallationToday();
  if (!today) return <PageSpinner />;
  return <LineItemFormBody id={id} today={today} />;
}

function LineItemFormBody({ id, today }: { id: number; today: string }) {
  const { refId } = useParams();
  const campaigns = useLiCampaigns(id);
  const form = useForm(FORM, {
    liCampaignId: '',
    name: '',
    status: 'paused',
    startDate: today,
    startTime: '00:00',
    endDate: today,
    endTime: '23:59',
    dailyCap: '0',
    dailyBudget: '',
    segments: '',
    ageTargetType: 'include',
    genderTargetType: 'include',
  });
  const [age, setAge] = useState<number[]>([]);
  const [gender, setGender] = useState<number[]>([]);

  // A new line item goes under the first campaign until another is chosen.
  const list = campaigns.data?.liCampaigns ?? [];
  useEffect(() => {
    if (!refId && !form.values.liCampaignId && list[0]) form.setValue('liCampaignId', list[0].li_refid);
  }, [list, refId, form]);

  const v = form.values;
  const payload = () => ({
    campaignId: id,
    liCampaignId: v.liCampaignId,
    lineItemRefId: refId ?? '',
    name: v.name,
    status: v.status,
    startDate: platformDate(v.startDate, v.startTime),
    endDate: platformDate(v.endDate, v.endTime),
    dailyCap: v.dailyCap,
    dailyBudget: v.dailyBudget,
    dataProviderSegments: parseSegments(v.segments),
    ageTargetType: v.ageTargetType,
    ageTarget: age,
    genderTargetType: v.genderTargetType,
    genderTarget: gender,
  });
  const save = useLiSave(form, {
    campaignId: id,
    refId,
    load: async (campaignId, ref) => {
      const { lineItem: l } = await getLineItem(campaignId, ref);
      form.setValue('liCampaignId', l.li_campaign_refid);
      form.setValue('name', l.li_name);
      form.setValue('status', l.li_status);
      form.setValue('startDate', dayOf(l.li_start_date));
      form.setValue('startTime', timeOf(l.li_start_date));
      form.setValue('endDate', dayOf(l.li_end_date));
      form.setValue('endTime', timeOf(l.li_end_date));
      form.setValue('dailyCap', String(l.li_daily_cap));
      form.setValue('dailyBudget', String(l.li_daily_budget));
      form.setValue('segments', l.data_provider_segments.map((s) => `${s.type}:${s.id}`).join(', '));
      form.setValue('ageTargetType', l.age_target_type);
      form.setValue('genderTargetType', l.gender_target_type);
      setAge(l.age_target);
      setGender(l.gender_target);
    },
    verbs: { create: 'create-lineitem', edit: 'edit-lineitem' },
    schema: lineItemSchema.superRefine((input, ctx) => {
      const parent = list.find((c) => c.li_refid === input.liCampaignId);
      if (!parent) return;
      const errors = lineItemCampaignErrors(input, {
        strategyType: parent.perf_goal,
        startDate: parent.li_start_date,
        endDate: parent.li_end_date,
      });
      for (const [field, [message]] of Object.entries(errors))
        ctx.addIssue({ code: 'custom', path: [field], message });
    }),
    order: LINE_ITEM_ORDER,
    payload,
  });

  if (!save.loaded || !campaigns.data) return <PageSpinner />;
  return (
    <LiSaveCard
      noun="line item"
      editing={Boolean(refId)}
      description="Budget, schedule and audience of a LiveIntent campaign."
      formId={FORM}
      form={form}
      save={save}
      back={managePath(id, 'lineitems')}
    >
      <div className="form-grid">
        <SelectField
          {...form.field('liCampaignId')}
          label="Campaign"
          options={[
            { value: '', label: list.length ? 'Select a campaign' : 'Create a campaign first' },
            ...list.map((c) => ({ value: c.li_refid, label: c.li_name })),
          ]}
        />
        <TextField {...form.field('name')} label="Name" autoComplete="off" />
        <SelectField
          {...form.field('status')}
          label="Status"
          options={[
            { value: 'paused', label: 'Paused' },
            { value: 'active', label: 'Active' },
          ]}
        />
        <TextField {...form.field('dailyBudget')} label="Daily budget ($)" inputMode="decimal" />
        <TextField {...form.field('dailyCap')} label="Daily cap" inputMode="numeric" />
        <TextField
          {...form.field('segments')}
          label="Data-provider segments"
          optional
          hint="type:id, separated by commas"
          autoComplete="off"
        />
      </div>
      <ScheduleFields field={form.field} />
      <div className="form-grid">
        <div>
          <SelectField {...form.field('ageTargetType')} label="Age targeting" options={TARGET_TYPE_OPTIONS} />
          <Targets legend="Ages" options={AGE_TARGETS} chosen={age} onChange={setAge} />
        </div>
        <div>
          <SelectField
            {...form.field('genderTargetType')}
            label="Gender targeting"
            options={TARGET_TYPE_OPTIONS}
          />
          <Targets legend="Genders" options={GENDER_TARGETS} chosen={gender} onChange={setGender} />
        </div>
      </div>
    </LiSaveCard>
  );
}
