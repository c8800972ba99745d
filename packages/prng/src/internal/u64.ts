/**
 * 64-bit unsigned arithmetic on pairs of uint32 numbers, for generators that must not touch
 * BigInt on their hot path. Results are written to a caller-owned `Uint32Array` of length 2
 * (index 0 = high word, index 1 = low word) so nothing is allocated per call.
 */

const TWO32 = 4294967296;

/** out = (ah:al) * (bh:bl) mod 2^64. */
export function mul64(ah: number, al: number, bh: number, bl: number, out: Uint32Array): void {
  // Full 64-bit product of the low words from 16-bit limbs (each partial product < 2^32, exact).
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const mid = a0 * b1 + a1 * b0; // < 2^33
  const low = a0 * b0 + (mid % 65536) * 65536; // < 2^33
  const carry = Math.floor(low / TWO32);
  const hiOfLow = a1 * b1 + Math.floor(mid / 65536) + carry;
  // Cross terms only matter mod 2^32: Math.imul gives exactly their low 32 bits.
  out[0] = (hiOfLow + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
  out[1] = low >>> 0;
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
