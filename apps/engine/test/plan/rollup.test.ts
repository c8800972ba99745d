// GROUP BY … WITH ROLLUP against a model: random groupings, filters and limits over a table with
// NULLs and strings equal under utf8mb4_general_ci, read three ways (sorted in memory, sorted
// through merge passes on disk, and in index order with no sort), each answer compared row by row
// with the model's groups and super-aggregate rows in MariaDB's order. MariaDB's own answers for
// the shapes (ORDER BY refused, HAVING and LIMIT over rollup rows, expressions of grouped columns
// NULL in rollup rows) are recorded in test/data/statements.cases.mjs.
import { Pcg32 } from '@enginekit/prng';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { EXTRA, explainLines, KEY, TYPE } from '../helpers/explain.js';

interface Row {
  readonly id: number;
  readonly k: number | null;
  readonly s: string | null;
  readonly d: number | null;
}

const STRINGS = ['a', 'A', 'a ', 'b', 'B', 'c', null];

let db: Database;
let s: Session;
const rows: Row[] = [];

beforeAll(() => {
  db = Database.temporary();
  s = new Session(db);
  s.query('CREATE TABLE r (id INT PRIMARY KEY, k INT, s VARCHAR(10), d DECIMAL(8,2), KEY iks (k, s))');
  const g = new Pcg32({ seed: 0x5011 });
  const values: string[] = [];
  for (let id = 1; id <= 3000; id++) {
    const k = g.nextBelow(9) === 0 ? null : g.nextBelow(12);
    const str = STRINGS[g.nextBelow(STRINGS.length)]!;
    const d = g.nextBelow(7) === 0 ? null : (g.nextBelow(20000) - 5000) / 100;
    rows.push({ id, k, s: str, d });
    values.push(`(${id}, ${k ?? 'NULL'}, ${str === null ? 'NULL' : `'${str}'`}, ${d ?? 'NULL'})`);
  }
  for (let i = 0; i < values.length; i += 500)
    s.query(`INSERT INTO r VALUES ${values.slice(i, i + 500).join(',')}`);
  s.query('ANALYZE TABLE r');
});

afterAll(() => {
  s.close();
  db.close();
});

/** A grouping column's key as utf8mb4_general_ci compares it (ASCII data: case and trailing spaces). */
function keyOf(row: Row, col: 'k' | 's' | 'm'): number | string | null {
  if (col === 'k') return row.k;
  if (col === 'm') return row.id % 3;
  return row.s === null ? null : row.s.toUpperCase().trimEnd();
}

