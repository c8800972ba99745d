// A database file with tables and secondary indexes: round trip and reopen, every index kept
// consistent with its table under mixed writes (fast-check model run against a Map), duplicate
// keys that change nothing, and the files that must not open.
import {
  mkdtempSync,
  rmSync,
  writeFileSync,
  readFileSync,
  openSync,
  readSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Database,
  DuplicateEntryError,
  type FieldValue,
  FormatVersionError,
  NotADatabaseError,
  TableLoader,
  type TableSchema,
  buildIndexFromTable,
} from '../../src/index.js';
import { TableHandler } from '../../src/handler/table-handler.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(dir, `db${n++}.ekdb`);
const SMALL = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 2 << 20,
  innodb_log_file_size: 1 << 20,
} as const;

const SCHEMA: TableSchema = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' } },
    { name: 'a', type: { kind: 'int' } },
    { name: 'b', type: { kind: 'varchar', length: 20 }, nullable: true },
    { name: 'd', type: { kind: 'decimal', precision: 10, scale: 2 } },
    { name: 'dt', type: { kind: 'date' } },
  ],
  primaryKey: ['id'],
  indexes: [
    { name: 'i_a', columns: ['a'] },
    { name: 'i_b_a', columns: ['b', 'a'] },
    { name: 'u_d', columns: ['d'], unique: true },
    { name: 'i_id', columns: ['id'] }, // its entries are the primary keys: loaded beside the clustered tree
  ],
};

type Row = [number, number, string | null, number, number];
const enc = new TextEncoder();
const norm = (r: Row): FieldValue[] => [r[0], r[1], r[2] === null ? null : enc.encode(r[2]), r[3], r[4]];

