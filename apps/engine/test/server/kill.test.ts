// KILL across worker threads, through the real mysql2 client, on `serve --threads 2`: a
// 10^10-row cartesian join is stopped by KILL QUERY (1317) from a connection on the other worker
// and from one on its own worker, while point selects on the other worker keep answering; KILL
// CONNECTION closes the connection (1927); max_statement_time ends a long join and a long LIKE
// (1969); a LIKE over 1 MB that would run for hours is killable; SHOW PROCESSLIST on one worker
// lists the connections of the other. The workers run the built package (dist/session-worker.js).
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerSessionHost } from '../../src/server/worker-session-host.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const engineDir = join(import.meta.dirname, '..', '..');
/** Rows of t: t ⨯ t ⨯ t is 2155^3 ≈ 10^10 rows. */
const N = 2155;
const CARTESIAN = 'SELECT COUNT(*) FROM t a, t b, t c WHERE a.v + b.v + c.v = -1';
/** One row whose s is 1 MiB of 'a'. */
const BIG = "(SELECT REPEAT('a', 1048576) AS s) AS big";

let srv: Running;
let host: WorkerSessionHost;

beforeAll(async () => {
  await buildFresh(engineDir);
  srv = await startServer({}, 2);
  host = srv.server.host as WorkerSessionHost;
  const c = await srv.connect();
  await c.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)');
  const values = Array.from({ length: N }, (_, i) => `(${i + 1}, ${i % 97})`).join(',');
  await c.query(`INSERT INTO t VALUES ${values}`);
  c.destroy();
}, 300_000);

afterAll(async () => {
  await srv?.stop();
});

/** A connection on worker `w`. */
async function on(w: number): Promise<{ c: mysql.Connection; id: number }> {
  for (let tries = 0; tries < 8; tries++) {
    const c = await srv.connect();
    const id = c.threadId!;
    if (host.processList.workerOf(id) === w) return { c, id };
    // keep it open: the next connection goes to the other worker
  }
  throw new Error(`no connection landed on worker ${w}`);
}

/** The error a query ends with (or undefined), and when it ended (performance.now()). */
function outcome(p: Promise<unknown>): Promise<{ errno: number | undefined; at: number }> {
  return p.then(
    () => ({ errno: undefined, at: performance.now() }),
    (e: { errno?: number }) => ({ errno: e.errno, at: performance.now() }),
  );
}

/** Waits until the process list shows connection `id` running a statement. */
async function running(id: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (host.processList.get(id)?.command === 'Query') return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`connection ${id} never showed as running`);
}

