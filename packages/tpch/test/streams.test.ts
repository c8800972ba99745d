import { ParkMiller } from '@enginekit/prng';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng64Stream } from '../src/internal/rng64.js';
import { RowStreams, STREAM_COUNT, STREAM_TABLE, Stream, TableId } from '../src/internal/streams.js';

describe('dbgen seed table', () => {
  it('has 48 streams with dbgen’s first and last seeds and per-row reservations', () => {
    expect(STREAM_TABLE.length).toBe(STREAM_COUNT);
    expect(STREAM_TABLE[Stream.pMfg]).toEqual([TableId.part, 1, 1]);
    expect(STREAM_TABLE[Stream.textPool]).toEqual([TableId.none, 933588178, 1]);
    expect(STREAM_TABLE[Stream.pName]).toEqual([TableId.part, 709314158, 92]);
    expect(STREAM_TABLE[Stream.lComment]).toEqual([TableId.lineitem, 1095462486, 14]);
    expect(STREAM_TABLE[Stream.bbbOffset]).toEqual([TableId.supplier, 715851524, 1]);
  });
});

describe('RowStreams', () => {
  it('rowStop tops every stream of the table up to its reservation, whatever a row drew', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 5 })),
        (rows) => {
          const rs = new RowStreams([TableId.orders, TableId.lineitem]);
          for (const draws of rows) {
            rs.rowStart();
            for (let i = 0; i < (draws[0] ?? 0); i++) rs.unif(Stream.lQuantity, 1, 50);
            rs.rowStop();
          }
          // after n rows the stream is exactly 7·n steps from its seed, as dbgen's sd_line assumes
          const ref = new ParkMiller({ seed: STREAM_TABLE[Stream.lQuantity]![1] });
          ref.skip(7 * rows.length);
          expect(rs.seed(Stream.lQuantity)).toBe(ref.seed);
          const other = new ParkMiller({ seed: STREAM_TABLE[Stream.oClerk]![1] });
          other.skip(rows.length);
          expect(rs.seed(Stream.oClerk)).toBe(other.seed);
          // streams of other tables are not touched
          expect(rs.seed(Stream.cPhone)).toBe(STREAM_TABLE[Stream.cPhone]![1]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('skipRows equals generating rows that used their full reservation', () => {
    const a = new RowStreams([TableId.customer]);
    const b = new RowStreams([TableId.customer]);
    for (let r = 0; r < 300; r++) {
      a.rowStart();
      a.rowStop();
    }
    b.skipRows(300);
    for (let s = 0; s < STREAM_COUNT; s++) expect(b.seed(s)).toBe(a.seed(s));
  });
});

describe('Rng64Stream (dbgen rng64.c, SF ≥ 30000)', () => {
  it('is the 64-bit LCG state·6364136223846793005 + 1 with |state| mod range', () => {
    const g = new Rng64Stream(851767375);
    let state = 851767375n;
    for (let i = 0; i < 100; i++) {
      state = BigInt.asIntN(64, state * 6364136223846793005n + 1n);
      const abs = state < 0n ? -state : state;
      expect(g.next(1, 4_500_000_000)).toBe(Number(1n + (abs % 4_500_000_000n)));
    }
  });

  it('rowSkip is Park–Miller NthElement while the state is a 31-bit seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2147483646 }), fc.integer({ min: 0, max: 7 }), (seed, n) => {
        const g = new Rng64Stream(seed);
        g.rowSkip(n);
        const ref = new ParkMiller({ seed });
        ref.skip(n);
        expect(Number(g.state)).toBe(ref.seed);
      }),
    );
  });

  it('rowSkip on a full 64-bit state wraps the product and keeps C’s remainder sign', () => {
    const g = new Rng64Stream(1);
    g.next(1, 10); // state = A + 1
    g.rowSkip(1);
    const expected = BigInt.asIntN(64, 16807n * (6364136223846793005n + 1n)) % 2147483647n;
    expect(g.state).toBe(expected);
  });
});

describe('orders at SF ≥ 30000 (64-bit keys)', () => {
  it('draws o_custkey and l_partkey from the 64-bit stream, in range, keys above 2^32', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readTbl, scalePlan, TblWriter, TPCH_SCHEMA } = await import('../src/index.js');
    const { buildTextPool } = await import('../src/internal/text-pool.js');
    const { writeOrders } = await import('../src/internal/orders.js');
    const dir = mkdtempSync(join(tmpdir(), 'tpch-wide-'));
    try {
      const plan = { ...scalePlan(30_000), orders: 50 };
      const wo = new TblWriter(join(dir, 'orders.tbl'));
      const wl = new TblWriter(join(dir, 'lineitem.tbl'));
      writeOrders(wo, wl, buildTextPool(1 << 16), plan);
      wo.close();
      wl.close();
      // DBT3's INT keys overflow from SF ≈ 10 738 (part) / 14 317 (customer): widen them to read
      const wide = <T extends { columns: readonly { name: string; type: unknown }[] }>(t: T): T => ({
        ...t,
        columns: t.columns.map((c) =>
          /_(cust|part|supp)key$/.test(c.name) ? { ...c, type: { kind: 'bigint' } } : c,
        ),
      });
      const o = readTbl(join(dir, 'orders.tbl'), wide(TPCH_SCHEMA.orders));
      const l = readTbl(join(dir, 'lineitem.tbl'), wide(TPCH_SCHEMA.lineitem));
      const cust = o.columns[1]!;
      const part = l.columns[1]!;
      if (!('values' in cust) || !('values' in part)) throw new TypeError('numeric columns expected');
      expect(o.rows).toBe(50);
      let big = 0;
      for (const c of cust.values) {
        expect(c >= 1 && c <= plan.customer && c % 3 !== 0).toBe(true);
        if (c > 2 ** 32) big++;
      }
      for (const p of part.values) expect(p >= 1 && p <= plan.part).toBe(true);
      expect(big).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
