/**
 * A 64-bit event counter kept as two Int32 lanes (low, high) so every worker can bump it with
 * `Atomics.add` without BigInt. The carry is added when the low lane wraps; a reader racing a
 * carry may see a value off by 2^32 for an instant, as InnoDB's unlocked counters may be off.
 */
export function counterAdd(c: Int32Array, slot: number, n: number): void {
  const old = Atomics.add(c, slot, n) >>> 0;
  if (old + n > 0xffffffff) Atomics.add(c, slot + 1, 1);
}

export function counterRead(c: Int32Array, slot: number): number {
  return (Atomics.load(c, slot + 1) >>> 0) * 0x1_0000_0000 + (Atomics.load(c, slot) >>> 0);
}