describe('KILL across worker threads', () => {
  it('KILL QUERY from the other worker stops a 10^10-row join with 1317 within a second; point selects on that worker keep answering', async () => {
    const victim = await on(0);
    const killer = await on(1);
    const reader = await on(1);
    const done = outcome(victim.c.query(CARTESIAN));
    await running(victim.id);
    // point selects on the other worker while the join runs
    const lat: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      const [rows] = await reader.c.execute('SELECT v FROM t WHERE id = ?', [(i % N) + 1]);
      lat.push(performance.now() - t0);
      expect((rows as Array<{ v: number }>)[0]!.v).toBe(i % 97);
    }
    lat.sort((a, b) => a - b);
    const median = lat[lat.length >> 1]!;
    console.log(
      `point select on the other worker during the join: median ${median.toFixed(3)} ms, p99 ${lat[198]!.toFixed(3)} ms`,
    );
    const sent = performance.now();
    await killer.c.query(`KILL QUERY ${victim.id}`);
    const r = await done;
    console.log(`KILL QUERY from the other worker: 1317 after ${(r.at - sent).toFixed(1)} ms`);
    expect(r.errno).toBe(1317);
    expect(r.at - sent).toBeLessThan(1000);
    // the connection stays, and its next statement runs
    const [rows] = await victim.c.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    expect(median).toBeLessThan(50);
  });

  it('KILL QUERY from a connection on the same worker, which the running join keeps busy', async () => {
    const victim = await on(0);
    const killer = await on(0);
    const done = outcome(victim.c.query(CARTESIAN));
    await running(victim.id);
    const sent = performance.now();
    await killer.c.query(`KILL QUERY ${victim.id}`);
    const r = await done;
    console.log(`KILL QUERY from the same worker: 1317 after ${(r.at - sent).toFixed(1)} ms`);
    expect(r.errno).toBe(1317);
    expect(r.at - sent).toBeLessThan(1000);
  });

  it('a killed statement rolls back only itself: the transaction and its earlier rows stay', async () => {
    const victim = await on(0);
    const killer = await on(1);
    await victim.c.query('CREATE TABLE k (id INT PRIMARY KEY)');
    await victim.c.query('BEGIN');
    await victim.c.query('INSERT INTO k VALUES (1)');
    const done = outcome(
      victim.c.query('INSERT INTO k SELECT 100 + a.id FROM t a, t b, t c WHERE a.v + b.v + c.v = -1'),
    );
    await running(victim.id);
    await killer.c.query(`KILL QUERY ${victim.id}`);
    expect((await done).errno).toBe(1317);
    await victim.c.query('INSERT INTO k VALUES (2)');
    await victim.c.query('COMMIT');
    const [rows] = await killer.c.query('SELECT id FROM k ORDER BY id');
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('KILL CONNECTION ends the running statement and closes the connection (1927)', async () => {
    const victim = await on(0);
    const killer = await on(1);
    const done = outcome(victim.c.query(CARTESIAN));
    await running(victim.id);
    await killer.c.query(`KILL CONNECTION ${victim.id}`);
    const r = await done;
    expect(r.errno).toBe(1927);
    await expect(victim.c.query('SELECT 1')).rejects.toThrow();
    // it leaves the process list
    for (let i = 0; i < 100 && host.processList.workerOf(victim.id) !== undefined; i++)
      await new Promise((res) => setTimeout(res, 10));
    expect(host.processList.workerOf(victim.id)).toBeUndefined();
  });

  it('KILL CONNECTION of an idle connection: its next read is 1927, then the connection is closed', async () => {
    const victim = await on(0);
    const killer = await on(1);
    // the 1927 is either the answer to the next command (if it was sent before the packet was
    // read) or, read while no command waits, a fatal error of the connection (mysql2's way)
    const errors: Array<{ errno?: number; code?: unknown; message: string }> = [];
    victim.c.on('error', (e: { errno?: number; code?: unknown; message: string }) => errors.push(e));
    await killer.c.query(`KILL ${victim.id}`);
    const next = await victim.c.query('SELECT 1').then(
      () => undefined,
      (e: { errno?: number; code?: unknown; message: string }) => e,
    );
    expect(next).toBeDefined();
    const seen = [next!, ...errors];
    expect(
      seen.some((e) => (e.errno === 1927 || e.code === 1927) && e.message === 'Connection was killed'),
    ).toBe(true);
    // and the connection is closed: a further command fails too
    await expect(victim.c.query('SELECT 1')).rejects.toThrow();
  });

  it('KILL of a connection that does not exist is 1094', async () => {
    const { c } = await on(1);
    await expect(c.query('KILL QUERY 999999')).rejects.toMatchObject({ errno: 1094 });
  });

  it('SHOW PROCESSLIST and information_schema.PROCESSLIST on one worker list the connections of the other', async () => {
    const a = await on(0);
    const b = await on(1);
    const done = outcome(a.c.query(CARTESIAN));
    await running(a.id);
    const [rows] = await b.c.query('SHOW FULL PROCESSLIST');
    const mine = (rows as Array<{ Id: number; User: string; Command: string; Info: string | null }>).find(
      (r) => r.Id === a.id,
    );
    expect(mine).toMatchObject({ User: 'root', Command: 'Query', Info: CARTESIAN });
    const [is] = await b.c.query(
      `SELECT ID, COMMAND FROM information_schema.PROCESSLIST WHERE ID IN (${a.id}, ${b.id}) ORDER BY ID`,
    );
    expect(is).toEqual([
      { ID: a.id, COMMAND: 'Query' },
      { ID: b.id, COMMAND: 'Query' },
    ]);
    await b.c.query(`KILL QUERY ${a.id}`);
    expect((await done).errno).toBe(1317);
  });

  it('a LIKE over 1 MB that a backtracking matcher would run for hours is killable', async () => {
    const victim = await on(0);
    const killer = await on(1);
    const like = `SELECT COUNT(*) AS n FROM ${BIG} WHERE s LIKE CONCAT('%', REPEAT('a_', 20000), 'b%')`;
    const done = outcome(victim.c.query(like));
    await running(victim.id);
    await new Promise((r) => setTimeout(r, 200));
    const sent = performance.now();
    await killer.c.query(`KILL QUERY ${victim.id}`);
    const r = await done;
    console.log(`KILL QUERY of a LIKE over 1 MB: 1317 after ${(r.at - sent).toFixed(1)} ms`);
    expect(r.errno).toBe(1317);
    expect(r.at - sent).toBeLessThan(1000);
    // an easy pattern over the same string answers, and answers right
    const [rows] = await victim.c.query(
      `SELECT s LIKE '%a_a' AS a, s LIKE '%b%' AS b, s LIKE CONCAT(REPEAT('a', 1048575), '_') AS c FROM ${BIG}`,
    );
    expect(rows).toEqual([{ a: 1, b: 0, c: 1 }]);
  });
});

describe('max_statement_time', () => {
  it('ends a long join and a long LIKE with 1969; 0 is no limit', async () => {
    const { c } = await on(0);
    await c.query('SET max_statement_time = 0.2');
    const [v] = await c.query('SELECT @@max_statement_time AS t');
    expect(Number((v as Array<{ t: unknown }>)[0]!.t)).toBeCloseTo(0.2);
    let t0 = performance.now();
    await expect(c.query(CARTESIAN)).rejects.toMatchObject({
      errno: 1969,
      sqlState: '70100',
      sqlMessage: 'Query execution was interrupted (max_statement_time exceeded)',
    });
    const joinMs = performance.now() - t0;
    expect(joinMs).toBeGreaterThanOrEqual(190);
    expect(joinMs).toBeLessThan(1500);
    t0 = performance.now();
    await expect(
      c.query(`SELECT COUNT(*) FROM ${BIG} WHERE s LIKE CONCAT('%', REPEAT('a_', 20000), 'b%')`),
    ).rejects.toMatchObject({ errno: 1969 });
    expect(performance.now() - t0).toBeLessThan(1500);
    // a short statement is untouched, and 0 lifts the limit
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM t');
    expect(rows).toEqual([{ n: N }]);
    await c.query('SET max_statement_time = 0');
    const [r2] = await c.query('SELECT COUNT(*) AS n FROM t a, t b WHERE a.v = b.v AND a.id < 50');
    expect((r2 as Array<{ n: number }>)[0]!.n).toBeGreaterThan(0);
  });

  it('GLOBAL sets the default of new sessions (of the worker that ran SET GLOBAL)', async () => {
    const { c } = await on(1);
    await c.query('SET GLOBAL max_statement_time = 0.15');
    try {
      const other = await on(1);
      await expect(other.c.query(CARTESIAN)).rejects.toMatchObject({ errno: 1969 });
    } finally {
      await c.query('SET GLOBAL max_statement_time = 0');
    }
  });
});
