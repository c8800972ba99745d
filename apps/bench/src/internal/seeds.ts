/**
 * Derives independent 32-bit seeds from the experiment's base seed and a label, so adding a
 * generator to an experiment never shifts the seeds of the others (FNV-1a of the label, mixed
 * with the base by a Murmur3 finalizer).
 */
export function deriveSeed(base: number, label: string): number {
  let h = 0x811c9dc5 ^ (base >>> 0);
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
