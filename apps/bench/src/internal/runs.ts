/**
 * How a figure comes from `n` timed runs, for titles: "one run" when there was one (no median to
 * speak of), else "median of n runs". `what` is the singular noun ("run", "interleaved round").
 */
export function medianOf(n: number, what = 'run'): string {
  return n === 1 ? `one ${what}` : `median of ${n} ${what}s`;
}

/** As {@link medianOf}, for charts that also draw the spread: "… with min–max" when n > 1. */
export function medianRange(n: number): string {
  return n === 1 ? 'one run' : `${medianOf(n)} with min–max`;
}
