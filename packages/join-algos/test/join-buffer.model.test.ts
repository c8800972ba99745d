// JoinBuffer against a plain model: put / setMatched / reset in any order, any buffer size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JoinBuffer, recordHeaderBytes, type Tuple, tupleCodec } from '../src/index.js';

const codec = tupleCodec(['int32', 'string']);
const LAYOUT = { withLength: true, withMatchFlag: true } as const;
// An unbounded string column (up to 65535 bytes): the record bound passes 65536, so the length
// field takes 4 bytes (offset_size), plus 1 byte of match flag.
const HEADER = recordHeaderBytes(codec, LAYOUT);

interface Model {
  size: number;
  aux: number;
  records: { row: Tuple; matched: boolean }[];
  used: number;
}
type Real = JoinBuffer<Tuple>;

function check(m: Model, b: Real): void {
  expect(b.count).toBe(m.records.length);
  expect(b.usedBytes).toBe(m.used);
  expect(b.sizeBytes).toBe(m.size);
  expect(b.usedBytes + b.count * m.aux).toBeLessThanOrEqual(b.sizeBytes);
  m.records.forEach((r, i) => {
    expect(b.row(i)).toEqual(r.row);
    expect(b.key(i)).toBe(r.row[0]);
    expect(b.matched(i)).toBe(r.matched);
  });
}

class Put implements fc.Command<Model, Real> {
  constructor(readonly row: Tuple) {}
  check(): boolean {
    return true;
  }
  run(m: Model, b: Real): void {
    const need = HEADER + codec.byteLength(this.row);
    const fits = m.used + need + (m.records.length + 1) * m.aux <= m.size;
    const r = b.put(this.row, this.row[0] as number);
    if (m.records.length > 0 && !fits) {
      expect(r).toBe(-1);
    } else {
      // An empty buffer too small for one record grows to exactly that record (+ its aux bytes).
      if (!fits) m.size = need + m.aux;
      expect(r).toBe(m.records.length);
      m.records.push({ row: this.row, matched: false });
      m.used += need;
    }
    check(m, b);
  }
  toString(): string {
    return `put(${JSON.stringify(this.row)})`;
  }
}

class SetMatched implements fc.Command<Model, Real> {
  constructor(readonly pick: number) {}
  check(m: Readonly<Model>): boolean {
    return m.records.length > 0;
  }
  run(m: Model, b: Real): void {
    const i = this.pick % m.records.length;
    b.setMatched(i);
    m.records[i]!.matched = true;
    check(m, b);
  }
  toString(): string {
    return `setMatched(${this.pick})`;
  }
}

class Reset implements fc.Command<Model, Real> {
  check(): boolean {
    return true;
  }
  run(m: Model, b: Real): void {
    b.reset();
    m.records = [];
    m.used = 0;
    check(m, b);
  }
  toString(): string {
    return 'reset()';
  }
}

const row = fc.tuple(fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 30 })) as fc.Arbitrary<Tuple>;

it('header: 4-byte length and a match flag for an unbounded string row', () => {
  expect(HEADER).toBe(5);
});

describe('JoinBuffer model', () => {
  it('behaves as an append-only list of records with match flags, within its byte budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(0, 12, 64),
        fc.commands(
          [row.map((r) => new Put(r)), fc.nat().map((n) => new SetMatched(n)), fc.constant(new Reset())],
          {
            maxCommands: 60,
          },
        ),
        (size, aux, cmds) => {
          const real = new JoinBuffer(codec, size, { ...LAYOUT, auxBytesPerRecord: aux });
          fc.modelRun(() => ({ model: { size, aux, records: [], used: 0 }, real }), cmds);
        },
      ),
      { numRuns: 200 },
    );
  });
});
