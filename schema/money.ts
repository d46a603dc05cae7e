// Money is stored and summed as integer micro-units: 1 USD = 1,000,000 micros
// (docs/decisions/010-money-micro-units.md). Conversions happen only at the edges: parsing
// input and formatting answers.

export const MICROS_PER_UNIT = 1_000_000;

/**
 * Largest amount accepted anywhere, and the bound of a wallet's balance: one billion, 10^15
 * micros. 2^53 micros is only about 9 billion, and at most 15 significant digits
 * (999999999.999999) are what a JSON number carries exactly (docs/decisions/125).
 */
export const MAX_MONEY_MICROS = 1_000_000_000 * MICROS_PER_UNIT;

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

/**
 * Micros as a plain decimal string, every significant decimal kept, at least two
 * (12500000 -> "12.50", 1 -> "0.000001"): for exports and postback URLs, which must not round.
 */
export function microsToDecimalString(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_UNIT);
  let fraction = String(abs % MICROS_PER_UNIT)
    .padStart(6, '0')
    .replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${sign}${whole}.${fraction}`;
}

/**
 * Micros as dollars text rounded to cents, with thousands separators (1234567890 -> "$1,234.57",
 * -2500000 -> "-$2.50"): the money columns the statistics answer as text. The SPA formats the
 * dollar numbers of other answers with formatDollars (web/src/lib/format.ts).
 */
export function formatMicrosAsDollars(micros: number): string {
  const cents = Math.round(micros / 10_000);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
