import { buildChartTheme } from '@visx/xychart';
import { formatCalendarDay } from '../../lib/format';

// One chart look for the app: the accent colour, the neutral grid and the UI's small type.
export const CHART_COLORS = {
  accent: '#2563eb',
  accentSoft: 'rgba(37, 99, 235, 0.12)',
  positive: '#12b76a',
  negative: '#f04438',
  neutral: '#98a2b3',
  grid: '#eaecf0',
  axis: '#d0d5dd',
  label: '#667085',
} as const;

export const chartTheme = buildChartTheme({
  backgroundColor: '#ffffff',
  colors: [CHART_COLORS.accent],
  gridColor: CHART_COLORS.grid,
  gridColorDark: CHART_COLORS.axis,
  tickLength: 4,
  svgLabelSmall: { fill: CHART_COLORS.label, fontSize: 11, fontFamily: 'inherit' },
  svgLabelBig: { fill: CHART_COLORS.label, fontSize: 12, fontFamily: 'inherit' },
  xAxisLineStyles: { stroke: CHART_COLORS.axis },
  yAxisLineStyles: { stroke: 'transparent' },
  xTickLineStyles: { stroke: CHART_COLORS.axis },
  yTickLineStyles: { stroke: 'transparent' },
});

/** 'Nov 10' from 'yyyy-MM-dd' (read as a calendar day, never shifted by the browser's zone). */
export const shortDay = (day: string): string => formatCalendarDay(day, { month: 'short', day: 'numeric' });

export const longDay = (day: string): string =>
  formatCalendarDay(day, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** At most `max` evenly spread labels out of `days` (band axes cannot thin their own ticks). */
export function spreadTicks<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = Math.ceil(items.length / max);
  return items.filter((_, i) => i % step === 0);
}
