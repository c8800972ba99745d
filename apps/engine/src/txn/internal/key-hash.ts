/**
 * Two independent 32-bit hashes of (table id, key bytes) naming a record in the lock table:
 * FNV-1a (offset basis 2166136261, prime 16777619) and a multiply-xorshift hash with another
 * seed, each finished by murmur3's fmix32 so the low bits (the bucket) are well mixed.
 */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

export function keyHash1(tableId: number, key: Uint8Array, off: number, len: number): number {
  let h = (2166136261 ^ tableId) | 0;
  for (let i = off, e = off + len; i < e; i++) h = Math.imul(h ^ key[i]!, 16777619);
  return fmix32(h);
}

export function keyHash2(tableId: number, key: Uint8Array, off: number, len: number): number {
  let h = Math.imul(tableId + 0x9e3779b9, 0x27d4eb2d) ^ len;
  for (let i = off, e = off + len; i < e; i++) {
    h = Math.imul(h + key[i]! + 1, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return fmix32(h ^ 0x7f4a7c15);
}
