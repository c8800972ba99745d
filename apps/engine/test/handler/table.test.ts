// The handler layer's TableHandler against a model: random rows (a third deleted, their entries
// delete-marked until purge), random key ranges on a secondary and the primary index, full scans,
// ref and eq_ref lookups and reads stopped early. The rows must be the model's in index order and
// the Handler_* / Innodb_rows_read deltas the ones MariaDB's handler calls give; the storage's
// primitives below the handler must count nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TableHandler } from '../../src/handler/table-handler.js';
import { Database, type HandlerCounter, type KeyRange, Session, type Table } from '../../src/index.js';

interface Row {
  readonly id: number;
  readonly k: number;
  readonly v: number;
}

function counted(table: Table, fn: () => void): Partial<Record<HandlerCounter, number>> {
  const before = table.handlerStats.snapshot();
  fn();
  const after = table.handlerStats.snapshot();
  const out: Partial<Record<HandlerCounter, number>> = {};
  for (const name of Object.keys(after) as HandlerCounter[])
    if (after[name] !== before[name]) out[name] = after[name] - before[name];
  return out;
}

function fixture(): { db: Database; table: Table; live: Row[] } {
  const db = Database.temporary();
  const s = new Session(db);
  s.query('CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, v INT NOT NULL, KEY ik (k))');
  const rows: Row[] = [];
  const ids = new Set<number>();
  for (const [id, k] of fc.sample(
    fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 30 })),
    {
      numRuns: 700,
      seed: 11,
    },
  )) {
    if (ids.has(id)) continue;
    ids.add(id);
    rows.push({ id, k, v: id * 7 });
  }
  for (let i = 0; i < rows.length; i += 100)
    s.query(
      `INSERT INTO t VALUES ${rows
        .slice(i, i + 100)
        .map((r) => `(${r.id}, ${r.k}, ${r.v})`)
        .join(', ')}`,
    );
  const gone = rows.filter((_, i) => i % 3 === 0).map((r) => r.id);
  s.query(`DELETE FROM t WHERE id IN (${gone.join(', ')})`);
  const dead = new Set(gone);
  return { db, table: db.table('t'), live: rows.filter((r) => !dead.has(r.id)) };
}

