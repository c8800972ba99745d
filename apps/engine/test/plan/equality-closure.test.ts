// Column equalities implied by the WHERE's (MariaDB's multiple equalities): from p.pk = l.pk and
// q.pk = l.pk the optimizer may read q by p.pk before l is read — TPC-H Q9's partsupp → part. The
// vectors were taken from MariaDB 10.11.19 (a private mariadbd, InnoDB, after ANALYZE TABLE) for
// the same schema and statements: EXPLAIN's table, type, key, ref and Extra, the row and the
// counters the statement moved. The differential half compares random chains of equalities with
// the same conditions under IS TRUE, which implies nothing.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { createJoinTables } from '../helpers/join-tables.js';
import { countedRun, EXTRA, explainLines, KEY, REF, TABLE, TYPE } from '../helpers/explain.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  createJoinTables(s);
  s.query('CREATE TABLE q (pk INT PRIMARY KEY, w INT NOT NULL)');
  s.query('INSERT INTO q SELECT pk, (pk * 11) % 40 FROM p');
  s.query('ANALYZE TABLE q');
});

afterAll(() => {
  s.close();
  db.close();
});

const COUNTERS = [
  'Handler_read_first',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd_next',
] as const;

// MariaDB removes an equality the ref's key and the equalities checked before it already imply
// (its multiple equality is checked once per table); the engine keeps the equality as written and
// pushes it into the index read, so where MariaDB's l row says '' the engine's says 'Using index
// condition'. The rows, the order, the accesses and the counters are MariaDB's.
const VECTORS: Array<{
  sql: string;
  plan: readonly string[];
  row: unknown[];
  counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}> = [
  {
    sql: "SELECT COUNT(*), SUM(l.qty) FROM p, l, q WHERE p.pk = l.pk AND q.pk = l.pk AND p.brand = 'B3' AND q.w < 10",
    plan: [
      'p | ALL | NULL | NULL | Using where',
      'q | eq_ref | PRIMARY | test.p.pk | Using where',
      'l | ref | i_pk | test.p.pk | Using index condition',
    ],
    row: [50, '1400'],
    counters: { Handler_read_key: 25, Handler_read_next: 50, Handler_read_rnd_next: 201 },
  },
  {
    sql: 'SELECT COUNT(*), SUM(l.qty) FROM l, p, q WHERE l.pk = p.pk AND l.pk = q.pk AND q.w = 3',
    plan: [
      'p | index | PRIMARY | NULL | Using index',
      'q | eq_ref | PRIMARY | test.p.pk | Using where',
      'l | ref | i_pk | test.p.pk | Using index condition',
    ],
    row: [50, '1400'],
    counters: { Handler_read_first: 1, Handler_read_key: 205, Handler_read_next: 250 },
  },
  {
    // q.w is not a key: q is scanned and p read by q.w; MariaDB's l row says ref test.q.w, Using
    // index (its equality class names q.w first), the engine's test.p.pk, Using where; Using index
    sql: 'SELECT COUNT(*) FROM p, l, q WHERE p.pk = l.pk AND l.pk = q.w AND p.size < 5',
    plan: [
      'q | ALL | NULL | NULL | ',
      'p | eq_ref | PRIMARY | test.q.w | Using where',
      'l | ref | i_pk | test.p.pk | Using where; Using index',
    ],
    row: [150],
    counters: { Handler_read_key: 215, Handler_read_next: 150, Handler_read_rnd_next: 201 },
  },
];

describe('equalities implied by equalities, against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TABLE, TYPE, KEY, REF, EXTRA])).toEqual(v.plan);
      expect(countedRun(s, v.sql, COUNTERS)).toEqual({ rows: [v.row], counters: v.counters });
    });
});

describe('an implied equality never changes an answer', () => {
  const rounds = 150;
  it(`${rounds} random chains of equalities over three tables with NULLs, inner and outer joins`, () => {
    const g = new Pcg32({ seed: 0x0009 });
    const below = (n: number) => g.nextBelow(n);
    const d = new Session(db);
    try {
      d.query('CREATE TABLE fa (id INT PRIMARY KEY, x INT, y INT, KEY ix (x))');
      d.query('CREATE TABLE fb (id INT PRIMARY KEY, x INT, y INT, KEY ix (x))');
      d.query('CREATE TABLE fc (id INT PRIMARY KEY, x INT, y DATE, KEY iy (y))');
      const v = () => (below(6) === 0 ? 'NULL' : String(below(12)));
      const day = () => (below(6) === 0 ? 'NULL' : `'2024-01-${String(1 + below(12)).padStart(2, '0')}'`);
      for (const [t, n] of [
        ['fa', 25],
        ['fb', 40],
      ] as const)
        d.query(
          `INSERT INTO ${t} VALUES ${Array.from({ length: n }, (_, i) => `(${i}, ${v()}, ${v()})`).join(', ')}`,
        );
      d.query(
        `INSERT INTO fc VALUES ${Array.from({ length: 25 }, (_, i) => `(${i}, ${v()}, ${day()})`).join(', ')}`,
      );
      d.query('ANALYZE TABLE fa, fb, fc');
      // integer columns, and a DATE column compared with integers (another kind: never joined)
      const cols = ['fa.id', 'fa.x', 'fa.y', 'fb.id', 'fb.x', 'fb.y', 'fc.id', 'fc.x', 'fc.y'];
      let changed = 0;
      for (let round = 0; round < rounds; round++) {
        const eqs: string[] = [];
        for (let i = 2 + below(3); i > 0; i--) {
          const a = cols[below(cols.length)]!;
          let b = cols[below(cols.length)]!;
          while (b.split('.')[0] === a.split('.')[0]) b = cols[below(cols.length)]!;
          eqs.push(`${a} = ${b}`);
        }
        const from = below(3) === 0 ? 'fa JOIN fb ON fa.x = fb.x LEFT JOIN fc ON fc.x = fb.y' : 'fa, fb, fc';
        const sql = (w: string) => `SELECT COUNT(*), SUM(fa.y), SUM(fc.x) FROM ${from} WHERE ${w}`;
        const cond = eqs.join(' AND ');
        const hidden = eqs.map((e) => `(${e}) IS TRUE`).join(' AND ');
        expect(d.query(sql(cond)).rows, sql(cond)).toEqual(d.query(sql(hidden)).rows);
        const explain = (w: string) => JSON.stringify(d.query(`EXPLAIN ${sql(w)}`).rows);
        if (explain(cond) !== explain(hidden)) changed++;
      }
      // the random chains do reach the case
      expect(changed).toBeGreaterThan(rounds / 4);
    } finally {
      d.close();
    }
  });
});
