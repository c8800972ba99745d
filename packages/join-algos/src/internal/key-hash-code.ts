import type { JoinKey } from '../types.js';

/**
 * A 32-bit hash of a non-NULL key, for choosing a grace-hash partition. Integers in the int32
 * range are mixed with a multiplicative finaliser (murmur3 fmix32); everything else goes through
 * FNV-1a over the UTF-16 units of its string form, then the same finaliser.
 */
export function hashKey(key: Exclude<JoinKey, null>, seed: number): number {
  let h: number;
  if (typeof key === 'number' && (key | 0) === key) {
    h = key ^ seed;
  } else {
    const s = typeof key === 'string' ? key : typeof key === 'bigint' ? `${key}n` : String(key);
    h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
