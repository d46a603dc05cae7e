import { PAGE_LENGTHS } from './page-length';

/** The "Rows per page" choice of a paged table, among the shared page lengths. */
export function PageLengthSelect({
  className,
  value,
  onChange,
  testId,
}: {
  className: string;
  value: number;
  onChange: (length: number) => void;
  testId: string;
}) {
  return (
    <label className={className}>
      <span>Rows per page</span>
      <select
        className="input select input-sm"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        data-testid={testId}
      >
        {PAGE_LENGTHS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
