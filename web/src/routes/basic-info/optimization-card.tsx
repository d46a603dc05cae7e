// Landing-page optimisation (spec 2 §3-§5, §7): auto-optimise with its metric, threshold and
// minimum visits; the goal; test reporting, which reverts when the call fails.
import { Gauge } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  AUTO_OPTIMIZE_FIELD_ORDER,
  autoOptimizeSchema,
  OPTIMIZATION_GOAL_OPTIONS,
  OPTIMIZATION_METRIC_OPTIONS,
  type OptimizationSettings,
} from '../../../../schema/pages-operations-api';
import { ApiError } from '../../api/client';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { SelectField, TextField } from '../../components/field';
import { notify } from '../../components/toaster';
import { draftFields } from '../../lib/draft-field';
import { zodErrors } from '../../lib/forms';
import { setOptimizationGoal, toggleAutoOptimize, toggleTestReporting } from './api';
import { Switch } from './editor-ui';
import type { OptimizationAnswer } from './types';

/** The campaign's optimisation settings, as the card's switches answer them. */
export type OptimizationFields = OptimizationSettings;

const FORM = 'optimization';
const fid = (name: string) => `${FORM}-${name}`;

/** The card's messages from those of the call, which names the fields its own way. */
const atFields = (messages: Record<string, string | undefined>) => ({
  metric: messages.optimizationMetricSelected,
  threshold: messages.optimizationThreshold,
  minVisits: messages.optimizationMinLpVisit,
});

export function OptimizationCard({
  campaignId,
  value,
  onSaved,
}: {
  campaignId: number;
  value: OptimizationFields;
  onSaved: (fields: OptimizationFields) => void;
}) {
  const [draft, setDraft] = useState({
    metric: value.landing_pages_optimization_metric,
    threshold: String(value.landing_pages_optimization_threshold),
    minVisits: String(value.landing_pages_optimization_min_visits),
  });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const field = draftFields(draft, (key, v) => setDraft((d) => ({ ...d, [key]: v })), errors, fid);
  const [busy, setBusy] = useState<string | null>(null);
  const [reporting, setReporting] = useState(value.enable_lp_test_reporting === 1);
  const auto = value.landing_pages_auto_optimized === 1;

  useEffect(() => setReporting(value.enable_lp_test_reporting === 1), [value.enable_lp_test_reporting]);

  const saved = (answer: OptimizationAnswer) => onSaved(answer.campaign);

  const saveAuto = async (on: boolean, name: string) => {
    const body = {
      campaignId,
      autoOptimized: on ? 1 : 0,
      optimizationMetricSelected: draft.metric,
      optimizationThreshold: draft.threshold,
      optimizationMinLpVisit: draft.minVisits,
    };
    const checked = autoOptimizeSchema.safeParse(body);
    if (!checked.success) {
      setErrors(atFields(zodErrors<Record<string, string>>(checked.error, AUTO_OPTIMIZE_FIELD_ORDER)));
      return;
    }
    setErrors({});
    setBusy(name);
    try {
      const answer = await toggleAutoOptimize(body);
      saved(answer);
      notify.success(answer.message);
    } catch (err) {
      if (err instanceof ApiError && err.isValidation) setErrors(atFields(err.fieldErrors));
      notify.error('Failed to update landing pages auto optimize');
    } finally {
      setBusy(null);
    }
  };

  const changeReporting = async (on: boolean) => {
    setReporting(on);
    setBusy('reporting');
    try {
      const answer = await toggleTestReporting({ campaignId, enabled: on ? 1 : 0 });
      saved(answer);
      notify.success(answer.message);
    } catch {
      // The switch goes back to what the server still has (spec 2 §8).
      setReporting(!on);
      notify.error('Failed to toggle landing pages test reporting');
    } finally {
      setBusy(null);
    }
  };

  const changeGoal = async (goal: string) => {
    if (!goal) return;
    setBusy('goal');
    try {
      const answer = await setOptimizationGoal({ campaignId, goal });
      saved(answer);
      notify.success(answer.message);
    } catch {
      notify.error('Failed to set landing pages optimization goal');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      title={
        <span className="ce-inline-icon">
          <Gauge size={16} aria-hidden /> Landing page optimisation
        </span>
      }
      description="Pause losing landing pages automatically once they have enough visits, and report which landing page tests are significant."
      className="ce-optimization"
    >
      <div className="ce-optimization-grid">
        <div className="stack">
          <Switch
            id={fid('auto')}
            checked={auto}
            busy={busy === 'auto'}
            onChange={(on) => void saveAuto(on, 'auto')}
            label="Auto-optimise landing pages"
            description="Every 5 minutes, a page with the minimum visits is paused when its metric is below the threshold or it loses significantly to another page on the goal. The last active page is never paused."
          />
          <Switch
            id={fid('reporting')}
            checked={reporting}
            busy={busy === 'reporting'}
            onChange={(on) => void changeReporting(on)}
            label="Landing page test reporting"
            description="Raises an alert on the campaign when a landing page wins a test significantly."
          />
        </div>
        <div className="ce-optimization-fields">
          <SelectField
            {...field('metric')}
            label="Metric"
            options={[{ value: '', label: 'Select a metric' }, ...OPTIMIZATION_METRIC_OPTIONS]}
          />
          <TextField
            {...field('threshold')}
            label="Threshold"
            inputMode="decimal"
            hint="Pages below this value of the metric are paused."
          />
          <TextField
            {...field('minVisits')}
            label="Minimum landing visits"
            inputMode="numeric"
            hint="No page is judged before this many visits (default 10)."
          />
          <SelectField
            id={fid('goal')}
            label="Goal"
            value={value.landing_pages_optimization_goal}
            onValueChange={(v) => void changeGoal(v)}
            options={[{ value: '', label: 'Select a goal' }, ...OPTIMIZATION_GOAL_OPTIONS]}
            disabled={busy === 'goal'}
          />
        </div>
      </div>
      <div className="form-actions">
        <Button
          variant="secondary"
          busy={busy === 'settings'}
          onClick={() => void saveAuto(auto, 'settings')}
        >
          Save optimisation settings
        </Button>
      </div>
    </Card>
  );
}
