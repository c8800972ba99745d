// Conditions on one table implied by an OR over several (MariaDB's make_cond_for_table on an
// OR): each table is filtered as soon as it is read by the OR of what each disjunct says about it
// alone — TPC-H Q19's shape. The vectors were taken from MariaDB 10.11.19 (a private mariadbd,
// InnoDB, after ANALYZE TABLE) for the same schema and statements: EXPLAIN's table, type, key and
// Extra, the row, and the handler counters the statement moved (Handler_read_key counts the
// outer rows that reached the inner table's index, so it shows whether the outer table was
// filtered early). The differential half compares random ORs with the same condition under
// IS TRUE, which implies nothing (the whole condition checked once both tables are read).
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { createJoinTables } from '../helpers/join-tables.js';
import { countedRun, EXTRA, explainLines, KEY, plainRows, TABLE, TYPE } from '../helpers/explain.js';

let db: Database;
let s: Session;

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  createJoinTables(s);
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

const VECTORS: Array<{
  sql: string;
  plan: readonly string[];
  row: unknown[];
  counters: Partial<Record<(typeof COUNTERS)[number], number>>;
}> = [
  {
    // Q19's shape: p filtered by (brand B1 and size < 20) or brand B2 before probing l
    sql: "SELECT SUM(l.qty), COUNT(*) FROM p, l WHERE (p.pk = l.pk AND p.brand = 'B1' AND p.size < 20 AND l.qty < 5) OR (p.pk = l.pk AND p.brand = 'B2' AND l.qty > 45 AND l.mode = 'AIR')",
    // MariaDB: l … 'Using index condition; Using where' (it pushes the OR's part on the index's
    // columns and p into the index read; the engine checks it on the row)
    plan: ['p | ALL | NULL | Using where', 'l | ref | i_pk | Using where'],
    row: ['637', 53],
    counters: { Handler_read_key: 28, Handler_read_next: 280, Handler_read_rnd_next: 201 },
  },
  {
    // the second disjunct says nothing about p alone: every p row probes l
    sql: "SELECT SUM(l.qty), COUNT(*) FROM p, l WHERE (p.pk = l.pk AND p.brand = 'B1' AND l.qty > 20) OR (p.pk = l.pk AND l.qty > 45)",
    plan: ['p | ALL | NULL | ', 'l | ref | i_pk | Using where'],
    row: ['10400', 240],
    counters: { Handler_read_key: 200, Handler_read_next: 2000, Handler_read_rnd_next: 201 },
  },
  {
    // an outer join: p (the outer table) is filtered early; what the OR implies about l is
    // checked on the joined row, null-complemented ones included
    sql: "SELECT COUNT(*), SUM(l.qty IS NULL) FROM p LEFT JOIN l ON p.pk = l.pk AND l.qty < 10 WHERE (p.brand = 'B1' AND l.qty < 5) OR (p.brand = 'B2' AND l.qty IS NULL)",
    plan: ['p | ALL | NULL | Using where', 'l | ref | i_pk | Using where'],
    row: [56, '16'],
    counters: { Handler_read_key: 40, Handler_read_next: 400, Handler_read_rnd_next: 201 },
  },
  {
    // three disjuncts, an IN list among them
    sql: "SELECT COUNT(*) FROM p JOIN l ON p.pk = l.pk WHERE (p.brand = 'B1' AND p.size > 10) OR (p.brand IN ('B2', 'B3') AND l.mode = 'AIR') OR (p.size = 7 AND l.qty = 3)",
    // MariaDB: l … 'Using index condition; Using where', as above
    plan: ['p | ALL | NULL | Using where', 'l | ref | i_pk | Using where'],
    row: [294],
    counters: { Handler_read_key: 60, Handler_read_next: 600, Handler_read_rnd_next: 201 },
  },
];

describe('conditions implied by an OR, against MariaDB 10.11', () => {
  for (const v of VECTORS)
    it(v.sql, () => {
      expect(explainLines(s, v.sql, [TABLE, TYPE, KEY, EXTRA])).toEqual(v.plan);
      expect(countedRun(s, v.sql, COUNTERS)).toEqual({ rows: [v.row], counters: v.counters });
    });

  it('an assignment in a disjunct runs where the OR is checked', () => {
    // MariaDB 10.11 gives 220: it copies the assignment into p's implied condition (20 rows of
    // B1) and checks the whole WHERE again on each joined row (200). The engine pulls the join
    // condition common to both disjuncts out first, which leaves an OR on p alone, checked once per
    // p row: 20.
    s.query('SET @n = 0');
    expect(
      s.query(
        "SELECT COUNT(*) FROM p, l WHERE (p.pk = l.pk AND p.brand = 'B1' AND (@n := @n + 1) > 0) OR (p.pk = l.pk AND p.brand = 'B2')",
      ).rows,
    ).toEqual([[400]]);
    expect(plainRows(s.query('SELECT @n').rows)).toEqual([[20]]);
  });
});

describe('an implied condition never changes an answer', () => {
  const rounds = 250;
  it(`${rounds} random ORs over two tables with NULLs, inner and outer joins`, () => {
    const g = new Pcg32({ seed: 0x0019 });
    const below = (n: number) => g.nextBelow(n);
    const d = new Session(db);
    try {
      d.query('CREATE TABLE a (id INT PRIMARY KEY, x INT, y INT)');
      d.query('CREATE TABLE b (id INT PRIMARY KEY, ax INT, z INT, KEY iax (ax))');
      const v = () => (below(6) === 0 ? 'NULL' : String(below(8)));
      const rows = (n: number, width: number) =>
        Array.from({ length: n }, (_, i) => `(${i + 1}, ${Array.from({ length: width }, v).join(', ')})`);
      d.query(`INSERT INTO a VALUES ${rows(30, 2).join(', ')}`);
      d.query(`INSERT INTO b VALUES ${rows(80, 2).join(', ')}`);
      d.query('ANALYZE TABLE a, b');
      const atoms = [
        () => `a.x ${['=', '<', '>=', '<>'][below(4)]} ${below(8)}`,
        () => `a.y ${['=', '<', '>'][below(3)]} ${below(8)}`,
        () => `b.z ${['=', '<', '>'][below(3)]} ${below(8)}`,
        () => `a.x IS ${below(2) ? '' : 'NOT '}NULL`,
        () => `b.z IS ${below(2) ? '' : 'NOT '}NULL`,
        () => 'a.id = b.ax',
        () => 'a.x = b.z',
        () => `a.y + b.z > ${below(12)}`,
        () => (below(2) ? 'TRUE' : 'FALSE'),
      ];
      const and = () =>
        Array.from({ length: 1 + below(3) }, () => atoms[below(atoms.length)]!()).join(' AND ');
      let implied = 0;
      for (let round = 0; round < rounds; round++) {
        const cond = Array.from({ length: 2 + below(2) }, () => `(${and()})`).join(' OR ');
        const from = below(3) === 0 ? 'a LEFT JOIN b ON a.id = b.ax' : 'a, b';
        const sql = (w: string) => `SELECT a.id, b.id FROM ${from} WHERE ${w} ORDER BY a.id, b.id`;
        const got = d.query(sql(cond)).rows;
        const want = d.query(sql(`(${cond}) IS TRUE`)).rows;
        const explain = (w: string) => JSON.stringify(d.query(`EXPLAIN ${sql(w)}`).rows);
        if (explain(cond) !== explain(`(${cond}) IS TRUE`)) implied++;
        expect(got, cond).toEqual(want);
      }
      // the random conditions do reach the case
      expect(implied).toBeGreaterThan(rounds / 10);
    } finally {
      d.close();
    }
  });
});
