import { median } from '../measure.js';
import { sbtestRows, xorshift32 } from '../internal/sbtest-rows.js';
import { importEngine, loadAverage } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { loadSbtestPair } from './sbtest-sqlite.js';

const POINT = 'SELECT c FROM sbtest1 WHERE id=?';
const PASSES = 5;

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const rows = a.number('rows');
  const queries = a.number('queries');
  // a pool that holds the whole table (about 300 MB at 1M rows), as SQLite's :memory: database does
  const poolBytes = a.number('pool-mb') * 1024 * 1024;
  const engine = await importEngine();
  const next = xorshift32();
  const t = loadSbtestPair(engine, sbtestRows(rows, next), poolBytes);
  io.out(
    `${rows} rows loaded in ${t.seconds.toFixed(1)} s (enginekit's share ${t.engineSeconds.toFixed(1)} s)`,
  );

  const ids = new Int32Array(queries);
  for (let i = 0; i < queries; i++) ids[i] = 1 + (next() % rows);
  const liteStmt = t.lite.prepare<[number], { c: string }>(POINT);
  const runLite = (): number => {
    let bytes = 0;
    for (let i = 0; i < queries; i++) bytes += (liteStmt.get(ids[i] as number) as { c: string }).c.length;
    return bytes;
  };
  const ekStmt = t.session.prepare(POINT);
  const runEk = (): number => {
    let bytes = 0;
    for (let i = 0; i < queries; i++) bytes += String(ekStmt.run([ids[i] as number]).rows[0]?.[0]).length;
    return bytes;
  };
  // a warm-up pass of each, then the two in turn; the median rate of each
  const pass = (f: () => number): { qps: number; check: number } => {
    const t0 = performance.now();
    const check = f();
    return { qps: queries / ((performance.now() - t0) / 1000), check };
  };
  pass(runLite);
  pass(runEk);
  const l: number[] = [];
  const e: number[] = [];
  for (let i = 0; i < PASSES; i++) {
    const x = pass(runLite);
    const y = pass(runEk);
    l.push(x.qps);
    e.push(y.qps);
    if (x.check !== y.check) io.out(`WARNING: answers differ (${y.check} vs ${x.check} bytes)`);
  }
  const lm = median(l);
  const em = median(e);
  io.out('');
  io.out(
    `${POINT} on ${rows} rows, ${queries} random ids per pass, median of ${PASSES} passes, load average ${loadAverage()}:`,
  );
  io.out('');
  io.out('| engine | queries/s | × better-sqlite3 |');
  io.out('|---|---:|---:|');
  io.out(`| enginekit (prepared) | ${Math.round(em)} | ${(em / lm).toFixed(2)} |`);
  io.out(`| better-sqlite3 (prepared .get) | ${Math.round(lm)} | 1.00 |`);
  t.session.close();
  t.db.close();
  t.lite.close();
}

export const sqlPoint: MicroBench = {
  name: 'sql-point',
  title: 'prepared point select on sysbench-shaped rows: enginekit vs better-sqlite3, in memory',
  about: `\`SELECT c FROM sbtest1 WHERE id=?\`, prepared, on sysbench's sbtest1 (id primary key, k with
index k_1, c CHAR(120), pad CHAR(60); seeded xorshift32 rows), loaded into both engines: one
thread, uniformly random ids, enginekit's pool large enough to hold the table. A warm-up pass of
each, then ${PASSES} passes of each in turn; the median queries/s and the ratio.`,
  options: {
    rows: { kind: 'number', default: '1000000', about: 'rows of sbtest1' },
    queries: { kind: 'number', default: '300000', about: 'point selects per pass' },
    'pool-mb': { kind: 'number', default: '1024', about: "enginekit's innodb_buffer_pool_size, MiB" },
  },
  run,
};
