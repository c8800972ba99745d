// Differential fuzzing: random small tables (NULLs, duplicates, negative and large numbers,
// empty strings) and random SELECTs over them (predicates, joins, GROUP BY, ORDER BY + LIMIT,
// subqueries, derived tables), enginekit's answer against SQLite's (better-sqlite3). Only the
// shapes where SQLite's semantics are MySQL's are generated; helpers/sql-fuzz-gen.ts lists the
// differences it steers around.
//
// CI runs a fixed seed and a bounded number of cases; more with
//   FUZZ_RUNS=5000 FUZZ_SEED=123 pnpm exec vitest run --project engine test/conformance/sql-fuzz.test.ts
// Every counterexample found is kept in PINNED below and runs on every test run.
import Sqlite from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';
import { type FuzzCase, fuzzCase, setupStatements, sqliteText } from '../helpers/sql-fuzz-gen.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 500);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261201);

/** Counterexamples the fuzzer found, each a regression test from then on. */
const PINNED: readonly { readonly why: string; readonly c: FuzzCase }[] = [
  {
    why: 'a BIGINT column holds values beyond 2^53 exactly',
    c: {
      tables: [
        { name: 't1', rows: [[0, 576460752303423487n, '']] },
        { name: 't2', rows: [] },
      ],
      sql: 'select t1.a from t1',
      avgColumns: [],
      ordered: false,
    },
  },
];

/**
 * Counterexamples whose bug is still open: each runs as an expected failure (so it flips to a
 * failing test the day it is fixed: move it to PINNED then), and the random run steers around
 * its shape with `open` (so that it can find other bugs meanwhile).
 */
const OPEN: readonly {
  readonly why: string;
  readonly c: FuzzCase;
  readonly open: (c: FuzzCase) => boolean;
}[] = [];

type Rows = readonly (readonly unknown[])[];

/** A value as text: integers of any width alike, AVG at MySQL's scale 4 when `avg`. */
function text(v: unknown, avg: boolean, ours: boolean): string {
  if (v === null || v === undefined) return 'NULL';
  if (avg && !ours) {
    const s = Number(v).toFixed(4);
    return /^-0\.0+$/.test(s) ? s.slice(1) : s;
  }
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : String(v);
  return String(v);
}

function canonical(rows: Rows, c: FuzzCase, ours: boolean): string[] {
  const lines = rows.map((r) => JSON.stringify(r.map((v, k) => text(v, c.avgColumns.includes(k), ours))));
  return c.ordered ? lines : lines.sort();
}

function sqliteAnswer(c: FuzzCase): string[] {
  const db = new Sqlite(':memory:');
  try {
    for (const s of setupStatements(c)) db.exec(s);
    const st = db.prepare(sqliteText(c.sql));
    st.safeIntegers(true);
    st.raw(true);
    return canonical(st.all() as unknown[][], c, false);
  } finally {
    db.close();
  }
}

function engineAnswer(session: Session, c: FuzzCase): string[] {
  const setup = setupStatements(c);
  try {
    for (const s of c.settings ?? []) session.query(s);
    for (const s of setup) session.query(s);
    return canonical(session.query(c.sql).rows, c, true);
  } finally {
    session.query('SET SESSION join_buffer_size = DEFAULT');
    session.query('SET SESSION optimizer_switch = DEFAULT');
    for (const t of ['t1', 't2']) {
      try {
        session.query(`DROP TABLE ${t}`);
      } catch {
        // the table was not created (setup failed before it)
      }
    }
  }
}

const show = (c: FuzzCase): string => [...(c.settings ?? []), ...setupStatements(c), c.sql].join(';\n');

describe('sql fuzz: the generator', () => {
  it('writes SQL that SQLite runs, of every shape', () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(fuzzCase, (c) => {
        sqliteAnswer(c);
        if (c.sql.includes(' join ') || c.sql.includes('t1, t2')) kinds.add('join');
        if (c.sql.includes('group by')) kinds.add('group');
        if (c.sql.includes('(select')) kinds.add('subquery');
        if (c.sql.includes(' limit ')) kinds.add('limit');
        if (c.sql.includes(') as d')) kinds.add('derived');
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect([...kinds].sort()).toEqual(['derived', 'group', 'join', 'limit', 'subquery']);
  });
});

describe('sql fuzz: enginekit answers as SQLite', () => {
  it(`${RUNS} random cases (seed ${SEED})`, () => {
    const db = Database.temporary();
    const session = new Session(db);
    try {
      fc.assert(
        fc.property(fuzzCase, (c) => {
          fc.pre(!OPEN.some((o) => o.open(c)));
          let ours: string[];
          try {
            ours = engineAnswer(session, c);
          } catch (e) {
            throw new Error(`enginekit failed: ${(e as Error).message}\n${show(c)}`);
          }
          const want = sqliteAnswer(c);
          if (JSON.stringify(ours) !== JSON.stringify(want))
            throw new Error(
              `different answers\n${show(c)}\nenginekit ${ours.join(' ')}\nSQLite    ${want.join(' ')}`,
            );
        }),
        { seed: SEED, numRuns: RUNS, maxSkipsPerRun: 1000 },
      );
    } finally {
      session.close();
      db.close();
    }
  });

  const pinned = (c: FuzzCase) => () => {
    const db = Database.temporary();
    const session = new Session(db);
    try {
      expect(engineAnswer(session, c), show(c)).toEqual(sqliteAnswer(c));
    } finally {
      session.close();
      db.close();
    }
  };
  for (const { why, c } of PINNED) it(`pinned: ${why}`, pinned(c));
  for (const { why, c } of OPEN) it.fails(`open: ${why}`, pinned(c));
});