function cmpKey(a: number | string | null, b: number | string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** The model's rows: per group and per grouping prefix, [keys…, COUNT(*), SUM(d), MIN(id), MAX(id), COUNT(DISTINCT k, s)]. */
function model(cols: readonly ('k' | 's' | 'm')[], keep: (r: Row) => boolean): unknown[][] {
  const sorted = rows.filter(keep).sort((x, y) => {
    for (const c of cols) {
      const o = cmpKey(keyOf(x, c), keyOf(y, c));
      if (o !== 0) return o;
    }
    return 0;
  });
  const out: unknown[][] = [];
  const n = cols.length;
  // open[k]: the rows of the current group of the first k columns
  let open: Row[][] = [];
  const emit = (k: number): void => {
    const members = open[k]!;
    const keys = cols.map((c, i) => (i < k ? keyOf(members[0]!, c) : null));
    const ds = members.filter((m) => m.d !== null).map((m) => Math.round(m.d! * 100));
    const sum = ds.length === 0 ? null : (ds.reduce((a, b) => a + b, 0) / 100).toFixed(2);
    const pairs = new Set(
      members.filter((m) => m.k !== null && m.s !== null).map((m) => `${m.k}|${keyOf(m, 's')}`),
    );
    out.push([
      ...keys,
      members.length,
      sum,
      Math.min(...members.map((m) => m.id)),
      Math.max(...members.map((m) => m.id)),
      pairs.size,
    ]);
  };
  let prev: Row | undefined;
  for (const row of sorted) {
    let diff = n;
    if (prev !== undefined)
      for (let i = 0; i < n; i++)
        if (cmpKey(keyOf(prev, cols[i]!), keyOf(row, cols[i]!)) !== 0) {
          diff = i;
          break;
        }
    if (prev === undefined) open = Array.from({ length: n + 1 }, () => []);
    else if (diff < n) {
      for (let k = n; k > diff; k--) {
        emit(k);
        open[k] = [];
      }
    }
    for (let k = 0; k <= n; k++) open[k]!.push(row);
    prev = row;
  }
  if (prev !== undefined) for (let k = n; k >= 0; k--) emit(k);
  return out;
}

const SQL_OF = { k: 'k', s: 's', m: 'id % 3' } as const;

/** The engine's rows with each `s` key folded as the model keeps it. */
function run(q: string, cols: readonly ('k' | 's' | 'm')[]): unknown[][] {
  return s
    .query(q)
    .rows.map((r) =>
      r.map((v, i) => (cols[i] === 's' && typeof v === 'string' ? v.toUpperCase().trimEnd() : v)),
    );
}

const GROUPINGS: readonly (readonly ('k' | 's' | 'm')[])[] = [
  ['k'],
  ['s'],
  ['k', 's'],
  ['s', 'k'],
  ['m', 'k'],
  ['k', 's', 'm'],
];

function query(cols: readonly ('k' | 's' | 'm')[], where: string, limit: string): string {
  const keys = cols.map((c) => SQL_OF[c]);
  return (
    `SELECT ${keys.join(', ')}, COUNT(*), SUM(d), MIN(id), MAX(id), COUNT(DISTINCT k, s) FROM r` +
    `${where} GROUP BY ${keys.join(', ')} WITH ROLLUP${limit}`
  );
}

describe('GROUP BY … WITH ROLLUP', () => {
  it('gives the model rows for random groupings, filters and limits', () => {
    const g = new Pcg32({ seed: 0xf01d });
    for (let round = 0; round < 60; round++) {
      const cols = GROUPINGS[g.nextBelow(GROUPINGS.length)]!;
      const m = 2 + g.nextBelow(9);
      const x = g.nextBelow(m);
      const filtered = g.nextBelow(3) !== 0;
      const where = filtered ? ` WHERE id % ${m} = ${x}` : '';
      const keep = (r: Row) => !filtered || r.id % m === x;
      const want = model(cols, keep);
      const limited = g.nextBelow(3) === 0;
      const offset = g.nextBelow(5);
      const count = 1 + g.nextBelow(20);
      const q = query(cols, where, limited ? ` LIMIT ${offset}, ${count}` : '');
      const got = run(q, cols);
      expect(got, q).toEqual(limited ? want.slice(offset, offset + count) : want);
    }
  });

  it('gives the same rows when the sort spills to disk in merge passes', () => {
    const d = new Session(db);
    try {
      d.query('SET sort_buffer_size = 32768');
      d.query('FLUSH STATUS');
      const cols = ['k', 's', 'm'] as const;
      const q = query(cols, '', '');
      const got = d
        .query(q)
        .rows.map((r) => r.map((v, i) => (i === 1 && typeof v === 'string' ? v.toUpperCase().trimEnd() : v)));
      expect(got).toEqual(model(cols, () => true));
      expect(d.status().Sort_merge_passes).toBeGreaterThan(0);
    } finally {
      d.close();
    }
  });

  it('reads in index order without a sort when an index gives the group order', () => {
    // the columns of the secondary index (and the primary key it holds): a covering read
    const cols = ['k'] as const;
    const q = 'SELECT k, COUNT(*), MIN(id), MAX(id) FROM r GROUP BY k WITH ROLLUP';
    expect(explainLines(s, q, [TYPE, KEY, EXTRA])).toEqual(['index | iks | Using index']);
    // the model's rows without SUM(d) and COUNT(DISTINCT k, s)
    const want = model(cols, () => true).map((r) => r.filter((_, i) => i !== 2 && i !== 5));
    s.query('FLUSH STATUS');
    expect(run(q, cols)).toEqual(want);
    expect(s.status().Sort_rows).toBe(0);
    // a LIMIT stops the read in the middle of the groups
    s.query('FLUSH STATUS');
    expect(run(`${q} LIMIT 3`, cols)).toEqual(want.slice(0, 3));
    expect(s.status().Handler_read_next).toBeLessThan(rows.length / 2);
  });

  it('puts NULL in rollup rows for the grouped columns and the expressions over them', () => {
    const q = "SELECT k, k + 1, CONCAT('k=', k), COUNT(*) FROM r WHERE k < 2 GROUP BY k WITH ROLLUP";
    const got = s.query(q).rows;
    const n0 = rows.filter((r) => r.k === 0).length;
    const n1 = rows.filter((r) => r.k === 1).length;
    expect(got).toEqual([
      [0, 1, 'k=0', n0],
      [1, 2, 'k=1', n1],
      [null, null, null, n0 + n1],
    ]);
  });
});
