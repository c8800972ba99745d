// The handler layer's index reader under @enginekit/mrr: a sorted-array model of the index for
// random keys and ranges (inclusive, exclusive, open, equality points), with padded variable-length
// primary keys; and DS-MRR through SQL on TPC-H orders at SF 0.1, whose rowid refills and handler
// counts equal MariaDB 10.11's on the same data.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMrrCounters, createMultiRangeRead } from '@enginekit/mrr';
import { generateTable, TPCH_TABLES } from '@enginekit/tpch';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HandlerIndexReader, type HandlerRange, HandlerRowFetcher } from '../../src/handler/index-reader.js';
import { Database, loadTpch, Session } from '../../src/index.js';

describe('HandlerIndexReader against a sorted-array model', () => {
  it('yields the entries of every range, in key order, and DS-MRR fetches each row once', () => {
    const db = Database.temporary();
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id VARCHAR(12) PRIMARY KEY, k INT NOT NULL, v INT NOT NULL, KEY ik (k))');
      const rows: { id: string; k: number; v: number }[] = [];
      const rand = fc.sample(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 9999 })), {
        numRuns: 600,
        seed: 7,
      });
      const seen = new Set<string>();
      for (const [k, n] of rand) {
        const id = `r${'x'.repeat(n % 7)}${n}`;
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push({ id, k, v: n });
      }
      for (let i = 0; i < rows.length; i += 100)
        s.query(
          `INSERT INTO t VALUES ${rows
            .slice(i, i + 100)
            .map((r) => `('${r.id}', ${r.k}, ${r.v})`)
            .join(', ')}`,
        );
      // a third of the rows deleted: their entries are delete-marked until purge
      const gone = new Set(rows.filter((_, i) => i % 3 === 0).map((r) => r.id));
      s.query(`DELETE FROM t WHERE id IN (${[...gone].map((id) => `'${id}'`).join(', ')})`);
      const live = rows.filter((r) => !gone.has(r.id));
      const table = db.table('t');
      const ix = table.index('ik');
      const key = (k: number): Uint8Array => table.keyPrefix('ik', [k]);
      const reader = new HandlerIndexReader(table, ix);
      const fetcher = new HandlerRowFetcher(table);
      const idCol = table.columnIndex('id');
      const kCol = table.columnIndex('k');
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              lo: fc.option(fc.integer({ min: -1, max: 41 }), { nil: undefined }),
              hi: fc.option(fc.integer({ min: -1, max: 41 }), { nil: undefined }),
              loInc: fc.boolean(),
              hiInc: fc.boolean(),
              point: fc.boolean(),
            }),
            { minLength: 1, maxLength: 4 },
          ),
          fc.integer({ min: 8192, max: 20000 }),
          (specs, buffer) => {
            const ranges: HandlerRange[] = specs.map((r) =>
              r.point && r.lo !== undefined
                ? { key: key(r.lo) }
                : {
                    ...(r.lo !== undefined ? { low: key(r.lo), lowInclusive: r.loInc } : {}),
                    ...(r.hi !== undefined ? { high: key(r.hi), highInclusive: r.hiInc } : {}),
                  },
            );
            const inRange = (k: number, r: (typeof specs)[number]): boolean => {
              if (r.point && r.lo !== undefined) return k === r.lo;
              if (r.lo !== undefined && (r.loInc ? k < r.lo : k <= r.lo)) return false;
              if (r.hi !== undefined && (r.hiInc ? k > r.hi : k >= r.hi)) return false;
              return true;
            };
            // the model: (k, id) pairs of live rows per range, in index order
            const expected: string[] = [];
            for (const r of specs)
              for (const row of [...live].sort((a, b) => a.k - b.k || cmpBytes(a.id, b.id)))
                if (inRange(row.k, r)) expected.push(`${row.k}:${row.id}`);
            // the reader alone, in index order
            const direct: string[] = [];
            const scratch = new Uint8Array(reader.rowIdLength);
            for (const r of ranges) {
              for (let ok = reader.seek(r); ok; ok = reader.next()) {
                reader.copyRowId(scratch, 0);
                const row = fetcher.rndPos(scratch)!;
                direct.push(`${row.value(kCol)}:${row.value(idCol)}`);
              }
            }
            expect(direct).toEqual(expected);
            // through DS-MRR: the same multiset, rows in primary-key order within each refill
            const counters = createMrrCounters();
            const scan = createMultiRangeRead(reader, fetcher, ranges, {
              mrr_buffer_size: buffer,
              associations: false,
              counters,
            });
            const got: string[] = [];
            while (scan.next()) got.push(`${scan.row!.value(kCol)}:${scan.row!.value(idCol)}`);
            expect([...got].sort()).toEqual([...expected].sort());
            expect(counters.Handler_read_key).toBe(ranges.length);
            expect(scan.rowIdElement).toBe(reader.refLength);
          },
        ),
        { numRuns: 150 },
      );
      // ref_length of a VARCHAR(12) utf8mb4 primary key: 12 · 4 + 2 length bytes
      expect(reader.refLength).toBe(50);
    } finally {
      db.close();
    }
  });
});