describe('database file', () => {
  it('round-trips rows and knows its tables after reopening', () => {
    const path = fresh();
    const db = Database.create(path, SMALL);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 2000; i++) t.insert([i, i % 7, i % 3 === 0 ? null : `b${i % 11}  `, i * 3, 9000 + i]);
    db.close();

    const db2 = Database.open(path, SMALL);
    const t2 = db2.table('t');
    expect(t2.rows).toBe(2000);
    expect(t2.columns).toEqual(SCHEMA.columns);
    expect(t2.secondary.map((i) => [i.name, i.unique])).toEqual([
      ['i_a', false],
      ['i_b_a', false],
      ['u_d', true],
      ['i_id', false],
    ]);
    expect(new TableHandler(t2).get([1234])).toEqual(norm([1234, 1234 % 7, 'b2  ', 3702, 10234]));
    expect(t2.primary.tree.stats().height).toBeGreaterThan(1);
    const viaIndex: number[] = [];
    new TableHandler(t2).lookup('i_a', [3], (row) => {
      viaIndex.push(row.nums[0]!);
      return true;
    });
    expect(viaIndex).toEqual(Array.from({ length: 2000 }, (_, i) => i).filter((i) => i % 7 === 3));
    const before = db2.status();
    let found = 0;
    new TableHandler(t2).lookup('u_d', ['36.99'], () => {
      found++;
      return true;
    });
    expect(found).toBe(1); // d = 3699 (scaled) is row 1233
    expect(db2.status().Handler_read_key - before.Handler_read_key).toBe(1);
    t2.checkIndexes();
    db2.close();
  });

  it('counts handler calls and shows the pool counters in status()', () => {
    const db = Database.create(fresh(), SMALL);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 10; i++) t.insert([i, i, null, i, i]);
    t.update([3], [3, 30, 'x', 3, 3]);
    t.delete([4]);
    let rows = 0;
    new TableHandler(t).rndScan(() => {
      rows++;
      return true;
    });
    const s = db.status();
    expect(s.Handler_write).toBe(10);
    expect(s.Handler_update).toBe(1);
    expect(s.Handler_delete).toBe(1);
    expect(s.Handler_read_rnd_next).toBe(10); // 9 rows and the call that finds the end
    expect(s.Handler_read_first).toBe(0); // a table scan is rnd_next calls only, as MariaDB counts it
    expect(s.Innodb_buffer_pool_read_requests).toBeGreaterThan(0);
    expect(rows).toBe(9);
    db.close();
  });

  it('a duplicate primary or unique key is an error that changes nothing', () => {
    const db = Database.create(fresh(), SMALL);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 50; i++) t.insert([i, i % 5, `v${i}`, i, i]);
    const snapshot = (): unknown[] => {
      const out: unknown[] = [];
      new TableHandler(t).rndScan((r) => {
        out.push(r.toArray());
        return true;
      });
      return out;
    };
    const before = snapshot();
    expect(() => t.insert([7, 1, 'x', 1000, 0])).toThrow(DuplicateEntryError);
    expect(() => t.insert([7, 1, 'x', 1000, 0])).toThrow("Duplicate entry '7' for key 't.PRIMARY'");
    // d is DECIMAL(10,2): the stored 7 is 0.07, and the message shows the value as typed
    expect(() => t.insert([100, 1, 'x', 7, 0])).toThrow("Duplicate entry '0.07' for key 't.u_d'");
    expect(() => t.update([8], [8, 1, 'x', 9, 0])).toThrow(/u_d/);
    expect(() => t.update([8], [9, 1, 'x', 8, 0])).toThrow(/PRIMARY/);
    expect(snapshot()).toEqual(before);
    expect(t.rows).toBe(50);
    t.checkIndexes();
    // updating a row to its own unique value is fine
    expect(t.update([8], [8, 2, 'y', 8, 1])).toBe(true);
    t.checkIndexes();
    db.close();
  });

  it('keeps every index consistent with its table under mixed insert/update/delete (model run)', () => {
    type Model = Map<number, Row>;
    interface Real {
      db: Database;
    }
    // few keys, so updates and deletes usually hit a row; d (unique) clashes now and then
    const rowArb = fc.tuple(
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 5 }),
      fc.option(fc.constantFrom('', 'a', 'a ', 'ab', 'b\u0000', 'zz'), { freq: 4 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: -1000, max: 20000 }),
    ) as fc.Arbitrary<Row>;
    const dClash = (m: Model, r: Row, self: number | null): boolean =>
      [...m.values()].some((x) => x[3] === r[3] && x[0] !== self);
    const check = (m: Model, r: Real): void => {
      const t = r.db.table('t');
      t.checkIndexes();
      expect(t.rows).toBe(m.size);
      const got: unknown[] = [];
      new TableHandler(t).rndScan((row) => {
        got.push(row.toArray());
        return true;
      });
      expect(got).toEqual([...m.values()].sort((a, b) => a[0] - b[0]).map(norm));
      // index lookups read entries and clustered records in place: same rows as the model, in
      // index order (the secondary key, then the primary key)
      const all = [...m.values()];
      const viaIndex = (index: string, prefix: FieldValue[]): unknown[] => {
        const out: unknown[] = [];
        new TableHandler(t).lookup(index, prefix, (row) => {
          out.push(row.toArray());
          return true;
        });
        return out;
      };
      for (let a = 0; a <= 5; a++) {
        const want = all.filter((x) => x[1] === a).sort((x, y) => x[0] - y[0]);
        expect(viaIndex('i_a', [a])).toEqual(want.map(norm));
      }
      for (const b of ['', 'a', 'a ', 'ab', 'b\u0000', 'zz']) {
        const want = all.filter((x) => x[2] === b).sort((x, y) => x[1] - y[1] || x[0] - y[0]);
        expect(viaIndex('i_b_a', [b])).toEqual(want.map(norm));
      }
      for (const x of all) expect(viaIndex('u_d', [x[3]])).toEqual([norm(x)]);
    };
    class Insert implements fc.Command<Model, Real> {
      constructor(readonly row: Row) {}
      check = (): boolean => true;
      run(m: Model, r: Real): void {
        const t = r.db.table('t');
        if (m.has(this.row[0]) || dClash(m, this.row, null)) {
          expect(() => t.insert(norm(this.row))).toThrow(DuplicateEntryError);
        } else {
          t.insert(norm(this.row));
          m.set(this.row[0], this.row);
        }
        check(m, r);
      }
      toString = (): string => `insert ${JSON.stringify(this.row)}`;
    }
    class Update implements fc.Command<Model, Real> {
      constructor(
        readonly id: number,
        readonly row: Row,
      ) {}
      check = (): boolean => true;
      run(m: Model, r: Real): void {
        const t = r.db.table('t');
        if (!m.has(this.id)) {
          expect(t.update([this.id], norm(this.row))).toBe(false);
        } else if ((this.row[0] !== this.id && m.has(this.row[0])) || dClash(m, this.row, this.id)) {
          expect(() => t.update([this.id], norm(this.row))).toThrow(DuplicateEntryError);
        } else {
          expect(t.update([this.id], norm(this.row))).toBe(true);
          m.delete(this.id);
          m.set(this.row[0], this.row);
        }
        check(m, r);
      }
      toString = (): string => `update ${this.id} ${JSON.stringify(this.row)}`;
    }
    class Delete implements fc.Command<Model, Real> {
      constructor(readonly id: number) {}
      check = (): boolean => true;
      run(m: Model, r: Real): void {
        expect(r.db.table('t').delete([this.id])).toBe(m.delete(this.id));
        check(m, r);
      }
      toString = (): string => `delete ${this.id}`;
    }
    class Reopen implements fc.Command<Model, Real> {
      check = (): boolean => true;
      run(m: Model, r: Real): void {
        r.db.close();
        r.db = Database.open(r.db.path, SMALL);
        check(m, r);
      }
      toString = (): string => 'reopen';
    }
    const commands = [
      rowArb.map((row) => new Insert(row)),
      rowArb.map((row) => new Insert(row)),
      fc.tuple(fc.integer({ min: 0, max: 12 }), rowArb).map(([id, row]) => new Update(id, row)),
      fc.integer({ min: 0, max: 12 }).map((id) => new Delete(id)),
      fc.constant(new Reopen()),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        const db = Database.create(fresh(), SMALL);
        db.createTable(SCHEMA);
        const real: Real = { db };
        try {
          fc.modelRun(() => ({ model: new Map(), real }), cmds);
        } finally {
          real.db.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('an index that differs from its table', () => {
  it('checkIndexes names the index, and a lookup through an entry whose row is gone throws', () => {
    const db = Database.create(fresh(), SMALL);
    try {
      const t = db.createTable(SCHEMA);
      for (let i = 0; i < 200; i++) t.insert([i, i % 7, `v${i % 11}`, i, 19000 + i]);
      t.checkIndexes();
      const ia = t.index('i_a');
      // drop the i_a entry (a = 3, id = 10) behind the table's back
      expect(ia.tree.delete(ia.codec.encode([3, 10]), new Uint8Array(0))).toBe(true);
      expect(() => t.checkIndexes()).toThrow(/t\.i_a: entry \d+ differs from the table/);
      // the clustered record of id 24 (a = 3) goes; its i_a entry still points at it
      expect(t.primary.tree.delete(t.primary.codec.encode([24]))).toBe(true);
      expect(() => new TableHandler(t).lookup('i_a', [3], () => true)).toThrow(
        /index i_a of t points at a missing row/,
      );
      expect(() => t.checkIndexes()).toThrow(RangeError);
    } finally {
      db.close();
    }
  });
});

describe('adding an index to a table with rows (fast index creation)', () => {
  it('builds it by merge sort + bulk load, consistent with the rows, and the catalog keeps it', () => {
    const path = fresh();
    const db = Database.create(path, SMALL);
    let t = db.createTable(SCHEMA);
    for (let i = 0; i < 3000; i++)
      t.insert([(i * 7919) % 3001, i % 11, i % 5 === 0 ? null : `k${i % 17}`, i, i]);
    const added = db.addIndexDefinition('t', { name: 'i_dt_a', columns: ['dt', 'a'] });
    t = added.table;
    // a small sort buffer forces runs on disk and a merge
    expect(buildIndexFromTable(t, [added.index], { innodb_sort_buffer_size: 65536 })).toEqual([3000]);
    t.checkIndexes();
    expect(() => db.addIndexDefinition('t', { name: 'i_a', columns: ['b'] })).toThrow(
      /Duplicate key name 'i_a'/,
    );
    db.close();
    const db2 = Database.open(path, SMALL);
    const t2 = db2.table('t');
    expect(t2.secondary.map((i) => i.name)).toContain('i_dt_a');
    t2.checkIndexes();
    let n = 0;
    new TableHandler(t2).lookup('i_dt_a', [42], (row) => {
      expect(row.nums[4]).toBe(42);
      n++;
      return true;
    });
    expect(n).toBe(1);
    db2.close();
  });

  it('a unique index over duplicate values is refused', () => {
    const db = Database.create(fresh(), SMALL);
    let t = db.createTable(SCHEMA);
    for (let i = 0; i < 100; i++) t.insert([i, i % 3, null, i, i]);
    const added = db.addIndexDefinition('t', { name: 'u_a', columns: ['a'], unique: true });
    t = added.table;
    expect(() => buildIndexFromTable(t, [added.index])).toThrow(/Duplicate entry .* for key 't.u_a'/);
    db.abandon();
  });
});

describe('simulated disk', () => {
  it('the same database through a modeled SSD reports modeled I/O time', () => {
    const path = fresh();
    const db = Database.create(path, { ...SMALL, disk: 'ssd' });
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 3000; i++) t.insert([i, i % 7, `r${i}`, i, i]);
    db.close();
    const db2 = Database.open(path, { ...SMALL, disk: 'hdd' });
    expect(new TableHandler(db2.table('t')).get([2999])).toEqual(norm([2999, 2999 % 7, 'r2999', 2999, 2999]));
    const stats = (db2.device as unknown as { stats(): { modeledMs: number } }).stats();
    expect(stats.modeledMs).toBeGreaterThan(0);
    db2.close();
  });
});

describe('bulk loading a table', () => {
  const load = (ids: number[]): { db: Database; late: number } => {
    const db = Database.create(fresh(), SMALL);
    const t = db.createTable(SCHEMA);
    const loader = new TableLoader(t);
    const row = t.newRow();
    try {
      for (const id of ids)
        loader.add(row.setAll(norm([id, id % 9, id % 4 === 0 ? null : `s${id % 13}`, id, id])));
      loader.finish();
    } catch (e) {
      loader.close();
      db.close();
      throw e;
    }
    return { db, late: loader.lateRows };
  };

  it('input in any order: in-order rows bulk-loaded, the rest sorted and inserted; indexes match', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 1500 }), (ids) => {
        const { db, late } = load(ids);
        try {
          const t = db.table('t');
          expect(t.rows).toBe(ids.length);
          t.checkIndexes();
          const got: number[] = [];
          new TableHandler(t).rndScan((r) => {
            got.push(r.nums[0]!);
            return true;
          });
          expect(got).toEqual([...ids].sort((a, b) => a - b));
          expect(late).toBeLessThanOrEqual(ids.length);
        } finally {
          db.close();
        }
      }),
      { numRuns: 15 },
    );
  });

  it('local disorder within the reorder window still bulk-loads every row; far disorder goes late', () => {
    const groups: number[] = [];
    for (let p = 0; p < 500; p++) groups.push(p * 4 + 3, p * 4 + 1, p * 4 + 2, p * 4); // like partsupp
    const a = load(groups);
    expect(a.late).toBe(0);
    a.db.table('t').checkIndexes();
    a.db.close();
    const b = load([...Array.from({ length: 300 }, (_, i) => i + 100), 5, 1, 2]);
    expect(b.late).toBe(3);
    b.db.table('t').checkIndexes();
    b.db.close();
  });

  it('a duplicate primary key in the input is an error', () => {
    expect(() => load([1, 2, 3, 2])).toThrow("Duplicate entry '2' for key 't.PRIMARY'");
    expect(() => load([...Array.from({ length: 200 }, (_, i) => i), 7])).toThrow(/Duplicate entry '7'/);
  });
});

