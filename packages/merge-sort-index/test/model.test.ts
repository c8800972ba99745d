// fast-check model test: any interleaving of add / addAll (iterable or scan) / progress checks,
// then the output, against a plain array sorted with Array.prototype.sort.
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { ExternalSorter } from '../src/index.js';
import { type Rec, referenceSort, scratchDir, toPlain } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

interface Model {
  records: Rec[];
}
interface Real {
  sorter: ExternalSorter;
}

const rec = fc.tuple(
  fc.uint8Array({ maxLength: 6, max: 4 }),
  fc.uint8Array({ minLength: 100, maxLength: 400 }),
);

class Add implements fc.Command<Model, Real> {
  constructor(readonly r: Rec) {}
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    r.sorter.add(this.r[0], this.r[1]);
    m.records.push(this.r);
  }
  toString = (): string => `add(${this.r[0].length}, ${this.r[1].length})`;
}

class AddAll implements fc.Command<Model, Real> {
  constructor(
    readonly rs: Rec[],
    readonly scan: boolean,
  ) {}
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    if (this.scan) {
      r.sorter.addAll((emit) => {
        for (const [k, v] of this.rs) emit(k, v);
      });
    } else {
      r.sorter.addAll(this.rs);
    }
    m.records.push(...this.rs);
  }
  toString = (): string => `addAll(${this.rs.length}, ${this.scan ? 'scan' : 'iterable'})`;
}

class CheckStats implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    const s = r.sorter.stats;
    expect(s.records).toBe(m.records.length);
    // a run is spilled only when the buffer is full: every run but the current one holds
    // more than half a buffer's worth of the bytes it could hold (records ≤ 430 bytes here)
    expect(s.runs * (65536 / 2 - 500)).toBeLessThanOrEqual(s.recordBytes + 24 * s.records);
    expect(s.tempFiles).toBe(s.runs > 0 ? 1 : 0);
  }
  toString = (): string => 'checkStats';
}

it.each(['innodb', 'kway'] as const)('%s: any sequence of adds sorts like the model', (mergeMode) => {
  const commands = [
    rec.map((r) => new Add(r)),
    fc
      .tuple(fc.array(rec, { minLength: 50, maxLength: 400, size: 'max' }), fc.boolean())
      .map(([rs, scan]) => new AddAll(rs, scan)),
    fc.constant(new CheckStats()),
  ];
  let maxRuns = 0;
  fc.assert(
    fc.property(fc.commands(commands, { maxCommands: 30, size: 'max' }), (cmds) => {
      const real: Real = {
        sorter: new ExternalSorter({
          innodb_sort_buffer_size: 65536,
          mergeBlockSize: 4096,
          kwayReadSize: 4096,
          mergeMode,
          tmpdir: scratch.dir,
        }),
      };
      const model: Model = { records: [] };
      fc.modelRun(() => ({ model, real }), cmds);
      maxRuns = Math.max(maxRuns, real.sorter.stats.runs);
      const out: Rec[] = [];
      for (const { key, value } of real.sorter.entries()) out.push([key, value]);
      expect(toPlain(out)).toEqual(toPlain(referenceSort(model.records)));
      expect(scratch.entries()).toEqual([]);
    }),
    { numRuns: 30 },
  );
  expect(maxRuns).toBeGreaterThan(2); // the property did exercise spilled runs
});
