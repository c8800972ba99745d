// Off-page TEXT and BLOB values (InnoDB's externally stored fields, DYNAMIC row format): values
// that do not fit their record's page live in chains of BLOB pages. Checked against a model
// through SQL (transactions committed and rolled back, values crossing the in-record limit both
// ways), against MVCC (an old version's value read back while purge waits), against purge run
// twice, against crashes at every kind of write, and by the page invariant: every BLOB page of
// the file belongs to exactly one live reference — none leaked, none shared.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FaultDevice,
  FaultPlan,
  getPageType,
  type PageDevice,
  SimulatedCrashError,
} from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseOptions, Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import { blobPageCapacity, FIL_PAGE_TYPE_BLOB } from '../../src/storage/external.js';
import { HIDDEN_BYTES } from '../../src/storage/undo-format.js';
import { SqlError } from '../../src/sql/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-off-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 4 KB pages and a small pool: a chain of a few pages, evictions while values are read. */
const SMALL: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 256 * 4096,
};

const SCHEMA = 'CREATE TABLE t (id INT PRIMARY KEY, a TEXT, b LONGBLOB, c VARCHAR(2000), k INT, KEY (k))';

/** Every BLOB page of the file, and the pages the table's records refer to (each once). */
function blobPages(db: Database): { present: number[]; referenced: number[] } {
  const st = db.store;
  const present: number[] = [];
  const n = db.pool.spaceSize(0);
  for (let p = 1; p < n; p++) {
    const f = st.fix(0, p, 1);
    if (getPageType(st.bytes, f * st.pageSize) === FIL_PAGE_TYPE_BLOB) present.push(p);
    st.unfix(f, 1);
  }
  const referenced: number[] = [];
  for (const t of db.tables()) referenced.push(...t.offPagePages());
  return { present, referenced: referenced.sort((x, y) => x - y) };
}

/** Purges until the history is empty, then checks the page invariant and the indexes. */
function checkSettled(db: Database): void {
  for (let i = 0; i < 1000 && db.historyLength > 0; i++) db.purge();
  expect(db.historyLength).toBe(0);
  const { present, referenced } = blobPages(db);
  expect(new Set(referenced).size, 'a BLOB page is referenced twice').toBe(referenced.length);
  expect(present, 'BLOB pages leaked or missing').toEqual(referenced);
  for (const t of db.tables()) t.checkIndexes(true);
}

/** A value of `len` characters that differs by row and version (so a stale read shows). */
function text(len: number, id: number, ver: number): string {
  const unit = `${id}.${ver};`;
  return unit.repeat(Math.ceil(len / unit.length)).slice(0, len);
}

type Row = { a: string | null; b: string | null; c: string | null; k: number };

function contents(s: Session): Map<number, Row> {
  const out = new Map<number, Row>();
  for (const r of s.query('SELECT id, a, b, c, k FROM t').rows) {
    const [id, a, b, c, k] = r as [number, string | null, Uint8Array | string | null, string | null, number];
    const bs = b === null ? null : typeof b === 'string' ? b : Buffer.from(b).toString('latin1');
    out.set(id, { a, b: bs, c, k });
  }
  return out;
}

