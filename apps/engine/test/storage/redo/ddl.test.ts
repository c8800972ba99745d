// DDL across a crash: CREATE TABLE, CREATE INDEX (a bulk build without redo, published by a
// logged mini-transaction), ALTER TABLE (copy, then drop + rename in one mini-transaction), DROP
// TABLE, run through SQL on devices that crash at the N-th write. After recovery every table is
// whole: its rows and every index agree, and each table is either as before or as after the
// statement that was running.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultDevice, FaultPlan, type PageDevice, SimulatedCrashError } from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session, type DatabaseOptions } from '../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-ddl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 24 * 4096,
  innodb_log_file_size: 65536,
};

const SCRIPT = [
  'CREATE TABLE a (id INT PRIMARY KEY, v INT, s VARCHAR(100))',
  ...Array.from({ length: 40 }, (_, i) => `INSERT INTO a VALUES (${i}, ${i % 9}, '${'s'.repeat(i % 90)}')`),
  'CREATE INDEX a_v ON a (v)',
  'ALTER TABLE a ADD COLUMN w INT',
  'CREATE TABLE b (id INT PRIMARY KEY, t VARCHAR(50))',
  ...Array.from({ length: 20 }, (_, i) => `INSERT INTO b VALUES (${i}, 'b${i}')`),
  'DROP TABLE b',
  'ALTER TABLE a ADD INDEX a_s (s)',
];

function runScript(path: string, plan: FaultPlan): { crashed: boolean; done: number } {
  const devs: FaultDevice[] = [];
  const wrapDevice = (d: PageDevice): PageDevice => {
    const f = new FaultDevice(d, plan);
    devs.push(f);
    return f;
  };
  let db: Database | undefined;
  let done = 0;
  try {
    db = Database.open(path, { ...OPTS, wrapDevice });
    const s = new Session(db);
    for (const sql of SCRIPT) {
      s.query(sql);
      done++;
    }
    db.close();
    return { crashed: false, done };
  } catch (e) {
    if (!plan.crashed && !(e instanceof SimulatedCrashError)) throw e;
    for (const d of devs) {
      try {
        d.crash('lost');
      } catch {
        // closed by a failed open
      }
    }
    db?.abandon();
    return { crashed: true, done };
  }
}

function check(path: string): string[] {
  const db = Database.open(path, OPTS);
  try {
    for (const t of db.tables()) {
      t.checkIndexes();
      for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
    }
    const s = new Session(db);
    const names = db.tables().map((t) => t.name);
    // the copy of an ALTER TABLE cut short by the crash is dropped when the database opens
    expect(names.filter((n) => n.startsWith('#alter-'))).toEqual([]);
    for (const n of names) if (!n.startsWith('#')) s.query(`SELECT COUNT(*) FROM \`${n}\``);
    return names.filter((n) => !n.startsWith('#'));
  } finally {
    db.close();
  }
}

describe('DDL interrupted by a crash', () => {
  const base = join(dir, 'dry.ekdb');
  Database.create(base, OPTS).close();
  const plan0 = new FaultPlan();
  const dry = runScript(base, plan0);
  it('runs whole without a crash', () => {
    expect(dry.crashed).toBe(false);
    expect(check(base).sort()).toEqual(['a']);
  });
  const points = Array.from({ length: 20 }, (_, i) => Math.max(1, Math.round((plan0.writes * (i + 1)) / 21)));
  it.each(points)('crash at write %i: every table whole, the statement in flight done or not', (n) => {
    const path = join(dir, `d${n}.ekdb`);
    Database.create(path, OPTS).close();
    const r = runScript(path, new FaultPlan({ crashAtWrite: n, tear: n % 2 === 0 }));
    expect(r.crashed).toBe(true);
    const tables = check(path);
    // a exists once its CREATE was acknowledged; b only between its CREATE and DROP.
    const createA = 0;
    const createB = SCRIPT.indexOf('CREATE TABLE b (id INT PRIMARY KEY, t VARCHAR(50))');
    const dropB = SCRIPT.indexOf('DROP TABLE b');
    if (r.done > createA) expect(tables).toContain('a');
    if (r.done > dropB) expect(tables).not.toContain('b');
    if (r.done > createB && r.done < dropB) expect(tables).toContain('b');
    // Reopening again is clean and agrees.
    expect(check(path)).toEqual(tables);
  });
});
