// CREATE and DROP DATABASE across a crash: a script of database statements runs through SQL on
// devices that crash at the N-th write. After recovery a database is there with every table and
// view it had, or gone with all of them (DROP DATABASE is one mini-transaction), and each
// statement acknowledged before the crash is in effect.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultDevice, FaultPlan, type PageDevice, SimulatedCrashError } from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session, type DatabaseOptions } from '../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-dbs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 24 * 4096,
  innodb_log_file_size: 65536,
};

const SCRIPT = [
  'CREATE DATABASE a',
  'CREATE TABLE a.t (id INT PRIMARY KEY, v VARCHAR(60))',
  ...Array.from({ length: 30 }, (_, i) => `INSERT INTO a.t VALUES (${i}, '${'v'.repeat(i * 2)}')`),
  'CREATE VIEW a.w AS SELECT id FROM a.t',
  'CREATE TABLE a.u (id INT PRIMARY KEY)',
  ...Array.from({ length: 10 }, (_, i) => `INSERT INTO a.u VALUES (${i})`),
  'CREATE DATABASE b',
  'CREATE TABLE b.t (id INT PRIMARY KEY)',
  'INSERT INTO b.t VALUES (1)',
  'DROP DATABASE a',
  'CREATE TABLE b.u (id INT PRIMARY KEY)',
];
const at = (sql: string): number => SCRIPT.indexOf(sql);

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

interface State {
  readonly databases: string[];
  /** `db.table` of every table and view. */
  readonly objects: string[];
}

function state(path: string): State {
  const db = Database.open(path, OPTS);
  try {
    for (const t of db.tables()) t.checkIndexes();
    const s = new Session(db);
    const databases = s
      .query('SHOW DATABASES')
      .rows.map((r) => String(r[0]))
      .filter((d) => d === 'a' || d === 'b');
    const objects = s
      .query(
        "SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA IN ('a', 'b') ORDER BY 1",
      )
      .rows.map((r) => String(r[0]));
    for (const o of objects) s.query(`SELECT COUNT(*) FROM ${o}`);
    return { databases, objects };
  } finally {
    db.close();
  }
}

describe('database statements interrupted by a crash', () => {
  const base = join(dir, 'dry.ekdb');
  Database.create(base, OPTS).close();
  const plan0 = new FaultPlan();
  const dry = runScript(base, plan0);
  it('runs whole without a crash', () => {
    expect(dry.crashed).toBe(false);
    expect(state(base)).toEqual({ databases: ['b'], objects: ['b.t', 'b.u'] });
  });
  const points = Array.from({ length: 16 }, (_, i) => Math.max(1, Math.round((plan0.writes * (i + 1)) / 17)));
  it.each(points)('crash at write %i: each database whole or gone, acknowledged statements kept', (n) => {
    const path = join(dir, `d${n}.ekdb`);
    Database.create(path, OPTS).close();
    const r = runScript(path, new FaultPlan({ crashAtWrite: n, tear: n % 2 === 0 }));
    expect(r.crashed).toBe(true);
    const st = state(path);
    const ofA = st.objects.filter((o) => o.startsWith('a.'));
    if (st.databases.includes('a')) {
      // whole: every object whose CREATE was acknowledged (the one in flight may be there too)
      if (r.done > at('CREATE TABLE a.t (id INT PRIMARY KEY, v VARCHAR(60))')) expect(ofA).toContain('a.t');
      if (r.done > at('CREATE VIEW a.w AS SELECT id FROM a.t')) expect(ofA).toContain('a.w');
      if (r.done > at('CREATE TABLE a.u (id INT PRIMARY KEY)')) expect(ofA).toContain('a.u');
    } else expect(ofA).toEqual([]);
    if (r.done > at('CREATE DATABASE a') && r.done < at('DROP DATABASE a'))
      expect(st.databases).toContain('a');
    if (r.done > at('DROP DATABASE a')) expect(st.databases).not.toContain('a');
    if (r.done > at('CREATE DATABASE b')) expect(st.databases).toContain('b');
    if (r.done > at('CREATE TABLE b.t (id INT PRIMARY KEY)')) expect(st.objects).toContain('b.t');
    // reopening again is clean and agrees
    expect(state(path)).toEqual(st);
  });
});