function seeded(seed: number): (n: number) => number {
  let x = seed >>> 0 || 1;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

/** Lengths on both sides of the in-record limit (about 1 KB of a 4 KB page) and the 40-byte floor. */
const LENGTHS = [0, 10, 40, 41, 500, 1500, 3000, 9000, 30000, 65535];

describe('off-page values', () => {
  it('round-trip through SQL against a model: inserts, updates across the limit, deletes, commits and rollbacks', () => {
    const db = Database.temporary(SMALL);
    try {
      const s = new Session(db);
      s.query(SCHEMA);
      const rnd = seeded(11);
      const model = new Map<number, Row>();
      const pick = (): number => LENGTHS[rnd(LENGTHS.length)]!;
      let ver = 0;
      for (let trx = 0; trx < 60; trx++) {
        const next = new Map(model);
        s.query('BEGIN');
        for (let op = 0; op < 1 + rnd(4); op++) {
          const id = rnd(12);
          ver++;
          if (rnd(5) === 0) {
            s.query('DELETE FROM t WHERE id = ?', [id]);
            next.delete(id);
            continue;
          }
          const row: Row = {
            a: rnd(6) === 0 ? null : text(pick(), id, ver),
            b: rnd(6) === 0 ? null : text(pick() * 3, id, -ver),
            c: text(Math.min(2000, pick()), id, ver + 1),
            k: rnd(5),
          };
          if (next.has(id))
            s.query('UPDATE t SET a = ?, b = ?, c = ?, k = ? WHERE id = ?', [row.a, row.b, row.c, row.k, id]);
          else s.query('INSERT INTO t VALUES (?, ?, ?, ?, ?)', [id, row.a, row.b, row.c, row.k]);
          next.set(id, row);
        }
        if (rnd(4) === 0) s.query('ROLLBACK');
        else {
          s.query('COMMIT');
          model.clear();
          for (const [k, v] of next) model.set(k, v);
        }
        expect(contents(s)).toEqual(model);
      }
      // the read through a secondary index fetches the same values
      const byK = s.query(
        'SELECT id, LENGTH(a), LENGTH(b) FROM t FORCE INDEX (k) WHERE k >= 0 ORDER BY id',
      ).rows;
      expect(byK).toEqual(
        [...model.entries()]
          .sort((x, y) => x[0] - y[0])
          .map(([id, r]) => [id, r.a === null ? null : r.a.length, r.b === null ? null : r.b.length]),
      );
      checkSettled(db);
      expect(blobPages(db).present.length).toBeGreaterThan(0);
      s.query('DELETE FROM t');
      checkSettled(db);
      expect(blobPages(db).present).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a value too long for its record takes ⌈length / page capacity⌉ BLOB pages, freed by DELETE and purge, and by DROP TABLE', () => {
    const db = Database.temporary(SMALL);
    try {
      const s = new Session(db);
      s.query(SCHEMA);
      const cap = blobPageCapacity(4096);
      const free0 = db.freePages;
      s.query('INSERT INTO t (id, b, k) VALUES (1, ?, 0)', ['x'.repeat(100_000)]);
      const chain = Math.ceil(100_000 / cap);
      expect(blobPages(db).present.length).toBe(chain);
      // a value that fits stays in the record
      s.query('INSERT INTO t (id, b, k) VALUES (2, ?, 0)', ['y'.repeat(500)]);
      expect(blobPages(db).present.length).toBe(chain);
      s.query('DELETE FROM t WHERE id = 1');
      checkSettled(db);
      expect(blobPages(db).present).toEqual([]);
      expect(db.freePages - free0).toBeGreaterThanOrEqual(chain);
      s.query('INSERT INTO t (id, a, b, k) VALUES (3, ?, ?, 0)', ['a'.repeat(60_000), 'b'.repeat(60_000)]);
      expect(blobPages(db).present.length).toBe(2 * Math.ceil(60_000 / cap));
      const before = db.freePages;
      s.query('DROP TABLE t');
      expect(db.freePages - before).toBeGreaterThanOrEqual(2 * Math.ceil(60_000 / cap));
      checkSettled(db);
      expect(blobPages(db).present).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a consistent read sees the old version of a value another transaction replaced, until purge frees it', () => {
    const db = Database.temporary(SMALL);
    try {
      const w = new Session(db);
      const r = new Session(db);
      w.query(SCHEMA);
      w.query('INSERT INTO t (id, a, k) VALUES (1, ?, 0)', [text(40_000, 1, 1)]);
      r.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      w.query('UPDATE t SET a = ? WHERE id = 1', [text(50_000, 1, 2)]);
      w.query('UPDATE t SET a = ? WHERE id = 1', [text(20_000, 1, 3)]);
      // both replaced versions wait for purge: the reader still needs the first
      expect(r.query('SELECT a FROM t WHERE id = 1').rows).toEqual([[text(40_000, 1, 1)]]);
      expect(w.query('SELECT a FROM t WHERE id = 1').rows).toEqual([[text(20_000, 1, 3)]]);
      expect(db.historyLength).toBeGreaterThan(0);
      db.purge();
      expect(r.query('SELECT LENGTH(a), a = ? FROM t WHERE id = 1', [text(40_000, 1, 1)]).rows).toEqual([
        [40_000, 1],
      ]);
      r.query('COMMIT');
      checkSettled(db);
      const cap = blobPageCapacity(4096);
      expect(blobPages(db).present.length).toBe(Math.ceil(20_000 / cap));
    } finally {
      db.close();
    }
  });

  it('the old versions of a dropped table give their pages back when purge reaches them', () => {
    const db = Database.temporary(SMALL);
    try {
      const w = new Session(db);
      const r = new Session(db);
      w.query(SCHEMA);
      w.query('INSERT INTO t (id, a, b, k) VALUES (1, ?, ?, 0)', ['o'.repeat(30_000), 'p'.repeat(50_000)]);
      r.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      w.query('UPDATE t SET a = ? WHERE id = 1', ['n'.repeat(30_000)]);
      w.query('DELETE FROM t WHERE id = 1');
      w.query('DROP TABLE t');
      // the replaced value's pages wait for purge, which the open view holds back
      expect(blobPages(db).present.length).toBeGreaterThan(0);
      r.query('COMMIT');
      checkSettled(db);
      expect(blobPages(db).present).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('purge run twice over the same undo record frees the old version’s pages once', () => {
    const db = Database.temporary(SMALL);
    try {
      const w = new Session(db);
      const r = new Session(db);
      w.query(SCHEMA);
      w.query('INSERT INTO t (id, a, k) VALUES (1, ?, 0)', ['p'.repeat(30_000)]);
      // an open view keeps the committing writer's purge from running
      r.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      w.query('UPDATE t SET a = ? WHERE id = 1', ['q'.repeat(30_000)]);
      r.query('COMMIT');
      const t = db.table('t');
      const logs: Array<{ first: number; trxId: number }> = [];
      for (let rs = 0; rs < db.undo.rsegPages.length; rs++) {
        const o = db.undo.oldest(rs);
        if (o !== null) logs.push(o);
      }
      let applied = 0;
      for (const log of logs)
        db.undo.forEachRecord(log.first, (rec, pos) => {
          if (rec.tableId !== t.id || rec.type === 11) return true;
          const free0 = db.freePages;
          t.purgeChange(rec, log.trxId, pos);
          const once = db.freePages - free0;
          // the record was read before the first run: the second run sees its references still
          // live in its copy, and must find them freed on the undo page
          const again = db.undo;
          again.forEachRecord(log.first, (rec2, pos2) => {
            if (pos2.page === pos.page && pos2.offset === pos.offset) t.purgeChange(rec2, log.trxId, pos2);
            return true;
          });
          if (rec.oldRow.length > HIDDEN_BYTES) {
            expect(once).toBe(Math.ceil(30_000 / blobPageCapacity(4096)));
            expect(db.freePages - free0).toBe(once);
            applied++;
          }
          return true;
        });
      expect(applied).toBe(1);
      checkSettled(db);
      expect(w.query('SELECT LENGTH(a), LEFT(a, 1) FROM t').rows).toEqual([[30_000, 'q']]);
    } finally {
      db.close();
    }
  });

  it('keeps MariaDB’s limits: TEXT is 65,535 bytes (1406), a TEXT primary key needs a length (1170)', () => {
    // Recorded from MariaDB 10.11 with `mariadb -e`:
    //   CREATE TABLE t (id INT PRIMARY KEY, a TEXT, b LONGBLOB, c MEDIUMTEXT);
    //   INSERT INTO t VALUES (1, REPEAT('x', 65536), NULL, NULL)
    //     → ERROR 1406 (22001): Data too long for column 'a' at row 1
    //   INSERT INTO t VALUES (1, REPEAT('x', 65535), REPEAT('y', 3000000), REPEAT('z', 70000));
    //   SELECT id, LENGTH(a), LENGTH(b), LENGTH(c) FROM t → 1 65535 3000000 70000
    //   CREATE TABLE t2 (a TEXT PRIMARY KEY)
    //     → ERROR 1170 (42000): BLOB/TEXT column 'a' used in key specification without a key length
    const db = Database.temporary();
    try {
      const s = new Session(db);
      s.query('CREATE TABLE t (id INT PRIMARY KEY, a TEXT, b LONGBLOB, c MEDIUMTEXT)');
      const err = (q: string): [number, string] => {
        try {
          s.query(q);
        } catch (e) {
          if (e instanceof SqlError) return [e.errno, e.message];
          throw e;
        }
        return [0, ''];
      };
      expect(err(`INSERT INTO t VALUES (1, REPEAT('x', 65536), NULL, NULL)`)).toEqual([
        1406,
        "Data too long for column 'a' at row 1",
      ]);
      s.query(`INSERT INTO t VALUES (1, REPEAT('x', 65535), REPEAT('y', 3000000), REPEAT('z', 70000))`);
      expect(s.query('SELECT id, LENGTH(a), LENGTH(b), LENGTH(c) FROM t').rows).toEqual([
        [1, 65535, 3000000, 70000],
      ]);
      expect(err('CREATE TABLE t2 (a TEXT PRIMARY KEY)')).toEqual([
        1170,
        "BLOB/TEXT column 'a' used in key specification without a key length",
      ]);
      expect(s.query('SHOW CREATE TABLE t').rows[0]![1]).toContain('`b` longblob DEFAULT NULL');
      checkSettled(db);
    } finally {
      db.close();
    }
  });
});

describe('off-page values across crashes', () => {
  const options: DatabaseOptions = {
    ...SMALL,
    innodb_buffer_pool_size: 64 * 4096,
    innodb_log_file_size: 262144,
    innodb_log_files_in_group: 2,
  };
  type Op = { id: number; len: number; del: boolean };
  const rnd = seeded(5);
  const trxs: Op[][] = [];
  for (let i = 0; i < 30; i++) {
    const ops: Op[] = [];
    for (let k = 0; k < 1 + rnd(2); k++)
      ops.push({ id: rnd(6), len: LENGTHS[rnd(LENGTHS.length)]!, del: rnd(5) === 0 });
    trxs.push(ops);
  }

  /** Runs the workload on fault devices until it ends or crashes; the committed states. */
  function run(
    path: string,
    plan: FaultPlan,
  ): {
    committed: Map<number, string>;
    pending: Map<number, string> | null;
    crashed: boolean;
    writes: number;
  } {
    const devs: FaultDevice[] = [];
    const opts: DatabaseOptions = {
      ...options,
      wrapDevice: (d: PageDevice, _role: string, created: boolean) => {
        const f = new FaultDevice(d, plan, { created });
        devs.push(f);
        return f;
      },
      onDirectorySync: (d: string) => plan.syncDirectory(d),
    };
    const committed = new Map<number, string>();
    let pending: Map<number, string> | null = null;
    let db: Database | undefined;
    try {
      db = Database.open(path, opts);
      const s = new Session(db);
      for (const [n, ops] of trxs.entries()) {
        const next = new Map(committed);
        s.query('BEGIN');
        for (const op of ops) {
          if (op.del) {
            s.query('DELETE FROM t WHERE id = ?', [op.id]);
            next.delete(op.id);
          } else {
            const v = text(op.len, op.id, n);
            s.query('REPLACE INTO t (id, a, k) VALUES (?, ?, 0)', [op.id, v]);
            next.set(op.id, v);
          }
        }
        pending = next;
        s.query('COMMIT');
        pending = null;
        committed.clear();
        for (const [k, v] of next) committed.set(k, v);
      }
      db.close();
      return { committed, pending, crashed: false, writes: plan.writes };
    } catch (e) {
      if (!(e instanceof SimulatedCrashError) && !plan.crashed) throw e;
      for (const d of devs) {
        try {
          d.crash('lost');
        } catch {
          // already closed
        }
      }
      db?.abandon();
      return { committed, pending, crashed: true, writes: plan.writes };
    }
  }

  const setup = (name: string): string => {
    const path = join(dir, name);
    const db = Database.create(path, options);
    new Session(db).query(SCHEMA);
    db.close();
    return path;
  };
  const dry = run(setup('dry.ekdb'), new FaultPlan());

  it('the workload runs to the end without a crash', () => {
    expect(dry.crashed).toBe(false);
    expect(dry.writes).toBeGreaterThan(20);
  });

  const points: Array<{ at: 'write' | 'sync'; n: number; tear: boolean }> = [];
  for (let i = 1; i <= 10; i++)
    points.push({ at: 'write', n: Math.max(1, Math.round((dry.writes * i) / 11)), tear: i % 2 === 0 });
  for (let i = 1; i <= 4; i++) points.push({ at: 'sync', n: 2 * i + 1, tear: false });

  it.each(points)(
    'crash at $at $n (torn: $tear): the committed values, no BLOB page leaked',
    ({ at, n, tear }) => {
      const path = setup(`c-${at}-${n}.ekdb`);
      const plan = new FaultPlan(at === 'write' ? { crashAtWrite: n, tear } : { crashAtSync: n });
      const r = run(path, plan);
      expect(r.crashed).toBe(true);
      const db = Database.open(path, options);
      try {
        const s = new Session(db);
        const got = new Map<number, string>();
        for (const [id, a] of s.query('SELECT id, a FROM t').rows as Array<[number, string]>) got.set(id, a);
        const same = (m: Map<number, string>): boolean =>
          m.size === got.size && [...m].every(([k, v]) => got.get(k) === v);
        expect(same(r.committed) || (r.pending !== null && same(r.pending))).toBe(true);
        checkSettled(db);
      } finally {
        db.close();
      }
    },
  );
});
