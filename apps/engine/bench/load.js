// Load TPC-H with the DBT3 indexes into enginekit and, from the same .tbl files in the same run,
// into SQLite (better-sqlite3: same tables clustered by the primary key (WITHOUT ROWID), same
// secondary indexes built after the rows, one transaction). Times, ratio and file sizes.
//   node bench/load.js                         SF 0.1 (default), 1 run each
//   ENGINE_BENCH_SF=1 ENGINE_BENCH_RUNS=3 node bench/load.js
// Imports the built package: run `pnpm exec tsup` first.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { DBT3_KEYS, generateTpch, readTblBatches, TPCH_SCHEMA, TPCH_TABLES } from '@enginekit/tpch';
import { loadTpch } from '../dist/index.js';

const sf = Number(process.env.ENGINE_BENCH_SF ?? 0.1);
const runs = Number(process.env.ENGINE_BENCH_RUNS ?? 1);
const poolBytes = Number(process.env.ENGINE_BENCH_POOL_MB ?? 128) * 1024 * 1024;
const dir = mkdtempSync(join(process.env.ENGINE_BENCH_DIR ?? tmpdir(), 'engine-load-bench-'));
const tbl = join(dir, 'tbl');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(f) {
  const t = performance.now();
  const c = process.cpuUsage();
  f();
  const u = process.cpuUsage(c);
  return { wall: (performance.now() - t) / 1000, cpu: (u.user + u.system) / 1e6 };
}

function sqliteType(t) {
  if (t.kind === 'char' || t.kind === 'varchar') return 'TEXT';
  return 'INTEGER'; // INT, BIGINT, DATE (days), DECIMAL (exact scaled integer, as in enginekit)
}

function loadSqlite(path) {
  const db = new Sqlite(path);
  db.pragma(`cache_size = -${Math.round(poolBytes / 1024)}`); // the same memory as our pool
  const decoder = new TextDecoder();
  db.exec('BEGIN');
  for (const t of TPCH_TABLES) {
    const cols = TPCH_SCHEMA[t].columns;
    const keys = DBT3_KEYS[t];
    db.exec(
      `CREATE TABLE ${t} (${cols.map((c) => `${c.name} ${sqliteType(c.type)} NOT NULL`).join(', ')}, PRIMARY KEY (${keys.primaryKey.join(', ')})) WITHOUT ROWID`,
    );
    const ins = db.prepare(`INSERT INTO ${t} VALUES (${cols.map(() => '?').join(', ')})`);
    const values = new Array(cols.length);
    readTblBatches(join(tbl, `${t}.tbl`), TPCH_SCHEMA[t], (batch) => {
      for (let r = 0; r < batch.rows; r++) {
        for (let c = 0; c < cols.length; c++) {
          const col = batch.columns[c];
          values[c] =
            'bytes' in col
              ? decoder.decode(col.bytes.subarray(col.offsets[r], col.offsets[r + 1]))
              : col.values[r];
        }
        ins.run(values);
      }
    });
    for (const ix of keys.indexes) db.exec(`CREATE INDEX ${ix.name} ON ${t} (${ix.columns.join(', ')})`);
  }
  db.exec('COMMIT');
  db.close();
}

try {
  const g = timed(() => generateTpch({ sf, out: tbl }));
  const tblBytes = TPCH_TABLES.reduce((a, t) => a + statSync(join(tbl, `${t}.tbl`)).size, 0);
  console.log(`SF ${sf}: ${(tblBytes / 1e6).toFixed(1)} MB of .tbl generated in ${g.wall.toFixed(1)} s`);
  const ours = [];
  const theirs = [];
  let ourBytes = 0;
  let theirBytes = 0;
  for (let i = 0; i < runs; i++) {
    const ek = join(dir, 'tpch.ekdb');
    const sq = join(dir, 'tpch.sqlite');
    rmSync(ek, { force: true });
    rmSync(sq, { force: true });
    // alternate the order so neither always runs on a warmer (or more loaded) machine
    const runOurs = () =>
      ours.push(timed(() => loadTpch({ db: ek, tbl, innodb_buffer_pool_size: poolBytes })));
    const runTheirs = () => theirs.push(timed(() => loadSqlite(sq)));
    if (i % 2 === 0) {
      runOurs();
      runTheirs();
    } else {
      runTheirs();
      runOurs();
    }
    ourBytes = statSync(ek).size;
    theirBytes = statSync(sq).size;
  }
  const ow = median(ours.map((x) => x.wall));
  const oc = median(ours.map((x) => x.cpu));
  const tw = median(theirs.map((x) => x.wall));
  const tc = median(theirs.map((x) => x.cpu));
  const rows = [
    ['| engine | load wall s | load CPU s | file MB | × SQLite time | × SQLite size |'],
    ['|---|---:|---:|---:|---:|---:|'],
    [
      `| enginekit (pool ${poolBytes >> 20} MiB) | ${ow.toFixed(2)} | ${oc.toFixed(2)} | ${(ourBytes / 1e6).toFixed(1)} | ${(ow / tw).toFixed(2)} | ${(ourBytes / theirBytes).toFixed(2)} |`,
    ],
    [
      `| SQLite (better-sqlite3, cache ${poolBytes >> 20} MiB) | ${tw.toFixed(2)} | ${tc.toFixed(2)} | ${(theirBytes / 1e6).toFixed(1)} | 1.00 | 1.00 |`,
    ],
  ];
  console.log(`\nTPC-H SF ${sf} with the DBT3 indexes, median of ${runs} run(s):\n`);
  for (const r of rows) console.log(r[0]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
