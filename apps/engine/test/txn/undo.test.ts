// Undo logs against a model: random statements inside transactions (multi-row INSERTs that
// hit a duplicate half way, primary-key and unique-key changes, range UPDATEs and DELETEs,
// REPLACE, savepoints), each statement compared with a Map of the rows it should leave; every
// ROLLBACK must leave every index tree byte for byte as it was at BEGIN, checkIndexes() after
// each transaction. Also the record format and the statements' edge cases.
import { afterEach, describe, expect, it } from 'vitest';
import { Database, Session, SqlError } from '../../src/index.js';
import { isDeleteMarked } from '@enginekit/btree-sampler';

const dbs: Database[] = [];
afterEach(() => {
  for (const d of dbs.splice(0)) d.close();
});

/** A seeded xorshift32: pick(n) in 0..n-1. */
function seeded(seed: number): (n: number) => number {
  let x = seed | 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

type Row = { id: number; k: number; u: number | null; s: string };

/** Every entry of every tree of the table, as hex. */
function treeBytes(db: Database, name: string): string[] {
  const t = db.table(name);
  const out: string[] = [];
  for (const ix of [t.primary, ...t.secondary]) {
    ix.tree.forEachRangeRaw(null, null, (b, ko, kl, vo, vl) => {
      out.push(
        `${ix.name}:${isDeleteMarked(b, ko) ? 'D' : ''}${Buffer.from(b.subarray(ko, ko + kl)).toString('hex')}=${Buffer.from(b.subarray(vo, vo + vl)).toString('hex')}`,
      );
      return true;
    });
  }
  return out;
}

function sqlValue(r: Row): string {
  return `(${r.id}, ${r.k}, ${r.u === null ? 'NULL' : r.u}, '${r.s}')`;
}

describe('undo log', () => {
  it('rolled-back transactions leave every index byte-equal; each statement matches the model', () => {
    const db = Database.temporary({ innodb_page_size: 4096 });
    dbs.push(db);
    const s = new Session(db);
    s.query(
      'CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, u INT NULL, s VARCHAR(40) NOT NULL, KEY kk (k), UNIQUE KEY uu (u), KEY ks (s))',
    );
    const pick = seeded(16);
    const word = (): string => 'w'.repeat(1 + pick(30)) + String(pick(1000));
    let model = new Map<number, Row>();
    for (let i = 0; i < 300; i++) {
      const r: Row = { id: i * 3, k: pick(50), u: pick(3) === 0 ? null : 100000 + i, s: word() };
      model.set(r.id, r);
    }
    s.query(`INSERT INTO t VALUES ${[...model.values()].map(sqlValue).join(', ')}`);
    const read = (): Row[] =>
      s.query('SELECT id, k, u, s FROM t ORDER BY id').rows.map(([id, k, u, str]) => ({
        id: id as number,
        k: k as number,
        u: u as number | null,
        s: str as string,
      }));
    const sorted = (m: Map<number, Row>): Row[] => [...m.values()].sort((a, b) => a.id - b.id);
    const uniqueClash = (m: Map<number, Row>, u: number | null, self: number): boolean =>
      u !== null && [...m.values()].some((r) => r.u === u && r.id !== self);

    let rollbacks = 0;
    let failedStatements = 0;
    for (let round = 0; round < 45; round++) {
      const before = treeBytes(db, 't');
      const beforeRows = db.table('t').rows;
      s.query(pick(2) === 0 ? 'BEGIN' : 'START TRANSACTION');
      let work = new Map(model);
      const saves: Array<Map<number, Row>> = [];
      const steps = 1 + pick(12);
      for (let step = 0; step < steps; step++) {
        const op = pick(9);
        let sql: string;
        let next: Map<number, Row> | null = new Map(work);
        if (op === 0 || op === 1) {
          // a multi-row INSERT; a clash anywhere fails it all
          const rows: Row[] = [];
          const n = 1 + pick(20);
          for (let i = 0; i < n; i++)
            rows.push({
              id: pick(1200),
              k: pick(50),
              u: pick(2) === 0 ? null : 100000 + pick(1200),
              s: word(),
            });
          sql = `INSERT INTO t VALUES ${rows.map(sqlValue).join(', ')}`;
          for (const r of rows) {
            if (next.has(r.id) || uniqueClash(next, r.u, r.id)) {
              next = null;
              break;
            }
            next.set(r.id, r);
          }
        } else if (op === 2) {
          const a = pick(1200);
          const b = a + pick(200);
          const d = 1 + pick(5);
          sql = `UPDATE t SET k = k + ${d}, s = CONCAT(s, 'x') WHERE id BETWEEN ${a} AND ${b}`;
          for (const r of next.values())
            if (r.id >= a && r.id <= b) next.set(r.id, { ...r, k: r.k + d, s: `${r.s}x` });
        } else if (op === 3) {
          // the primary key moves
          const ids = [...next.keys()];
          const from = ids.length === 0 ? 0 : ids[pick(ids.length)]!;
          const to = pick(1200);
          sql = `UPDATE t SET id = ${to} WHERE id = ${from}`;
          const r = next.get(from);
          if (r !== undefined && to !== from) {
            if (next.has(to)) next = null;
            else {
              next.delete(from);
              next.set(to, { ...r, id: to });
            }
          }
        } else if (op === 4) {
          const ids = [...next.keys()];
          const id = ids.length === 0 ? 0 : ids[pick(ids.length)]!;
          const u = 100000 + pick(1200);
          sql = `UPDATE t SET u = ${u} WHERE id = ${id}`;
          const r = next.get(id);
          if (r !== undefined) {
            if (uniqueClash(next, u, id)) next = null;
            else next.set(id, { ...r, u });
          }
        } else if (op === 5) {
          const k = pick(50);
          sql = `DELETE FROM t WHERE k < ${k} AND id % 7 = ${pick(7)}`;
          const m = Number(/= (\d+)$/.exec(sql)![1]);
          for (const r of [...next.values()]) if (r.k < k && r.id % 7 === m) next.delete(r.id);
        } else if (op === 6) {
          const r: Row = { id: pick(1200), k: pick(50), u: null, s: word() };
          sql = `REPLACE INTO t VALUES ${sqlValue(r)}`;
          next.set(r.id, r);
        } else if (op === 7) {
          sql = `SAVEPOINT s${saves.length}`;
          saves.push(new Map(work));
        } else {
          if (saves.length === 0) continue;
          const i = pick(saves.length);
          sql = `ROLLBACK TO SAVEPOINT s${i}`;
          next = new Map(saves[i]!);
          saves.length = i + 1;
        }
        try {
          s.query(sql);
          expect(next, sql).not.toBeNull();
          work = next!;
        } catch (e) {
          expect(e, sql).toBeInstanceOf(SqlError);
          expect((e as SqlError).errno, sql).toBe(1062);
          expect(next, sql).toBeNull();
          failedStatements++;
        }
        expect(read(), sql).toEqual(sorted(work));
      }
      if (pick(3) === 0) {
        s.query('COMMIT');
        model = work;
      } else {
        s.query('ROLLBACK');
        rollbacks++;
        expect(treeBytes(db, 't')).toEqual(before);
        expect(db.table('t').rows).toBe(beforeRows);
      }
      db.table('t').checkIndexes();
      expect(read()).toEqual(sorted(model));
    }
    expect(rollbacks).toBeGreaterThan(15);
    expect(failedStatements).toBeGreaterThan(5);
  });

  it('a failed statement under autocommit leaves nothing, and the session goes on', () => {
    const db = Database.temporary();
    dbs.push(db);
    const s = new Session(db);
    s.query('CREATE TABLE a (id INT PRIMARY KEY, v INT, UNIQUE KEY uv (v))');
    s.query('INSERT INTO a VALUES (1, 1), (2, 2)');
    const before = treeBytes(db, 'a');
    expect(() => s.query('UPDATE a SET v = 2 WHERE id = 1')).toThrow(/Duplicate entry/);
    expect(() => s.query('INSERT INTO a VALUES (3, 3), (4, 4), (5, 1)')).toThrow(/Duplicate entry/);
    expect(treeBytes(db, 'a')).toEqual(before);
    s.query('INSERT INTO a VALUES (3, 3)');
    expect(s.query('SELECT COUNT(*) FROM a').rows).toEqual([[3]]);
  });

  it('through the synchronous API a conflicting statement fails at once with 1205; the holder goes on', () => {
    const db = Database.temporary();
    dbs.push(db);
    const a = new Session(db);
    const b = new Session(db);
    a.query('CREATE TABLE a (id INT PRIMARY KEY, v INT)');
    a.query('INSERT INTO a VALUES (1, 1), (2, 2)');
    a.query('BEGIN');
    a.query('UPDATE a SET v = 10 WHERE id = 1');
    b.query('BEGIN');
    b.query('UPDATE a SET v = 20 WHERE id = 2');
    const e = (() => {
      try {
        b.query('UPDATE a SET v = v + 1');
      } catch (err) {
        return err as SqlError;
      }
      return undefined;
    })();
    expect([e?.errno, e?.sqlState]).toEqual([1205, 'HY000']);
    // only b's failed statement was undone; its first update stays
    expect(b.query('SELECT v FROM a WHERE id = 2').rows).toEqual([[20]]);
    b.query('COMMIT');
    a.query('COMMIT');
    expect(a.query('SELECT v FROM a ORDER BY id').rows).toEqual([[10], [20]]);
    db.table('a').checkIndexes();
  });

  it('closing a session rolls its transaction back', () => {
    const db = Database.temporary();
    dbs.push(db);
    const s = new Session(db);
    s.query('CREATE TABLE a (id INT PRIMARY KEY, v INT)');
    s.query('INSERT INTO a VALUES (1, 1)');
    const before = treeBytes(db, 'a');
    s.query('SET autocommit = 0');
    s.query('INSERT INTO a VALUES (2, 2)');
    s.query('UPDATE a SET v = 9');
    s.close();
    expect(treeBytes(db, 'a')).toEqual(before);
    const t = new Session(db);
    expect(t.query('SELECT * FROM a').rows).toEqual([[1, 1]]);
  });

  it('DDL commits the open transaction; RELEASE and unknown savepoints; READ ONLY refuses writes', () => {
    const db = Database.temporary();
    dbs.push(db);
    const s = new Session(db);
    s.query('CREATE TABLE a (id INT PRIMARY KEY)');
    s.query('BEGIN');
    s.query('INSERT INTO a VALUES (1)');
    s.query('CREATE TABLE b (id INT PRIMARY KEY)');
    s.query('ROLLBACK');
    expect(s.query('SELECT * FROM a').rows).toEqual([[1]]);
    s.query('BEGIN');
    s.query('SAVEPOINT x');
    s.query('RELEASE SAVEPOINT x');
    const e = (() => {
      try {
        s.query('ROLLBACK TO SAVEPOINT x');
      } catch (err) {
        return err as SqlError;
      }
      return undefined;
    })();
    expect([e?.errno, e?.message]).toEqual([1305, 'SAVEPOINT x does not exist']);
    s.query('COMMIT');
    s.query('START TRANSACTION READ ONLY');
    expect(() => s.query('INSERT INTO a VALUES (2)')).toThrow(
      'Cannot execute statement in a READ ONLY transaction.',
    );
    s.query('COMMIT');
    s.query('SET SESSION transaction_read_only = 1');
    expect(() => s.query('INSERT INTO a VALUES (2)')).toThrow(
      'Cannot execute statement in a READ ONLY transaction.',
    );
    s.query('START TRANSACTION READ WRITE');
    s.query('INSERT INTO a VALUES (2)');
    s.query('COMMIT');
    s.query('SET SESSION transaction_read_only = 0');
    expect(s.query('SELECT COUNT(*) FROM a').rows).toEqual([[2]]);
    expect(new Session(db).status().Com_commit).toBe(0);
    expect(s.status().Com_begin).toBe(4);
    expect(s.status().Com_rollback).toBe(1);
    expect(s.status().Com_savepoint).toBe(1);
    expect(s.status().Com_release_savepoint).toBe(1);
  });
});