describe('TableHandler against a model', () => {
  it('readRanges: the rows of each range in index order, Handler_read_key per range, Handler_read_next per row', () => {
    const { db, table, live } = fixture();
    try {
      const h = new TableHandler(table);
      const key = (k: number): Uint8Array => table.keyPrefix('ik', [k]);
      const byIndex = [...live].sort((a, b) => a.k - b.k || a.id - b.id);
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              lo: fc.option(fc.integer({ min: -1, max: 31 }), { nil: undefined }),
              hi: fc.option(fc.integer({ min: -1, max: 31 }), { nil: undefined }),
              loInc: fc.boolean(),
              hiInc: fc.boolean(),
            }),
            { minLength: 1, maxLength: 4 },
          ),
          fc.boolean(),
          (specs, covering) => {
            const ranges: KeyRange[] = specs.map((r) => ({
              // no lower bound: past the NULLs (none here), as the executor's ranges start
              lo: r.lo === undefined ? new Uint8Array(0) : key(r.lo),
              loExclusive: r.lo !== undefined && !r.loInc,
              hi: r.hi === undefined ? null : key(r.hi),
              hiInclusive: r.hi === undefined || r.hiInc,
              unique: false,
            }));
            const expected: number[] = [];
            let nextCalls = 0;
            for (const r of specs) {
              const inRange = byIndex.filter(
                (x) =>
                  (r.lo === undefined || (r.loInc ? x.k >= r.lo : x.k > r.lo)) &&
                  (r.hi === undefined || (r.hiInc ? x.k <= r.hi : x.k < r.hi)),
              );
              // index_read_map returns the first row; index_next_same one call per further row
              // and one that finds the range's end (none for an empty range)
              if (inRange.length > 0) nextCalls += inRange.length - 1 + 1;
              expected.push(...inRange.map((x) => x.id));
            }
            const got: number[] = [];
            let entryId = -1;
            const idCol = table.columnIndex('id');
            const c = counted(table, () => {
              h.readRanges(
                'ik',
                ranges,
                // a covering read takes the id from the entry (its second field); the check sees
                // delete-marked entries too, the row callback only what the read sees
                covering
                  ? (b, ko, kl) => {
                      entryId = Number(table.index('ik').codec.decode(b.slice(ko, ko + kl))[1]);
                      return true;
                    }
                  : null,
                covering,
                (row) => {
                  got.push(covering ? entryId : (row!.value(idCol) as number));
                  return true;
                },
              );
            });
            expect(got).toEqual(expected);
            expect(c.Handler_read_key ?? 0).toBe(ranges.length);
            expect(c.Handler_read_next ?? 0).toBe(nextCalls);
            expect(c.Innodb_rows_read ?? 0).toBe(expected.length);
            expect(c.Handler_read_rnd_next ?? 0).toBe(0);
          },
        ),
        { numRuns: 120 },
      );
    } finally {
      db.close();
    }
  });

  it('rndScan, ref, eq_ref, get and a read stopped early count as their handler calls', () => {
    const { db, table, live } = fixture();
    try {
      const h = new TableHandler(table);
      const idCol = table.columnIndex('id');
      const byPk = [...live].sort((a, b) => a.id - b.id);
      // rnd_init + rnd_next: one call per row and one for the end; no Handler_read_first
      const scanned: number[] = [];
      let c = counted(table, () => h.rndScan((row) => void scanned.push(row.value(idCol) as number)));
      expect(scanned).toEqual(byPk.map((r) => r.id));
      expect(c).toEqual({ Handler_read_rnd_next: live.length + 1, Innodb_rows_read: live.length });
      // stopped after 5 rows: no call for the end
      let n = 0;
      c = counted(table, () => h.rndScan(() => ++n < 5));
      expect(c).toEqual({ Handler_read_rnd_next: 5, Innodb_rows_read: 5 });
      // ref: Handler_read_key, then a next call per further row and one for the end
      const k7 = live.filter((r) => r.k === 7).length;
      expect(k7).toBeGreaterThan(1);
      c = counted(table, () => h.lookup('ik', [7], () => true));
      expect(c).toEqual({ Handler_read_key: 1, Handler_read_next: k7, Innodb_rows_read: k7 });
      // ref stopped at its second row: no end call
      let m = 0;
      c = counted(table, () => h.lookup('ik', [7], () => ++m < 2));
      expect(c).toEqual({ Handler_read_key: 1, Handler_read_next: 1, Innodb_rows_read: 2 });
      // eq_ref on the primary key: one call, no next; a missing key reads nothing
      const one = byPk[3]!;
      c = counted(table, () => expect(h.get([one.id])).toEqual([one.id, one.k, one.v]));
      expect(c).toEqual({ Handler_read_key: 1, Innodb_rows_read: 1 });
      c = counted(table, () => expect(h.get([-5])).toBeUndefined());
      expect(c).toEqual({ Handler_read_key: 1 });
      expect(() => h.get([1, 2])).toThrow(/primary key of t has 1 columns, got 2/);
      // a read inside another's callback on the same handler gets its own row buffer
      const pairs: string[] = [];
      h.lookup('ik', [7], (outer) => {
        const id = outer.value(idCol) as number;
        const inner = h.get([id]);
        pairs.push(`${id}=${inner?.[0]}:${outer.value(idCol)}`);
        return true;
      });
      expect(pairs.every((p) => /^(\d+)=\1:\1$/.test(p))).toBe(true);
    } finally {
      db.close();
    }
  });

  it('the storage primitives under the handler count nothing', () => {
    const { db, table, live } = fixture();
    try {
      const ix = table.index('ik');
      const row = table.newRow();
      let seen = 0;
      const c = counted(table, () => {
        const sees = table.rowReader(ix, row, true);
        table.walkIndex(ix, new Uint8Array(0), false, null, true, null, null, (b, ko, kl, vo, vl) => {
          if (sees(b, ko, kl, vo, vl)) seen++;
          return true;
        });
        const pk = table.keyPrefix('PRIMARY', [live[0]!.id]);
        expect(table.rowAt(pk, pk.length, row)).toBe(true);
      });
      expect(seen).toBe(live.length);
      expect(c).toEqual({});
    } finally {
      db.close();
    }
  });
});
