/**
 * The distribution functions behind the p-values: the chi-square survival function through the
 * regularized upper incomplete gamma function Q(a, x) (series below a + 1, Lentz's continued
 * fraction above, as in Numerical Recipes §6.2), and the Poisson probabilities for the birthday
 * test.
 */

// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function. */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const lnPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    // P(a, x) by its series, then Q = 1 − P.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lnPrefix));
  }
  // Q(a, x) by its continued fraction (modified Lentz).
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(lnPrefix) * h);
}

/** P(X ≥ statistic) for X ~ χ²(df). */
export function chiSquareSurvival(statistic: number, df: number): number {
  return gammaQ(df / 2, statistic / 2);
}

/** Pearson's statistic Σ (observed − expected)² / expected. */
export function pearson(observed: ArrayLike<number>, expected: ArrayLike<number>): number {
  let stat = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i]!;
    const diff = observed[i]! - e;
    stat += (diff * diff) / e;
  }
  return stat;
}

export function poissonPmf(k: number, lambda: number): number {
  return Math.exp(k * Math.log(lambda) - lambda - logGamma(k + 1));
}
