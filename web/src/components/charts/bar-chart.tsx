import { Axis, BarSeries, Grid, Tooltip, XYChart } from '@visx/xychart';
import { CHART_COLORS, chartTheme, longDay, shortDay, spreadTicks } from './theme';
import { barPadding, useWidth } from './use-width';

export type BarPoint = { date: string; value: number };

type Props = {
  data: readonly BarPoint[];
  /** Formats values in the tooltip ($ with cents, % with decimals, counts). */
  format: (value: number) => string;
  /** Formats the value axis (shorter: whole dollars or percents). Defaults to `format`. */
  axisFormat?: (value: number) => string;
  /** Green at or above zero and red below (ROI and net profit); otherwise the accent colour. */
  signColors?: boolean;
  label: string;
  height?: number;
  testId?: string;
};

const MARGIN = { top: 12, right: 16, bottom: 32, left: 64 };
const x = (d: BarPoint) => d.date;
const y = (d: BarPoint) => d.value;

/** One bar per day; the value axis always includes zero and bars never grow wider than 56 px. */
export function BarChart({
  data,
  format,
  axisFormat,
  signColors,
  label,
  height = 280,
  testId = 'bar-chart',
}: Props) {
  const { ref, width } = useWidth<HTMLElement>();
  const points = [...data];
  const color = (d: BarPoint) =>
    signColors ? (d.value >= 0 ? CHART_COLORS.positive : CHART_COLORS.negative) : CHART_COLORS.accent;
  const padding = barPadding(points.length, width - MARGIN.left - MARGIN.right);
  // About one day label per 56 px, so a phone's narrow axis does not print labels over each other.
  const dayTicks = Math.max(2, Math.min(10, Math.floor((width - MARGIN.left - MARGIN.right) / 56)));
  return (
    <figure ref={ref} className="chart" style={{ height }} data-testid={testId} aria-label={label}>
      {width > 0 && (
        <XYChart
          width={width}
          height={height}
          theme={chartTheme}
          margin={MARGIN}
          xScale={{ type: 'band', ...padding }}
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
            tickValues={spreadTicks(points.map(x), dayTicks)}
            tickFormat={(d: string) => shortDay(d)}
          />
          <Axis orientation="left" numTicks={4} tickFormat={(v: number) => (axisFormat ?? format)(v)} />
          <Tooltip<BarPoint>
            snapTooltipToDatumX
            unstyled
            applyPositionStyle
            className="chart-tooltip"
            renderTooltip={({ tooltipData }) => {
              const d = tooltipData?.nearestDatum?.datum;
              if (!d) return null;
              return (
                <div className="chart-tip">
                  <div className="chart-tip-title">{longDay(d.date)}</div>
                  {/* The bars' bright green and red are too light for text: the tip's figure takes
                      the meaning colours that pass AA on white. */}
                  <div
                    className="chart-tip-value"
                    style={{
                      color: signColors
                        ? d.value >= 0
                          ? 'var(--success)'
                          : 'var(--danger-strong)'
                        : undefined,
                    }}
                  >
                    {format(d.value)}
                  </div>
                </div>
              );
            }}
          />
        </XYChart>
      )}
    </figure>
  );
}
