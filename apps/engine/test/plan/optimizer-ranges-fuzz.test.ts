// Index reads against SQLite (better-sqlite3) as the oracle: random WHERE clauses of equalities,
// IN lists (with repeated values and NULL), bounds, BETWEEN, OR and AND over the columns of a
// two-part index and the primary key, on a table with NULLs and duplicates. Each clause runs
// with index_condition_pushdown on and off, with DS-MRR, with the index forced and ignored, and
// selecting covered columns only or the whole row; every answer must be SQLite's.
//   FUZZ_RUNS=2000 FUZZ_SEED=7 pnpm exec vitest run --project engine test/plan/optimizer-ranges-fuzz.test.ts
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 150);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261201);

let db: Database;
let s: Session;
let lite: Sqlite.Database;

/** Park–Miller: a failure reproduces from its seed. */
function rng(seed: number): () => number {
  let x = seed % 2147483647 || 1;
  return () => {
    x = (x * 48271) % 2147483647;
    return x / 2147483647;
  };
}

beforeAll(() => {
  const r = rng(SEED);
  db = Database.temporary();
  s = new Session(db);
  lite = new Sqlite(':memory:');
  const ddl = 'CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(8), KEY iab (a, b), KEY ic (c))';
  s.query(ddl);
  lite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c TEXT)');
  lite.exec('CREATE INDEX iab ON t (a, b)');
  const rows: string[] = [];
  for (let id = 1; id <= 700; id++) {
    const a = r() < 0.08 ? 'NULL' : String(Math.floor(r() * 30) - 5);
    const b = r() < 0.1 ? 'NULL' : String(Math.floor(r() * 12));
    const c = r() < 0.1 ? 'NULL' : `'${String.fromCharCode(97 + Math.floor(r() * 6))}${Math.floor(r() * 4)}'`;
    rows.push(`(${id}, ${a}, ${b}, ${c})`);
  }
  s.query(`INSERT INTO t VALUES ${rows.join(',')}`);
  lite.exec(`INSERT INTO t VALUES ${rows.join(',')}`);
  const urows: string[] = [];
  for (let id = 1; id <= 40; id++)
    urows.push(`(${id}, ${r() < 0.1 ? 'NULL' : Math.floor(r() * 30) - 5}, ${Math.floor(r() * 12)})`);
  s.query('CREATE TABLE u (id INT PRIMARY KEY, x INT, y INT)');
  lite.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER)');
  s.query(`INSERT INTO u VALUES ${urows.join(',')}`);
  lite.exec(`INSERT INTO u VALUES ${urows.join(',')}`);
});

afterAll(() => {
  s?.close();
  db?.close();
  lite?.close();
});

/** One random condition on the index's columns and the primary key. */
function condition(r: () => number, depth = 0): string {
  const v = (): string => (r() < 0.04 ? 'NULL' : String(Math.floor(r() * 34) - 7));
  const col = (): string => (r() < 0.6 ? 'a' : r() < 0.7 ? 'b' : 'id');
  const pick = r();
  if (depth < 2 && pick < 0.18) return `(${condition(r, depth + 1)} OR ${condition(r, depth + 1)})`;
  if (depth < 2 && pick < 0.3) return `(${condition(r, depth + 1)} AND ${condition(r, depth + 1)})`;
  const c = col();
  const kind = Math.floor(r() * 5);
  if (kind === 0) return `${c} = ${v()}`;
  if (kind === 1) return `${c} IN (${Array.from({ length: 1 + Math.floor(r() * 5) }, v).join(', ')})`;
  if (kind === 2) {
    const x = Math.floor(r() * 30) - 5;
    return `${c} BETWEEN ${x} AND ${x + Math.floor(r() * 8) - 1}`;
  }
  const op = ['<', '<=', '>', '>='][Math.floor(r() * 4)]!;
  return `${c} ${op} ${v()}`;
}

/** A WHERE of 1–3 top-level conjuncts. */
function where(r: () => number): string {
  const n = 1 + Math.floor(r() * 3);
  return Array.from({ length: n }, () => condition(r)).join(' AND ');
}

