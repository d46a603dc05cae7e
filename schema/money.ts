// Money is stored and summed as integer micro-units: 1 USD = 1,000,000 micros
// (docs/decisions/010-money-micro-units.md). Conversions happen only at the edges: parsing
// input and formatting answers.

export const MICROS_PER_UNIT = 1_000_000;

/** Largest amount accepted anywhere (10 billion), far inside the safe integer range in micros. */
export const MAX_MONEY_MICROS = 10_000_000_000 * MICROS_PER_UNIT;

const DECIMAL = /^([+-]?)(\d{1,12})(?:\.(\d{0,12}))?$/;

/**
 * A decimal amount ("12.5", "0.000001", 3) as integer micros, exactly: parsed from its text,
 * never through float multiplication. Digits beyond the sixth decimal are rounded half up.
 * Answers null for anything that is not a plain decimal number.
 */
export function toMicros(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // Seven decimals of the binary value: float noise (0.1 + 0.2) rounds away at the sixth.
    if (Math.abs(value) >= 1e15) return null;
    text = value.toFixed(7);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/^\$/, '');
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const padded = `${fraction}0000000`;
  let micros = Number(whole) * MICROS_PER_UNIT + Number(padded.slice(0, 6));
  if (Number(padded[6]) >= 5) micros += 1;
  if (micros > MAX_MONEY_MICROS) return null;
  return sign === '-' && micros !== 0 ? -micros : micros;
}

/** Micros as a number of units for JSON answers (12500000 -> 12.5). */
export function fromMicros(micros: number | null | undefined): number {
  return (micros ?? 0) / MICROS_PER_UNIT;
}

/** Micros as a plain decimal string with at least two decimals (12500000 -> "12.50"). */
export function formatMicros(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_UNIT);
  let fraction = String(abs % MICROS_PER_UNIT)
    .padStart(6, '0')
    .replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}
