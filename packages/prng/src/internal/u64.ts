/**
 * 64-bit unsigned arithmetic on pairs of uint32 numbers, for generators that must not touch
 * BigInt on their hot path. Results are written to a caller-owned `Uint32Array` of length 2
 * (index 0 = high word, index 1 = low word) so nothing is allocated per call.
 */

const TWO32 = 4294967296;

/**
 * The high 32 bits of the 64-bit product of two uint32 values, from 16-bit limbs. Every
 * intermediate stays below 2^32, so the shifts are exact and nothing leaves small-integer range.
 */
export function mulhi32(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const t = a0 * b0;
  const w1 = a1 * b0 + (t >>> 16); // <= (2^16-1)^2 + 2^16-1 < 2^32
  const w2 = a0 * b1 + (w1 & 0xffff); // < 2^32
  return (a1 * b1 + (w1 >>> 16) + (w2 >>> 16)) >>> 0;
}

/** out = (ah:al) * (bh:bl) mod 2^64. */
export function mul64(ah: number, al: number, bh: number, bl: number, out: Uint32Array): void {
  // Cross terms only matter mod 2^32: Math.imul gives exactly their low 32 bits.
  out[0] = (mulhi32(al, bl) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
  out[1] = Math.imul(al, bl) >>> 0;
}

/** out = (ah:al) + (bh:bl) mod 2^64. */
export function add64(ah: number, al: number, bh: number, bl: number, out: Uint32Array): void {
  const low = al + bl;
  out[1] = low >>> 0;
  out[0] = (ah + bh + (low >= TWO32 ? 1 : 0)) >>> 0;
}

export function toBig(hi: number, lo: number): bigint {
  return (BigInt(hi) << 32n) | BigInt(lo);
}

export const MASK64: bigint = (1n << 64n) - 1n;
export const MASK32: bigint = 0xffffffffn;

export function hiOf(x: bigint): number {
  return Number((x >> 32n) & MASK32);
}

export function loOf(x: bigint): number {
  return Number(x & MASK32);
}