const CONFIGS: readonly { readonly name: string; readonly set: string; readonly hint: string }[] = [
  { name: 'defaults', set: 'index_condition_pushdown=on,mrr=off', hint: '' },
  { name: 'ICP off', set: 'index_condition_pushdown=off,mrr=off', hint: '' },
  { name: 'DS-MRR', set: 'index_condition_pushdown=on,mrr=on,mrr_cost_based=off', hint: '' },
  { name: 'forced', set: 'index_condition_pushdown=on,mrr=off', hint: ' FORCE INDEX (iab)' },
  { name: 'ignored', set: 'index_condition_pushdown=on,mrr=off', hint: ' IGNORE INDEX (iab)' },
];

const canon = (rows: readonly (readonly unknown[])[]): string[] =>
  rows.map((x) => x.map((v) => (v === null ? 'NULL' : String(v))).join('|')).sort();

describe('index reads give SQLite’s rows', () => {
  it(`${RUNS} random WHERE clauses × ICP on/off, DS-MRR, FORCE/IGNORE INDEX, covered or whole rows`, () => {
    const r = rng(SEED + 1);
    let ranges = 0;
    try {
      for (let i = 0; i < RUNS; i++) {
        const w = where(r);
        for (const cols of ['id, a, b', 'id, a, b, c']) {
          const want = canon(lite.prepare(`SELECT ${cols} FROM t WHERE ${w}`).raw().all() as unknown[][]);
          for (const c of CONFIGS) {
            s.query(`SET optimizer_switch = '${c.set}'`);
            const sql = `SELECT ${cols} FROM t${c.hint} WHERE ${w}`;
            if (c.name === 'defaults' && s.query(`EXPLAIN ${sql}`).rows[0]![3] === 'range') ranges++;
            expect(canon(s.query(sql).rows), `${sql} under ${c.name}`).toEqual(want);
          }
        }
      }
    } finally {
      s.query('SET optimizer_switch = DEFAULT');
    }
    // the clauses do reach the range reader
    expect(ranges).toBeGreaterThan(RUNS / 4);
  }, 300_000);

  it('joins: conditions on the outer table pushed to a ref, per record under BKA/BKAH', () => {
    const r = rng(SEED + 2);
    const pushed = new Set<string>();
    try {
      for (let i = 0; i < Math.ceil(RUNS / 5); i++) {
        const op = ['<', '<=', '>', '>=', '='][Math.floor(r() * 5)]!;
        const w = `t.a = u.x AND t.b ${op} u.y AND ${condition(r).replace(/\b(a|b|id)\b/g, 't.$1')}`;
        for (const cols of ['t.id, u.id', 't.id, t.c, u.id']) {
          const want = canon(lite.prepare(`SELECT ${cols} FROM u, t WHERE ${w}`).raw().all() as unknown[][]);
          for (const level of [0, 2, 6, 8])
            for (const icp of ['on', 'off']) {
              s.query(`SET join_cache_level = ${level}`);
              s.query(
                `SET optimizer_switch = 'index_condition_pushdown=${icp},mrr=on,mrr_sort_keys=on,mrr_cost_based=off'`,
              );
              const sql = `SELECT ${cols} FROM u, t WHERE ${w}`;
              const extra = String(s.query(`EXPLAIN ${sql}`).rows.at(-1)![10]);
              for (const tag of ['Using index condition(BKA)', 'Using index condition;', 'Using index'])
                if (extra.includes(tag)) pushed.add(tag);
              expect(canon(s.query(sql).rows), `${sql} at level ${level}, ICP ${icp}`).toEqual(want);
            }
        }
      }
    } finally {
      s.query('SET join_cache_level = DEFAULT');
      s.query('SET optimizer_switch = DEFAULT');
    }
    expect([...pushed].sort()).toEqual([
      'Using index',
      'Using index condition(BKA)',
      'Using index condition;',
    ]);
  }, 300_000);
});
