// A DATE compared with a string compares as a DATETIME, as in MariaDB: a time in the string
// counts. MariaDB 10.11's answers to one statement; then random comparisons of an indexed DATE
// column with date and datetime strings, read through the index and by a scan, against a model.
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const s = new Session(Database.temporary());
afterAll(() => s.db.close());

describe('DATE against a string', () => {
  it("MariaDB's answers", () => {
    // recorded from MariaDB 10.11.19, the same statement: 0 1 1 1 0 0
    const sql =
      "SELECT DATE('2024-01-01') = '2024-01-01 10:00:00', DATE('2024-01-01') < '2024-01-01 00:00:01', " +
      "DATE('2024-01-01') = '2024-01-01', DATE('2024-01-01') > '2023-12-31 23:59:59', " +
      "DATE('2024-01-01') IN ('2024-01-01 10:00:00'), DATE('2024-01-01') BETWEEN '2024-01-01 00:00:01' AND '2024-01-02'";
    expect(s.query(sql).rows[0]).toEqual([0, 1, 1, 1, 0, 0]);
  });

  it('an indexed DATE column with random date and datetime strings: the index read, the scan and a model agree', () => {
    s.query('CREATE TABLE ds (id INT PRIMARY KEY, d DATE NOT NULL, KEY kd (d))');
    const days = Array.from({ length: 400 }, (_, i) => {
      const t = new Date(Date.UTC(2024, 0, 1 + (i % 40)));
      return t.toISOString().slice(0, 10);
    });
    s.query(`INSERT INTO ds VALUES ${days.map((d, i) => `(${i}, '${d}')`).join(', ')}`);
    let seed = 13;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const ops = ['=', '<', '<=', '>', '>='] as const;
    // the model: a DATE is its midnight; the string's instant, to the second
    const ms = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`);
    const holds = (a: number, op: (typeof ops)[number], b: number): boolean =>
      op === '=' ? a === b : op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    for (let i = 0; i < 150; i++) {
      const day = new Date(Date.UTC(2024, 0, rnd(42))).toISOString().slice(0, 10);
      const time =
        rnd(3) === 0 ? '' : ` ${String(rnd(24)).padStart(2, '0')}:${String(rnd(60)).padStart(2, '0')}:00`;
      const lit = `${day}${time}`;
      const op = ops[rnd(ops.length)]!;
      const expected = days.filter((d) => holds(ms(d), op, ms(lit))).length;
      const viaIndex = s.query(`SELECT COUNT(*) FROM ds FORCE INDEX (kd) WHERE d ${op} '${lit}'`).rows[0]![0];
      const viaScan = s.query(`SELECT COUNT(*) FROM ds IGNORE INDEX (kd) WHERE d ${op} '${lit}'`).rows[0]![0];
      expect([viaIndex, viaScan], `d ${op} '${lit}'`).toEqual([expected, expected]);
    }
  });
});
