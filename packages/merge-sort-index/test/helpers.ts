// Shared fixtures: record generators, the Array.prototype.sort oracle, a scratch temp dir.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ExternalSorter, type SorterOptions } from '../src/index.js';

export type Rec = [Uint8Array, Uint8Array];

/** The oracle: Array.prototype.sort (stable since ES2019) by memcmp order of the keys. */
export function referenceSort(records: readonly Rec[]): Rec[] {
  return [...records].sort((a, b) => Buffer.compare(a[0], b[0]));
}

/** Sort through an ExternalSorter, copying every output record. */
export function externalSort(
  records: readonly Rec[],
  options: SorterOptions,
): { out: Rec[]; sorter: ExternalSorter } {
  const sorter = new ExternalSorter(options);
  sorter.addAll(records);
  const out: Rec[] = [];
  for (const { key, value } of sorter.entries({ copy: false })) out.push([key.slice(), value.slice()]);
  return { out, sorter };
}

/** A value of `len` bytes whose first 4 bytes number the record (to see stability). */
export function numbered(i: number, len: number): Uint8Array {
  const v = new Uint8Array(Math.max(4, len));
  new DataView(v.buffer).setUint32(0, i);
  for (let j = 4; j < v.length; j++) v[j] = (i * 31 + j) & 0xff;
  return v;
}

export function key32(n: number): Uint8Array {
  const k = new Uint8Array(4);
  new DataView(k.buffer).setUint32(0, n >>> 0);
  return k;
}

/** Input shapes: random, heavy with duplicates, presorted, reverse-sorted. */
export type Shape = 'random' | 'duplicates' | 'presorted' | 'reverse';

export function makeRecords(shape: Shape, n: number, seed: number, valueLen: number): Rec[] {
  let s = seed >>> 0 || 1;
  const rnd = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    let key: Uint8Array;
    switch (shape) {
      case 'random': {
        const len = rnd() % 12;
        key = new Uint8Array(len);
        for (let j = 0; j < len; j++) key[j] = rnd() & 0xff;
        break;
      }
      case 'duplicates':
        key = key32(rnd() % 7);
        break;
      case 'presorted':
        key = key32(i);
        break;
      case 'reverse':
        key = key32(n - i);
        break;
    }
    out.push([key, numbered(i, valueLen)]);
  }
  return out;
}

/** fast-check arbitrary for arbitrary byte records with small keys (many ties). */
export const recordArb: fc.Arbitrary<Rec> = fc.tuple(
  fc.uint8Array({ minLength: 0, maxLength: 3, max: 3 }),
  fc.uint8Array({ minLength: 0, maxLength: 300 }),
);

/** A fresh directory under the system temp dir, and a check that it is empty. */
export function scratchDir(): { dir: string; entries: () => string[]; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'msi-test-'));
  return {
    dir,
    entries: () => readdirSync(dir),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function toPlain(records: readonly Rec[]): string[] {
  return records.map(([k, v]) => `${Buffer.from(k).toString('hex')}:${Buffer.from(v).toString('hex')}`);
}
