import { AreaSeries, Axis, Grid, LineSeries, Tooltip, XYChart } from '@visx/xychart';
import { formatInteger } from '../../lib/format';
import { CHART_COLORS, chartTheme, longDay, shortDay, spreadTicks } from './theme';

export type ActivityPoint = { date: string; visitors: number };

const x = (d: ActivityPoint) => d.date;
const y = (d: ActivityPoint) => d.visitors;

/** Daily visitors as an area over the days of the range; the y axis starts at zero. */
export function ActivityChart({ data, height = 240 }: { data: readonly ActivityPoint[]; height?: number }) {
  const points = [...data];
  const total = points.reduce((a, p) => a + p.visitors, 0);
  return (
    <figure
      className="chart"
      style={{ height }}
      data-testid="activity-chart"
      aria-label={`Daily visitors: ${formatInteger(total)} in total`}
    >
      <XYChart
        height={height}
        theme={chartTheme}
        margin={{ top: 12, right: 16, bottom: 32, left: 48 }}
        xScale={{ type: 'band', paddingInner: 0, paddingOuter: 0 }}
        yScale={{ type: 'linear', zero: true, nice: true }}
        accessibilityLabel="Daily visitors"
      >
        <Grid columns={false} numTicks={4} lineStyle={{ stroke: CHART_COLORS.grid }} />
        <AreaSeries
          dataKey="visitors"
          data={points}
          xAccessor={x}
          yAccessor={y}
          fillOpacity={0.12}
          lineProps={{ stroke: 'transparent' }}
        />
        <LineSeries
          dataKey="visitors-line"
          data={points}
          xAccessor={x}
          yAccessor={y}
          stroke={CHART_COLORS.accent}
          strokeWidth={2}
        />
        <Axis
          orientation="bottom"
          tickValues={spreadTicks(points.map(x), 8)}
          tickFormat={(d: string) => shortDay(d)}
        />
        <Axis orientation="left" numTicks={4} tickFormat={(v: number) => formatInteger(v)} />
        <Tooltip<ActivityPoint>
          snapTooltipToDatumX
          snapTooltipToDatumY
          showVerticalCrosshair
          showDatumGlyph
          glyphStyle={{ fill: CHART_COLORS.accent, stroke: '#fff', strokeWidth: 2 }}
          verticalCrosshairStyle={{ stroke: CHART_COLORS.axis, strokeDasharray: '3 3' }}
          renderTooltip={({ tooltipData }) => {
            const d = tooltipData?.nearestDatum?.datum;
            if (!d) return null;
            return (
              <div className="chart-tip">
                <div className="chart-tip-title">{longDay(d.date)}</div>
                <div className="chart-tip-value">
                  {formatInteger(d.visitors)} visitor{d.visitors === 1 ? '' : 's'}
                </div>
              </div>
            );
          }}
        />
      </XYChart>
    </figure>
  );
}
