import { Axis, BarSeries, Grid, Tooltip, XYChart } from '@visx/xychart';
import { CHART_COLORS, chartTheme, longDay, shortDay, spreadTicks } from './theme';

export type BarPoint = { date: string; value: number };

type Props = {
  data: readonly BarPoint[];
  /** Formats values on the axis and in the tooltip ($ or %). */
  format: (value: number) => string;
  /** Green at or above zero and red below (ROI and net profit); otherwise the accent colour. */
  signColors?: boolean;
  label: string;
  height?: number;
};

const x = (d: BarPoint) => d.date;
const y = (d: BarPoint) => d.value;

/** One bar per day; the value axis always includes zero. */
export function BarChart({ data, format, signColors, label, height = 280 }: Props) {
  const points = [...data];
  const color = (d: BarPoint) =>
    signColors ? (d.value >= 0 ? CHART_COLORS.positive : CHART_COLORS.negative) : CHART_COLORS.accent;
  return (
    <figure className="chart" style={{ height }} data-testid="bar-chart" aria-label={label}>
      <XYChart
        height={height}
        theme={chartTheme}
        margin={{ top: 12, right: 16, bottom: 32, left: 64 }}
        xScale={{ type: 'band', paddingInner: 0.3, paddingOuter: 0.15 }}
        yScale={{ type: 'linear', zero: true, nice: true }}
        accessibilityLabel={label}
      >
        <Grid columns={false} numTicks={4} lineStyle={{ stroke: CHART_COLORS.grid }} />
        <BarSeries
          dataKey="value"
          data={points}
          xAccessor={x}
          yAccessor={y}
          colorAccessor={color}
          radius={3}
          radiusTop
        />
        <Axis
          orientation="bottom"
          tickValues={spreadTicks(points.map(x), 10)}
          tickFormat={(d: string) => shortDay(d)}
        />
        <Axis orientation="left" numTicks={4} tickFormat={(v: number) => format(v)} />
        <Tooltip<BarPoint>
          snapTooltipToDatumX
          renderTooltip={({ tooltipData }) => {
            const d = tooltipData?.nearestDatum?.datum;
            if (!d) return null;
            return (
              <div className="chart-tip">
                <div className="chart-tip-title">{longDay(d.date)}</div>
                <div className="chart-tip-value" style={{ color: signColors ? color(d) : undefined }}>
                  {format(d.value)}
                </div>
              </div>
            );
          }}
        />
      </XYChart>
    </figure>
  );
}
