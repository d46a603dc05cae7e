import { Group } from '@visx/group';
import { Pie } from '@visx/shape';

export type PieSlice = { label: string; value: number; color: string };

/** A small pie with a legend of counts; an all-zero pie shows an empty ring. */
export function PieChart({
  slices,
  size = 180,
  label,
}: {
  slices: readonly PieSlice[];
  size?: number;
  label: string;
}) {
  const radius = size / 2;
  const total = slices.reduce((a, s) => a + s.value, 0);
  const shown = slices.filter((s) => s.value > 0);
  return (
    <figure className="pie" aria-label={label} data-testid="pie-chart">
      <svg width={size} height={size} role="img" aria-label={label}>
        <Group top={radius} left={radius}>
          {total === 0 ? (
            <circle r={radius - 12} fill="none" stroke="#eaecf0" strokeWidth={24} />
          ) : (
            <Pie
              data={shown}
              pieValue={(s) => s.value}
              outerRadius={radius}
              innerRadius={radius - 36}
              padAngle={shown.length > 1 ? 0.02 : 0}
            >
              {(pie) =>
                pie.arcs.map((arc) => (
                  <path key={arc.data.label} d={pie.path(arc) ?? ''} fill={arc.data.color}>
                    <title>{`${arc.data.label}: ${arc.data.value}`}</title>
                  </path>
                ))
              }
            </Pie>
          )}
          <text textAnchor="middle" dy="-0.1em" className="pie-total">
            {total}
          </text>
          <text textAnchor="middle" dy="1.3em" className="pie-caption">
            {total === 1 ? 'test' : 'tests'}
          </text>
        </Group>
      </svg>
      <ul className="pie-legend">
        {slices.map((s) => (
          <li key={s.label} data-slice={s.label}>
            <span className="pie-swatch" style={{ background: s.color }} aria-hidden />
            <span className="pie-label">{s.label}</span>
            <span className="pie-value">{s.value}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
