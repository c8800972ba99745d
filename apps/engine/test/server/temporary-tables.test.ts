// TEMPORARY tables over the wire, with the sessions on the main thread and on two worker threads:
// each connection has its own, a table of the same name stays visible to the others, and a
// connection's tables go when it ends or resets (COM_RESET_CONNECTION), which on worker threads is
// a dictionary change every thread must see.
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEMPORARY_TABLE_PREFIX } from '../../src/storage/database.js';
import { failure, type Running, rows, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const hiddenTables = (r: Running): number =>
  r.db.tables().filter((t) => t.name.startsWith(TEMPORARY_TABLE_PREFIX)).length;

/** Waits (up to 5 s) until the server holds `n` temporary tables: a connection's end is asynchronous. */
async function settle(r: Running, n: number): Promise<number> {
  for (let i = 0; i < 100 && hiddenTables(r) !== n; i++) await new Promise((f) => setTimeout(f, 50));
  return hiddenTables(r);
}

describe.each([0, 2])('temporary tables over the wire, %i worker threads', (threads) => {
  it('one per connection, the table they hide seen by the others, gone at reset and at the end', async () => {
    const r = await startServer({}, threads);
    running.push(r);
    const a = await r.connect({ database: 'test' });
    const b = await r.connect({ database: 'test' });
    await a.query('CREATE TABLE t (id INT PRIMARY KEY)');
    await a.query('INSERT INTO t VALUES (1), (2), (3)');
    await a.query('CREATE TEMPORARY TABLE t (v VARCHAR(5))');
    await a.query("INSERT INTO t VALUES ('a')");
    await b.query('CREATE TEMPORARY TABLE t (n INT)');
    await b.query('INSERT INTO t VALUES (7), (8)');
    expect(await rows(a, 'SELECT * FROM t')).toEqual([['a']]);
    expect(await rows(b, 'SELECT SUM(n) FROM t')).toEqual([['15']]);
    const c = await r.connect({ database: 'test' });
    expect(await rows(c, 'SELECT COUNT(*) FROM t')).toEqual([[3]]);
    // prepared on the wire before the temporary table: it reads the table the name means now
    const p = await c.prepare('SELECT COUNT(*) FROM t');
    expect((await p.execute([]))[0]).toEqual([{ 'COUNT(*)': 3 }]);
    await c.query('CREATE TEMPORARY TABLE t (z INT)');
    expect((await p.execute([]))[0]).toEqual([{ 'COUNT(*)': 0 }]);
    p.close();
    expect(await settle(r, 3)).toBe(3);
    // a view may not read one
    expect((await failure(b.query('CREATE VIEW v AS SELECT * FROM t'))).errno).toBe(1352);
    await b.reset();
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[3]]);
    expect(await settle(r, 2)).toBe(2);
    await a.end();
    c.destroy();
    expect(await settle(r, 0)).toBe(0);
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[3]]);
    await b.query('CREATE TEMPORARY TABLE t (w INT)');
    expect(await rows(b, 'SELECT COUNT(*) FROM t')).toEqual([[0]]);
  });
});
