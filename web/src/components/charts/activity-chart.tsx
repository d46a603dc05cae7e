import type { ActivityPoint } from '../../../../schema/stats-api';
import { formatInteger } from '../../lib/format';
import { BarChart } from './bar-chart';

/** Daily visitors, one bar per day of the range; the axis starts at zero. */
export function ActivityChart({ data, height = 240 }: { data: readonly ActivityPoint[]; height?: number }) {
  const total = data.reduce((a, p) => a + p.visitors, 0);
  return (
    <BarChart
      data={data.map((d) => ({ date: d.date, value: d.visitors }))}
      format={(v) => `${formatInteger(v)} visitor${v === 1 ? '' : 's'}`}
      axisFormat={(v) => formatInteger(v)}
      label={`Daily visitors: ${formatInteger(total)} in total`}
      height={height}
      testId="activity-chart"
    />
  );
}
