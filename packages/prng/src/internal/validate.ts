/** Argument checks shared by every generator; each error names the argument and the value. */

export function checkBound(n: number): void {
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new TypeError(`nextBelow(n): n must be an integer, got ${String(n)}`);
  }
  if (n <= 0 || n > 4294967296) {
    throw new RangeError(`nextBelow(n): n must be in [1, 2^32], got ${n}`);
  }
}

export function toBigSeed(seed: bigint | number, what = 'seed'): bigint {
  if (typeof seed === 'bigint') {
    if (seed < 0n) throw new RangeError(`${what} must be non-negative, got ${seed}`);
    return seed;
  }
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw new TypeError(`${what} must be a safe integer or a bigint, got ${String(seed)}`);
  }
  if (seed < 0) throw new RangeError(`${what} must be non-negative, got ${seed}`);
  return BigInt(seed);
}

export function checkWordBits(wordBits: unknown): 32 | 64 {
  if (wordBits !== 32 && wordBits !== 64) {
    throw new RangeError(`wordBits must be 32 or 64, got ${String(wordBits)}`);
  }
  return wordBits;
}

export function stateWords(
  state: readonly bigint[] | readonly number[],
  count: number,
  name: string,
): bigint[] {
  if (!Array.isArray(state) || state.length !== count) {
    throw new RangeError(
      `state for ${name} must hold exactly ${count} word(s), got ${Array.isArray(state) ? state.length : String(state)}`,
    );
  }
  return state.map((w, i) => toBigSeed(w, `state[${i}]`));
}
