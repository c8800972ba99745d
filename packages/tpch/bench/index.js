// TPC-H generation and .tbl parsing, timed on the built package.
//   node bench/index.js                 SF 0.1 (default)
//   TPCH_BENCH_SF=1 node bench/index.js SF 1 (about 1 GB written to the temp dir)
// Generation has no in-process peer (DuckDB's tpch extension cannot be downloaded here), so it
// reports time and MB/s; parsing lineitem.tbl runs beside DuckDB's read_csv on the same file.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateTable, generateTpch, readTblBatches, TPCH_SCHEMA, TPCH_TABLES } from '../dist/index.js';

const sf = Number(process.env.TPCH_BENCH_SF ?? 0.1);
const runs = Number(process.env.TPCH_BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'tpch-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpu = [];
const time = (f) => {
  const t = performance.now();
  const c = process.cpuUsage();
  f();
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1e6);
  return (performance.now() - t) / 1000;
};
const lastCpu = (n) => median(cpu.slice(-n));

try {
  // the first generation in a process builds the shared text pool; region is 5 rows, so this is the pool
  const pool = time(() => generateTable('region', 0.01));
  console.log(
    `text pool (300 MiB, built once per process): ${pool.toFixed(2)} s wall, ${lastCpu(1).toFixed(2)} s CPU`,
  );

  generateTpch({ sf, out: dir }); // warm-up; also builds the shared pool
  const gen = [];
  for (let i = 0; i < runs; i++) gen.push(time(() => generateTpch({ sf, out: dir })));
  const bytes = TPCH_TABLES.reduce((a, t) => a + statSync(join(dir, `${t}.tbl`)).size, 0);
  const g = median(gen);
  console.log(
    `generate SF ${sf}: median ${g.toFixed(2)} s wall, ${lastCpu(runs).toFixed(2)} s CPU, of ${runs} (pool excluded), ${(bytes / 1e6).toFixed(1)} MB, ${(bytes / 1e6 / g).toFixed(0)} MB/s`,
  );

  const file = join(dir, 'lineitem.tbl');
  const ours = [];
  let rows = 0;
  for (let i = 0; i < runs; i++)
    ours.push(time(() => (rows = readTblBatches(file, TPCH_SCHEMA.lineitem, () => {}))));
  const oursCpu = lastCpu(runs);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const cols = TPCH_SCHEMA.lineitem.columns
    .map((c) => {
      const k = c.type.kind;
      const t =
        k === 'decimal' ? 'DECIMAL(15,2)' : k === 'char' || k === 'varchar' ? 'VARCHAR' : k.toUpperCase();
      return `'${c.name}':'${t}'`;
    })
    .join(',');
  const duck = [];
  const duckCpu = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await conn.run('DROP TABLE IF EXISTS l');
    await conn.run(
      `CREATE TABLE l AS SELECT * EXCLUDE (end_pad) FROM read_csv('${file}', delim='|', header=false, auto_detect=false, quote='', escape='', columns={${cols},'end_pad':'VARCHAR'})`,
    );
    duck.push((performance.now() - t) / 1000);
    const used = process.cpuUsage(c);
    duckCpu.push((used.user + used.system) / 1e6);
  }
  conn.closeSync();
  const o = median(ours);
  const d = median(duck);
  console.log(
    `parse lineitem.tbl (${rows} rows): @enginekit/tpch ${o.toFixed(2)} s wall / ${oursCpu.toFixed(2)} s CPU (${(rows / o / 1e6).toFixed(2)} M rows/s, 1 thread), DuckDB read_csv ${d.toFixed(2)} s wall / ${median(duckCpu).toFixed(2)} s CPU (its threads); wall ratio tpch/DuckDB = ${(o / d).toFixed(2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