/** Byte order of two ASCII ids (the primary key's memcmp order). */
function cmpBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * MariaDB 10.11.x, database `tpch01` loaded from the same dbgen SF 0.1 files with the DBT3 schema
 * (o_orderkey BIGINT) and indexes, recorded with:
 *   SET SESSION optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,
 *     mrr_cost_based=off,rowid_filter=off';
 *   SET mrr_buffer_size=<N>; FLUSH STATUS; <ORDERS_QUARTER>; SHOW SESSION STATUS LIKE 'Handler_%';
 * Q10's quarter of orders (5,557 rows), read by i_o_orderdate under DS-MRR: 8 bytes a row id
 * (ref_length of a BIGINT key, no association), so 1,024 row ids fill 8K.
 */
const ORDERS_QUARTER =
  "SELECT COUNT(*), SUM(o_totalprice) FROM orders FORCE INDEX (i_o_orderdate) WHERE o_orderdate >= '1993-08-01' AND o_orderdate < '1993-11-01'";
const MARIADB: Record<number, { refills: number }> = {
  8192: { refills: 5 },
  32768: { refills: 1 },
  131072: { refills: 0 },
  262144: { refills: 0 },
};
const MARIADB_READS = {
  Handler_mrr_init: 1,
  Handler_read_key: 1,
  Handler_read_next: 5557,
  Handler_read_rnd: 5557,
};

describe('DS-MRR through SQL on TPC-H orders, SF 0.1', () => {
  let dir = '';
  let db: Database | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'enginekit-mrr-'));
    // orders alone at SF 0.1 (150,000 rows); the other tables empty
    for (const t of TPCH_TABLES)
      writeFileSync(join(dir, `${t}.tbl`), t === 'orders' ? generateTable(t, 0.1) : '');
    loadTpch({ db: join(dir, 'orders.ekdb'), tbl: dir });
    db = Database.open(join(dir, 'orders.ekdb'), {});
  }, 120_000);
  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [bytes, want] of Object.entries(MARIADB)) {
    it(`mrr_buffer_size=${bytes}: ${want.refills} rowid refills, as MariaDB`, () => {
      const s = new Session(db!);
      try {
        s.query(
          "SET SESSION optimizer_switch='index_condition_pushdown=off,mrr=on,mrr_sort_keys=on,mrr_cost_based=off'",
        );
        s.query(`SET mrr_buffer_size=${bytes}`);
        expect(s.query(`EXPLAIN ${ORDERS_QUARTER}`).rows[0]![10]).toContain('Rowid-ordered scan');
        s.query('FLUSH STATUS');
        const r = s.query(ORDERS_QUARTER).rows[0]!;
        expect(Number(r[0])).toBe(5557);
        const st = s.status();
        expect(st.Handler_mrr_rowid_refills).toBe(want.refills);
        for (const [name, n] of Object.entries(MARIADB_READS)) expect(st[name as keyof typeof st]).toBe(n);
      } finally {
        s.close();
      }
    });
  }
});
