// Landing-page tests: pairwise two-proportion z-tests (docs/statistics.md).

/** Standard normal CDF via the complementary error function (W. J. Cody's rational fit, |error| < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(-x * x + poly);
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

export type Proportion = { successes: number; trials: number };

export type TwoProportionResult = {
  z: number;
  pValue: number;
  isSignificant: boolean;
  /** 1 when the first variant's rate is higher, 2 when the second's is; 0 when equal. */
  bestVariant: 0 | 1 | 2;
};

/**
 * Two-sided two-proportion z-test with the pooled standard error. Significant when the
 * p-value is below 1 - confidence and both variants have at least `minTrials` trials.
 */
export function twoProportionTest(
  a: Proportion,
  b: Proportion,
  { confidence = 0.95, minTrials = 1 }: { confidence?: number; minTrials?: number } = {},
): TwoProportionResult {
  const p1 = a.trials ? a.successes / a.trials : 0;
  const p2 = b.trials ? b.successes / b.trials : 0;
  const bestVariant = p1 === p2 ? 0 : p1 > p2 ? 1 : 2;
  const pooled = a.trials + b.trials ? (a.successes + b.successes) / (a.trials + b.trials) : 0;
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / (a.trials || 1) + 1 / (b.trials || 1)));
  const z = se > 0 && a.trials > 0 && b.trials > 0 ? (p1 - p2) / se : 0;
  const pValue = z === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(z)));
  const enough = a.trials >= minTrials && b.trials >= minTrials;
  return { z, pValue, isSignificant: enough && pValue < 1 - confidence, bestVariant };
}
