/**
 * Exact DECIMAL arithmetic on scaled bigints: a value v at scale s means v · 10^−s. Rounding is
 * half away from zero, as MySQL's `decimal_round` with HALF_UP.
 */

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 80; i++, p *= 10n) POW10.push(p);

export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/** v at scale `from` → scale `to`, rounding half away from zero when digits are dropped. */
export function rescale(v: bigint, from: number, to: number): bigint {
  if (to === from) return v;
  if (to > from) return v * pow10(to - from);
  const d = pow10(from - to);
  const q = v / d;
  const r = v - q * d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return v < 0n ? q - 1n : q + 1n;
  return q;
}

/** v at scale `from` → scale `to`, truncating dropped digits (toward zero). */
export function truncScale(v: bigint, from: number, to: number): bigint {
  if (to >= from) return v * pow10(to - from);
  return v / pow10(from - to);
}

/** Text of v (scale `from`) shown with `scale` digits after the point. */
export function decText(v: bigint, from: number, scale: number): string {
  const r = rescale(v, from, scale);
  const neg = r < 0n;
  let s = (neg ? -r : r).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}`;
  }
  return neg ? `-${s}` : s;
}

/** Parse decimal text (`-12.50`, `.5`, `3.`) into [scaled value, scale], or undefined. */
export function parseDec(text: string): [bigint, number] | undefined {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const v = BigInt((m[2] || '0') + frac);
  return [m[1] === '-' ? -v : v, frac.length];
}

/** A double as a decimal at `scale`, rounded half away from zero (via its shortest decimal text). */
export function decFromDouble(x: number, scale: number): bigint | null {
  if (!Number.isFinite(x)) return null;
  const t = expandExp(String(x));
  const p = parseDec(t);
  if (p === undefined) return null;
  return rescale(p[0], p[1], scale);
}

/** '1.5e-7' → '0.00000015', '1e21' → '1000000000000000000000'. */
export function expandExp(t: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(t);
  if (m === null) return t;
  const digits = m[2]! + (m[3] ?? '');
  let point = m[2]!.length + Number(m[4]);
  let d = digits;
  if (point <= 0) {
    d = '0'.repeat(1 - point) + d;
    point = 1;
  }
  if (point >= d.length) return m[1]! + d.padEnd(point, '0');
  return `${m[1]}${d.slice(0, point)}.${d.slice(point)}`;
}

/** Number of decimal digits of |v| (at least 1). */
export function digitCount(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}
