import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrayRowFetcher,
  createMrrCounters,
  createMultiRangeRead,
  type MrrCounters,
  type MrrRange,
} from '../src/index.js';
import { lookupModel, makeIndex, rowsFor } from './helpers.js';

// A BKA-like driver as a state machine: ranges are put into a "join buffer" one at a time; a
// flush runs one MRR scan over the buffered ranges (with the flush's own buffer size and
// switches) into counters shared by every scan, then empties the buffer. The model keeps the
// buffered ranges and the expected counter totals.

const INDEX = {
  keys: [0, 1, 1, 2, 2, 2, 3, 5, 5, 8, 8, 8, 8, 9],
  rowIds: [13, 0, 7, 2, 9, 4, 11, 1, 5, 3, 6, 8, 10, 12],
};
const ROWS = rowsFor(INDEX);

interface Model {
  buffered: MrrRange<number>[];
  init: number;
  readKey: number;
}
interface Real {
  buffered: MrrRange<number>[];
  counters: MrrCounters;
}

class PutRange implements fc.Command<Model, Real> {
  constructor(readonly key: number) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const range = { key: this.key, association: m.buffered.length };
    m.buffered.push(range);
    r.buffered.push(range);
  }
  toString(): string {
    return `put(${this.key})`;
  }
}

class Flush implements fc.Command<Model, Real> {
  constructor(
    readonly mrr: boolean,
    readonly sortKeys: boolean,
    readonly size: number,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.buffered.length > 0;
  }
  run(m: Model, r: Real): void {
    const scan = createMultiRangeRead(makeIndex(INDEX), arrayRowFetcher(ROWS), r.buffered, {
      mrr: this.mrr,
      mrr_sort_keys: this.sortKeys,
      bufferSize: this.size,
      counters: r.counters,
    });
    const got = [...scan].map((x) => `${x.row}@${x.association}`).sort();
    expect(got).toEqual(lookupModel(INDEX.keys, INDEX.rowIds, m.buffered));
    // a buffer too small for one element falls back to the default MRR (MariaDB's
    // use_default_impl): no Handler_mrr_init, keys read in their given order
    if (scan.fallback) expect(this.mrr, 'only an MRR scan can fall back').toBe(true);
    const used = this.mrr && !scan.fallback;
    if (used) m.init++;
    if (used && this.sortKeys) {
      const cap = scan.keyCapacity;
      expect(cap, 'a key-ordered scan holds at least one key').toBeGreaterThan(0);
      for (let b = 0; b * cap < m.buffered.length; b++) {
        m.readKey += new Set(
          m.buffered.slice(b * cap, (b + 1) * cap).map((x) => (x as { key: number }).key),
        ).size;
      }
    } else m.readKey += m.buffered.length;
    expect(r.counters.Handler_mrr_init).toBe(m.init);
    expect(r.counters.Handler_read_key).toBe(m.readKey);
    m.buffered = [];
    r.buffered = [];
  }
  toString(): string {
    return `flush(mrr=${this.mrr}, sort_keys=${this.sortKeys}, ${this.size})`;
  }
}

describe('BKA-like driver (fc.commands): many scans into shared counters', () => {
  it('every flush returns per-key lookup results and the shared counters add up', () => {
    const commands = [
      fc.integer({ min: -1, max: 10 }).map((k) => new PutRange(k)),
      fc
        .tuple(fc.boolean(), fc.boolean(), fc.integer({ min: 34, max: 400 }))
        .map(([a, b, s]) => new Flush(a, b, s)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 80 }), (cmds) => {
        const model: Model = { buffered: [], init: 0, readKey: 0 };
        const real: Real = { buffered: [], counters: createMrrCounters() };
        fc.modelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 150 },
    );
  });
});
