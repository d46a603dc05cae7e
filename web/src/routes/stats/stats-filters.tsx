// The statistics filters (spec 3 §2): the campaign (choosing another opens its /stats/:id), the
// date range, the date format the screen writes days in, and Search; a problem with either
// shows under its field.
import { Search } from 'lucide-react';
import type { FormEvent } from 'react';
import type { DateFormat } from '../../../../schema/dates';
import { Button } from '../../components/button';
import { DateRange, type DateRangeValue } from '../../components/date-range/date-range';
import { SelectField } from '../../components/field';
import { DATE_FORMAT_OPTIONS, setDateFormat, useDateFormat } from '../../lib/date-format';
import type { FilterProblem } from './query';

type Props = {
  campaigns: readonly { campaignId: number; name: string }[];
  campaignsLoading: boolean;
  campaignId: number | null;
  onCampaignChange: (id: number | null) => void;
  range: DateRangeValue | null;
  onRangeChange: (range: DateRangeValue) => void;
  today: string | null;
  problem: FilterProblem | null;
  searching: boolean;
  onSubmit: (e: FormEvent) => void;
};

export function StatsFilters({ campaigns, campaignId, range, today, problem, ...props }: Props) {
  const dateFormat = useDateFormat();
  return (
    <form className="card stats-filters" onSubmit={props.onSubmit} noValidate aria-label="Filters">
      <div
        className={problem?.field === 'campaign' ? 'field has-error stats-campaign' : 'field stats-campaign'}
      >
        <label className="field-label" htmlFor="stats-campaign">
          Campaign
        </label>
        <select
          id="stats-campaign"
          className="input select"
          value={campaignId ?? ''}
          onChange={(e) => props.onCampaignChange(e.target.value ? Number(e.target.value) : null)}
          aria-invalid={problem?.field === 'campaign' ? true : undefined}
          aria-describedby={problem?.field === 'campaign' ? 'stats-campaign-error' : undefined}
        >
          <option value="">{props.campaignsLoading ? 'Loading campaigns…' : 'Select a campaign'}</option>
          {campaigns.map((c) => (
            <option key={c.campaignId} value={c.campaignId}>
              {c.name}
            </option>
          ))}
        </select>
        {problem?.field === 'campaign' && (
          <p className="field-error" id="stats-campaign-error">
            {problem.message}
          </p>
        )}
      </div>
      {range && today && (
        <DateRange
          id="stats"
          value={range}
          today={today}
          withLastN
          onChange={props.onRangeChange}
          startError={problem?.field === 'start' ? problem.message : null}
          endError={problem?.field === 'end' ? problem.message : null}
        />
      )}
      <SelectField
        id="stats-date-format"
        label="Date format"
        value={dateFormat}
        onValueChange={(v) => setDateFormat(v as DateFormat)}
        options={DATE_FORMAT_OPTIONS}
      />
      <div className="stats-filters-actions">
        <Button
          type="submit"
          variant="primary"
          icon={<Search size={16} aria-hidden />}
          busy={props.searching}
        >
          Search
        </Button>
      </div>
    </form>
  );
}
