// The statistics every worker plans with follow the writes of every worker: InnoDB keeps one
// `dict_table_t` per table, whose `stat_modified_counter` all connections' changes move and whose
// recalculated numbers all of them see. With the counter per thread, a worker that only read a
// table kept the statistics it took while the table was empty, and planned a join over thousands
// of rows as if the table held one (a full scan first, then a range read for each of its rows).
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

async function explain(c: mysql.Connection, sql: string): Promise<Array<[string, string, number]>> {
  const [rows] = await c.query<mysql.RowDataPacket[]>(`EXPLAIN ${sql}`);
  return rows.map((r) => [r.table as string, r.type as string, Number(r.rows)]);
}

describe('statistics shared by the worker threads', () => {
  for (const persistent of [1, 0])
    it(`a reader on another worker plans with the rows a writer added (STATS_PERSISTENT=${persistent})`, async () => {
      const r = await startServer({}, 2);
      running.push(r);
      const reader = await r.connect({ database: 'test' });
      const writer = await r.connect({ database: 'test' });
      const [[ra], [wa]] = await Promise.all([
        reader.query<mysql.RowDataPacket[]>('SELECT CONNECTION_ID() AS id'),
        writer.query<mysql.RowDataPacket[]>('SELECT CONNECTION_ID() AS id'),
      ]);
      expect(ra[0]!.id).not.toBe(wa[0]!.id);
      await reader.query(
        `CREATE TABLE t (id INT PRIMARY KEY, k INT NOT NULL, KEY k (k)) STATS_PERSISTENT=${persistent}`,
      );
      const join =
        'SELECT COUNT(*) FROM t a FORCE INDEX (k) JOIN t b FORCE INDEX (k) ON b.k = a.k + 1 WHERE a.k BETWEEN 100 AND 900';
      // the reader's worker takes the empty table's statistics
      expect((await explain(reader, 'SELECT * FROM t'))[0]![2]).toBeLessThanOrEqual(1);
      for (let i = 0; i < 3000; i += 500) {
        const values = Array.from({ length: 500 }, (_, j) => `(${i + j + 1}, ${((i + j) * 7919) % 1000})`);
        await writer.query(`INSERT INTO t VALUES ${values.join(',')}`);
      }
      const scan = await explain(reader, 'SELECT * FROM t');
      expect(scan[0]![2]).toBeGreaterThan(1500);
      // a range of `a`, then `b` by ref (not `b` scanned first and `a`'s range read per row of it)
      expect((await explain(reader, join)).map(([t, type]) => [t, type])).toEqual([
        ['a', 'range'],
        ['b', 'ref'],
      ]);
      const [[count]] = await reader.query<mysql.RowDataPacket[]>(
        `${join.replace('COUNT(*)', 'COUNT(*) AS n')}`,
      );
      // 7,209 pairs: each k from 0 to 999 three times, a.k from 100 to 900 (counted in Python)
      expect(Number(count!.n)).toBe(7209);
    }, 60_000);
});