describe('files that must not open', () => {
  it('a file that is not an enginekit database', () => {
    const p = fresh();
    writeFileSync(p, 'SQLite format 3\u0000'.repeat(1000));
    expect(() => Database.open(p)).toThrow(NotADatabaseError);
    expect(() => Database.open(p)).toThrow(/is not an enginekit database: no ENGINEKT magic/);
    const short = fresh();
    writeFileSync(short, 'hi');
    expect(() => Database.open(short)).toThrow(/only 2 bytes long/);
  });

  it('a database of a newer format version', () => {
    const p = fresh();
    Database.create(p, SMALL).close();
    const bytes = readFileSync(p);
    bytes.writeUInt32BE(4, 38 + 8);
    writeFileSync(p, bytes);
    expect(() => Database.open(p)).toThrow(FormatVersionError);
    expect(() => Database.open(p)).toThrow(/format version 4; this enginekit reads version 3/);
    bytes.writeUInt32BE(2, 38 + 8); // the format before records carried DB_TRX_ID and DB_ROLL_PTR
    writeFileSync(p, bytes);
    expect(() => Database.open(p)).toThrow(/format version 2; this enginekit reads version 3/);
  });

  it('a corrupt page is a CorruptionError naming the page, never a wrong answer', () => {
    const p = fresh();
    const db = Database.create(p, SMALL);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 3000; i++) t.insert([i, i % 7, `r${i}`, i, i]);
    db.close();
    // find a leaf of the clustered index holding row 2500 and flip one byte of a record
    const db2 = Database.open(p, SMALL);
    const c = db2.table('t').primary.tree.cursor();
    const key = db2.table('t').primary.codec.encode([2500]);
    expect(c.seek(key, 'eq')).toBe(true);
    const page = c.pageNo;
    db2.close();
    const fd = openSync(p, 'r+');
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, page * 4096 + 200);
    b[0] = b[0]! ^ 0x40;
    writeSync(fd, b, 0, 1, page * 4096 + 200);
    closeSync(fd);
    const db3 = Database.open(p, SMALL);
    const err = (() => {
      try {
        new TableHandler(db3.table('t')).get([2500]);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err?.name).toBe('CorruptionError');
    expect(err?.message).toContain(`corrupt page ${page} `);
    db3.abandon();
  });
});
