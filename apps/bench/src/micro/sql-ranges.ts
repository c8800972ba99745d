import { median } from '../measure.js';
import { sbtestRows, xorshift32 } from '../internal/sbtest-rows.js';
import { importEngine, loadAverage } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { loadSbtestPair } from './sbtest-sqlite.js';

const RANGE_SIZE = 100;

/**
 * sysbench 1.0.20 oltp_common.lua's read statements (point_selects, simple_ranges, sum_ranges,
 * order_ranges, distinct_ranges) and how many of each one oltp_read_only transaction sends.
 */
const STATEMENTS = [
  { name: 'point', sql: 'SELECT c FROM sbtest1 WHERE id=?', range: false, perTxn: 10 },
  { name: 'simple range', sql: 'SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?', range: true, perTxn: 1 },
  { name: 'sum range', sql: 'SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?', range: true, perTxn: 1 },
  {
    name: 'order range',
    sql: 'SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c',
    range: true,
    perTxn: 1,
  },
  {
    name: 'distinct range',
    sql: 'SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c',
    range: true,
    perTxn: 1,
  },
] as const;

/** The same point select and `SELECT 1` sent as text: parsed and planned every time. */
const TEXT = [
  { sql: 'SELECT c FROM sbtest1 WHERE id=', point: true },
  { sql: 'SELECT 1', point: false },
] as const;

type Params = readonly (readonly number[])[];
type Runner = (ps: Params) => number;

/** µs per statement of one pass of `f` over `ps`, and its checksum. */
function timeUs(f: Runner, ps: Params): { us: number; check: number } {
  const t0 = performance.now();
  const check = f(ps);
  return { us: ((performance.now() - t0) * 1000) / ps.length, check };
}

/** A warm-up pass of each, then `passes` in turn; the median µs of each and whether rows differed. */
function compare(
  l: Runner,
  e: Runner,
  ps: Params,
  passes: number,
): { lite: number; ek: number; differ: boolean } {
  timeUs(l, ps);
  timeUs(e, ps);
  const lu: number[] = [];
  const eu: number[] = [];
  let differ = false;
  for (let i = 0; i < passes; i++) {
    const a = timeUs(l, ps);
    const b = timeUs(e, ps);
    lu.push(a.us);
    eu.push(b.us);
    if (a.check !== b.check) differ = true;
  }
  return { lite: median(lu), ek: median(eu), differ };
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const rows = a.number('rows');
  const passes = a.number('passes');
  const calls = a.number('calls');
  const engine = await importEngine(a.text('engine'));
  const next = xorshift32();
  const t = loadSbtestPair(engine, sbtestRows(rows, next), 256 * 1024 * 1024);
  io.out(`${rows} rows loaded into both in ${t.seconds.toFixed(1)} s`);
  const { lite, session } = t;

  // a random id, or a range [start, start + range_size - 1], as sysbench draws them
  const params = (range: boolean): number[][] => {
    const out: number[][] = [];
    const n = range ? calls : calls * 20;
    for (let i = 0; i < n; i++) {
      const x = 1 + (next() % rows);
      out.push(range ? [x, x + RANGE_SIZE - 1] : [x]);
    }
    return out;
  };
  // each engine's pass of one statement over its parameters; a checksum of the rows
  const liteRunner = (sql: string): Runner => {
    const st = lite.prepare(sql).raw(true);
    return (ps) => {
      let sum = 0;
      for (const p of ps) for (const r of st.all(...p) as unknown[][]) sum += String(r[0]).length;
      return sum;
    };
  };
  const ekRunner = (sql: string): Runner => {
    const st = session.prepare(sql);
    return (ps) => {
      let sum = 0;
      for (const p of ps) for (const r of st.run([...p]).rows) sum += String(r[0]).length;
      return sum;
    };
  };

  const results = STATEMENTS.map((s) => {
    const r = compare(liteRunner(s.sql), ekRunner(s.sql), params(s.range), passes);
    if (r.differ) io.out(`WARNING: ${s.name}: the two engines' rows differ`);
    return { ...s, ...r };
  });
  // one oltp_read_only transaction's statements, by the per-statement medians
  const txn = (k: 'lite' | 'ek'): number => results.reduce((acc, r) => acc + r.perTxn * r[k], 0);

  // as text: session.query beside better-sqlite3's prepare + get of the same text (SQLite's
  // own per-statement path)
  const texts = TEXT.map((x) => {
    const ids = params(false).slice(0, calls * 2);
    const text = (p: readonly number[]): string => (x.point ? `${x.sql}${p[0]}` : x.sql);
    const lite1: Runner = (ps) => {
      let sum = 0;
      for (const p of ps) sum += String((lite.prepare(text(p)).raw(true).get() as unknown[])[0]).length;
      return sum;
    };
    const ek1: Runner = (ps) => {
      let sum = 0;
      for (const p of ps) sum += String(session.query(text(p)).rows[0]?.[0]).length;
      return sum;
    };
    const r = compare(lite1, ek1, ids, passes);
    if (r.differ) io.out(`WARNING: ${x.sql}: the two engines' rows differ`);
    return { sql: x.point ? `${x.sql}N` : x.sql, ...r };
  });

  const table = (list: readonly { sql: string; ek: number; lite: number }[]): void => {
    io.out('| statement | enginekit µs | better-sqlite3 µs | enginekit ÷ better-sqlite3 |');
    io.out('|---|---:|---:|---:|');
    for (const r of list)
      io.out(`| \`${r.sql}\` | ${r.ek.toFixed(1)} | ${r.lite.toFixed(1)} | ${(r.ek / r.lite).toFixed(2)} |`);
  };
  io.out('');
  io.out(
    `sysbench oltp_read_only statements, prepared, ${rows} rows, range_size ${RANGE_SIZE}, ${calls * 20} point selects and ${calls} of each range per pass, median of ${passes} passes, load average ${loadAverage()}:`,
  );
  io.out('');
  table(results);
  io.out(
    `| one transaction (10 point + 4 ranges) | ${txn('ek').toFixed(1)} | ${txn('lite').toFixed(1)} | ${(txn('ek') / txn('lite')).toFixed(2)} |`,
  );
  io.out('');
  io.out('As text (session.query; better-sqlite3 prepare + get), every statement parsed and planned:');
  io.out('');
  table(texts);
  session.close();
  t.db.close();
  lite.close();
}

export const sqlRanges: MicroBench = {
  name: 'sql-ranges',
  title: "sysbench oltp_read_only's statements, prepared and as text: enginekit vs better-sqlite3",
  about: `sysbench oltp_read_only's five statements, prepared, on sysbench's sbtest1 (seeded xorshift32
rows) in both engines, in memory, one thread: a uniformly random id, or ranges of 100 ids from a
random id. A warm-up pass, then --passes of each engine in turn: median µs per statement, and
one oltp_read_only transaction (10 point selects and one of each range) from those medians.
Then the point select and \`SELECT 1\` sent as text. --engine measures another build (old and
new builds compared one after the other).`,
  options: {
    rows: { kind: 'number', default: '100000', about: 'rows of sbtest1' },
    passes: { kind: 'number', default: '5', about: 'timed passes per statement' },
    calls: { kind: 'number', default: '1000', about: 'range statements per pass (point selects: 20 ×)' },
    engine: { kind: 'text', about: 'another engine build to measure (its dist folder or index.js)' },
  },
  run,
};
