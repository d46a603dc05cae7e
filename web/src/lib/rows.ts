// The rows of a list edited in place by position (the editor's token, LiveIntent, line and
// headline rows): one row changed, one row taken out.

/** `rows` with row `i` changed by `patch`. */
export const patchedAt = <R>(rows: readonly R[], i: number, patch: Partial<R>): R[] =>
  rows.map((row, j) => (j === i ? { ...row, ...patch } : row));

/** `rows` without row `i`. */
export const withoutAt = <R>(rows: readonly R[], i: number): R[] => rows.filter((_, j) => j !== i);
