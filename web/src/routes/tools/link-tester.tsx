// Link tester: a dry run of the tracking path's routing for a pasted link or a picked campaign
// (POST /api/tools/link-test). Nothing is counted; the answer is the whole chain.
import { FlaskConical, Play } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { LinkTestAnswer } from '../../../../schema/tools-api';
import { ApiError } from '../../api/client';
import { useCampaignOptions } from '../../api/hooks';
import { Alert } from '../../components/alert';
import { Card } from '../../components/card';
import { useBusyAction } from '../../components/confirmed-action';
import { EmptyState } from '../../components/empty-state';
import { SelectField, TextareaField, TextField } from '../../components/field';
import { FormSubmitRow } from '../../components/form-submit-row';
import { notify } from '../../components/toaster';
import { draftFields } from '../../lib/draft-field';
import { parseTokenLines, runLinkTest } from './api';
import { LinkTestResults } from './link-test-results';

const DEVICE_OPTIONS = [
  { value: '', label: 'From the user agent (desktop if none)' },
  { value: 'desktop', label: 'Desktop' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'tablet', label: 'Tablet' },
];
const RUN_OPTIONS = [
  { value: '1', label: 'Once' },
  { value: '100', label: '100 dry runs' },
  { value: '1000', label: '1,000 dry runs' },
  { value: '10000', label: '10,000 dry runs' },
];

export function useCampaignChoices() {
  const { data, isLoading } = useCampaignOptions();
  const campaigns = (data?.result ?? []).filter((c) => c.deleted === 0 && c.is_dir === 0);
  return {
    campaigns,
    loading: isLoading,
    options: [
      { value: '', label: isLoading ? 'Loading campaigns…' : 'Pick a campaign' },
      ...campaigns.map((c) => ({ value: String(c.campaignId), label: `${c.name} (#${c.campaignId})` })),
    ],
  };
}

const FORM = 'lt';
const id = (name: string) => `${FORM}-${name}`;

/** The visit's optional details, each a plain text field. */
const VISIT_FIELDS = [
  { key: 'userAgent', label: 'User agent', placeholder: 'Mozilla/5.0 (iPhone; …)' },
  { key: 'target', label: 'Target (ad id)', placeholder: undefined },
  { key: 'keyword', label: 'Keyword', placeholder: undefined },
] as const;

export function LinkTester() {
  const choices = useCampaignChoices();
  const [form, setForm] = useState({
    link: '',
    campaignId: '',
    device: '',
    country: '',
    userAgent: '',
    target: '',
    keyword: '',
    tokens: '',
    runs: '1000',
    checkPages: true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, run } = useBusyAction();
  const [answer, setAnswer] = useState<LinkTestAnswer | null>(null);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const field = draftFields(form, (key, value) => set({ [key]: value }), errors, id);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setErrors({});
    await run(
      'run',
      async () => {
        const result = await runLinkTest({
          link: form.link,
          campaignId: form.campaignId ? Number(form.campaignId) : null,
          device: form.device,
          country: form.country,
          userAgent: form.userAgent,
          target: form.target,
          keyword: form.keyword,
          tokens: parseTokenLines(form.tokens),
          runs: Number(form.runs),
          checkPages: form.checkPages ? 1 : 0,
        });
        setAnswer(result);
        notify.success(
          result.warnings.length
            ? `Dry run done: ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}.`
            : 'Dry run done: no warnings.',
        );
      },
      (err) => {
        if (err instanceof ApiError && err.isValidation) {
          const fields = err.fieldErrors;
          setErrors(fields);
          const first = Object.keys(fields)[0];
          document.getElementById(id(first === 'tokens' ? 'tokens' : first))?.focus();
        }
        notify.error(err instanceof ApiError ? err.firstMessage : 'The dry run failed. Try again.');
      },
    );
  };

  return (
    <div className="ce-tab-stack">
      <Card
        title="Test a campaign link"
        description="Runs the same routing as a real visitor, as a dry run: nothing is counted, queued or stored."
      >
        <form className="form" onSubmit={(e) => void submit(e)} noValidate aria-label="Link tester">
          <div className="form-grid">
            <TextField
              {...field('link')}
              label="Campaign link"
              optional
              placeholder="https://your-domain/go/12?tid=ad-1"
              hint="Paste the link from your ad, with its values. It wins over the campaign picked beside it."
              fieldClassName="tools-span-2"
            />
            <SelectField {...field('campaignId')} label="Or pick a campaign" options={choices.options} />
            <SelectField {...field('device')} label="Device" options={DEVICE_OPTIONS} />
            <TextField
              {...field('country')}
              label="Country"
              optional
              placeholder="US"
              maxLength={2}
              onValueChange={(country) => set({ country: country.toUpperCase() })}
            />
            {VISIT_FIELDS.map(({ key, label, placeholder }) => (
              <TextField key={key} {...field(key)} label={label} optional placeholder={placeholder} />
            ))}
            <TextareaField
              {...field('tokens')}
              label="Token values"
              optional
              rows={3}
              placeholder={'sub1=blue\nsub2=summer'}
              hint="One parameter=value per line, for the campaign's extra tokens."
            />
            <div className="stack">
              <SelectField
                {...field('runs')}
                label="Runs"
                options={RUN_OPTIONS}
                hint="Many runs show the observed split against the shares."
              />
              <label className="tools-check" htmlFor={id('checkPages')}>
                <input
                  id={id('checkPages')}
                  type="checkbox"
                  checked={form.checkPages}
                  onChange={(e) => set({ checkPages: e.target.checked })}
                />
                Check the landing pages for the click-through link
              </label>
            </div>
          </div>
          <FormSubmitRow busy={busy !== null} icon={Play}>
            Run dry run
          </FormSubmitRow>
        </form>
      </Card>
      {answer ? (
        <LinkTestResults answer={answer} />
      ) : (
        <Card>
          <EmptyState icon={FlaskConical} title="No dry run yet">
            Paste a campaign link or pick a campaign, then run it to see which path, landing page and offer a
            visitor would get, and why.
          </EmptyState>
        </Card>
      )}
      {choices.campaigns.length === 0 && !choices.loading && (
        <Alert tone="info">
          You have no campaigns yet: create one on the Campaigns screen to test it here.
        </Alert>
      )}
    </div>
  );
}
