// Parallel writers against a model: four connections on two worker threads run random
// transactions at once. Each owns a range of keys of table `own` (inserts, updates that move a
// row's secondary key, deletes, REPLACE, INSERT … ON DUPLICATE KEY UPDATE) and keeps a model of
// it, applied at COMMIT and dropped at ROLLBACK (or a 1213 / 1205); all of them add to shared
// counters in `hot` (the same few rows, so they wait for each other and deadlock). At the end
// each connection's range is exactly its model, the counters hold the sum of the committed
// increments, every secondary index agrees with its table, and after purge no old version is left.
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
beforeAll(() => buildFresh(join(import.meta.dirname, '..', '..')), 300_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

function rng(seed: number): (n: number) => number {
  let x = seed | 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const CONNS = 4;
const TRANSACTIONS = 120;
const KEYS = 40;
const HOT = 3;

it('four writers on two workers: every range as its model, every counter as its sum', async () => {
  const r = await startServer({}, 2);
  running.push(r);
  const setup = await r.connect({ database: 'test' });
  await setup.query(
    'CREATE TABLE own (id INT PRIMARY KEY, k INT NOT NULL, s VARCHAR(20), KEY k (k), UNIQUE KEY us (s))',
  );
  await setup.query('CREATE TABLE hot (id INT PRIMARY KEY, n INT NOT NULL)');
  await setup.query(
    `INSERT INTO hot VALUES ${Array.from({ length: HOT }, (_, i) => `(${i}, 0)`).join(', ')}`,
  );
  const added = new Array<number>(HOT).fill(0);
  let commits = 0;

  const writer = async (w: number): Promise<Map<number, [number, string]>> => {
    const c = await r.connect({ database: 'test' });
    await c.query('SET SESSION innodb_lock_wait_timeout = 2');
    const pick = rng(100 + w);
    const model = new Map<number, [number, string]>();
    const base = w * 1000;
    for (let t = 0; t < TRANSACTIONS; t++) {
      const draft = new Map(model);
      const adds = new Array<number>(HOT).fill(0);
      try {
        await c.query('BEGIN');
        for (let s = 0; s < 1 + pick(4); s++) {
          const id = base + pick(KEYS);
          const k = pick(100);
          const text = `w${w}-${pick(1000)}`;
          switch (pick(6)) {
            case 0: {
              const [res] = await c.query<mysql.ResultSetHeader>(
                `INSERT IGNORE INTO own VALUES (${id}, ${k}, '${text}')`,
              );
              if (res.affectedRows === 1) draft.set(id, [k, text]);
              else expect(draft.has(id) || [...draft.values()].some((v) => v[1] === text)).toBe(true);
              break;
            }
            case 1: {
              const [res] = await c.query<mysql.ResultSetHeader>(`UPDATE own SET k = ${k} WHERE id = ${id}`);
              expect(res.affectedRows > 0 || !draft.has(id) || draft.get(id)![0] === k).toBe(true);
              if (draft.has(id)) draft.set(id, [k, draft.get(id)![1]]);
              break;
            }
            case 2:
              await c.query(`DELETE FROM own WHERE id = ${id}`);
              draft.delete(id);
              break;
            case 3: {
              // a unique value already in the draft under another id would take that row too
              if ([...draft].some(([i, v]) => v[1] === text && i !== id)) break;
              await c.query(`REPLACE INTO own VALUES (${id}, ${k}, '${text}')`);
              draft.set(id, [k, text]);
              break;
            }
            case 4: {
              if ([...draft].some(([i, v]) => v[1] === text && i !== id)) break;
              await c.query(
                `INSERT INTO own VALUES (${id}, ${k}, '${text}') ON DUPLICATE KEY UPDATE k = k + 1`,
              );
              const was = draft.get(id);
              draft.set(id, was === undefined ? [k, text] : [was[0] + 1, was[1]]);
              break;
            }
            default: {
              const h = pick(HOT);
              await c.query(`UPDATE hot SET n = n + 1 WHERE id = ${h}`);
              adds[h]!++;
            }
          }
        }
        if (pick(5) === 0) await c.query('ROLLBACK');
        else {
          await c.query('COMMIT');
          commits++;
          model.clear();
          for (const [i, v] of draft) model.set(i, v);
          adds.forEach((n, i) => {
            added[i]! += n;
          });
        }
      } catch (e) {
        const errno = (e as { errno?: number }).errno;
        if (errno !== 1213 && errno !== 1205) throw e;
        await c.query('ROLLBACK');
      }
    }
    return model;
  };

  const models = await Promise.all(Array.from({ length: CONNS }, (_, w) => writer(w)));
  expect(commits).toBeGreaterThan(CONNS * TRANSACTIONS * 0.3);
  for (const [w, model] of models.entries()) {
    const [rows] = await setup.query<mysql.RowDataPacket[]>(
      `SELECT id, k, s FROM own WHERE id BETWEEN ${w * 1000} AND ${w * 1000 + 999} ORDER BY id`,
    );
    const want = [...model].sort((a, b) => a[0] - b[0]).map(([id, [k, s]]) => ({ id, k, s }));
    expect(rows).toEqual(want);
    // the same rows through the secondary index
    const [viaK] = await setup.query<mysql.RowDataPacket[]>(
      `SELECT id FROM own FORCE INDEX (k) WHERE k >= 0 AND id BETWEEN ${w * 1000} AND ${w * 1000 + 999} ORDER BY id`,
    );
    expect(viaK.map((x) => x.id)).toEqual(want.map((x) => x.id));
  }
  const [hot] = await setup.query<mysql.RowDataPacket[]>('SELECT n FROM hot ORDER BY id');
  expect(hot.map((x) => x.n)).toEqual(added);
  const db = r.db;
  for (const t of ['own', 'hot']) db.table(t).checkIndexes();
  while (db.historyLength > 0) db.purge(5000);
  for (const t of ['own', 'hot']) db.table(t).checkIndexes(true);
}, 120_000);
