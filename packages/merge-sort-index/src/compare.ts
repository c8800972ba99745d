/**
 * memcmp order: the first differing byte decides; on a common prefix the shorter key sorts
 * first. This is the order of InnoDB's binary collations and of btree-sampler's key codec.
 *
 * @example
 * ```ts
 * const a = new Uint8Array([1, 2]);
 * const b = new Uint8Array([1, 2, 0]);
 * compareBytes(a, 0, 2, b, 0, 3); // < 0
 * ```
 */
export function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const aLen = aEnd - aStart;
  const bLen = bEnd - bStart;
  const n = Math.min(aLen, bLen);
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i]! - b[bStart + i]!;
    if (d !== 0) return d;
  }
  return aLen - bLen;
}
