// Prepared_stmt_count is the server's, over every worker thread: MariaDB keeps one
// `prepared_stmt_count` for all connections, which COM_STMT_PREPARE and SQL's PREPARE raise,
// which closing them (COM_STMT_CLOSE, DEALLOCATE PREPARE, the connection's end) lowers, and which
// max_prepared_stmt_count caps with error 1461 whichever connection asks. Counted per thread,
// a server of two workers let twice the cap open and showed each connection its own worker's
// count.
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function openCount(c: mysql.Connection): Promise<number> {
  const [rows] = await c.query<mysql.RowDataPacket[]>("SHOW GLOBAL STATUS LIKE 'Prepared_stmt_count'");
  return Number(rows[0]!.Value);
}

async function errnoOf(p: Promise<unknown>): Promise<number | undefined> {
  return p.then(
    () => undefined,
    (e: { errno?: number }) => e.errno,
  );
}

describe('Prepared_stmt_count over the worker threads', () => {
  it('one count and one cap for the connections of both workers, protocol and SQL PREPARE alike', async () => {
    const r = await startServer({ max_prepared_stmt_count: 3 }, 2);
    running.push(r);
    // the host gives each new connection the worker with the fewest: a and b on different ones
    // (with a count per worker, b would see none of a's statements below)
    const a = await r.connect({ database: 'test' });
    const b = await r.connect({ database: 'test' });
    const s1 = await a.prepare('SELECT ? + 1');
    await a.query("PREPARE p FROM 'SELECT 2'");
    expect(await openCount(b)).toBe(2);
    await b.prepare('SELECT ? + 3');
    expect(await openCount(a)).toBe(3);
    // the cap holds on either worker, for either way of preparing
    expect(await errnoOf(b.prepare('SELECT ? + 4'))).toBe(1461);
    expect(await errnoOf(b.query("PREPARE q FROM 'SELECT 4'"))).toBe(1461);
    expect(await errnoOf(a.query("PREPARE q FROM 'SELECT 4'"))).toBe(1461);
    // preparing a name again replaces its statement: no more open
    await a.query("PREPARE p FROM 'SELECT 5'");
    expect(await openCount(b)).toBe(3);
    // a PREPARE that fails to parse drops the name's old statement, and counts nothing
    expect(await errnoOf(a.query("PREPARE p FROM 'SELEC 6'"))).toBe(1064);
    expect(await openCount(b)).toBe(2);
    await b.query("PREPARE q FROM 'SELECT 7'");
    expect(await openCount(a)).toBe(3);
    await b.query('DEALLOCATE PREPARE q');
    await s1.close();
    // COM_STMT_CLOSE has no reply: the next statement on the connection follows it
    expect(await openCount(a)).toBe(1);
    // a connection that ends gives its statements back
    b.destroy();
    for (let i = 0; i < 50 && (await openCount(a)) !== 0; i++) await new Promise((f) => setTimeout(f, 20));
    expect(await openCount(a)).toBe(0);
  }, 60_000);
});
