import { join } from 'node:path';
import { generateTpch } from '@enginekit/tpch';
import { timeInterleavedCpu, timeRunsCpu, type WallCpu } from '../measure.js';
import { loadDuckTpch } from '../peers/duckdb-tpch.js';
import { loadSqliteTpch } from '../peers/sqlite-tpch.js';
import {
  type EngineDatabase,
  type EngineModule,
  type EngineSession as Session,
  importEngine,
  loadAverage,
  runDir,
} from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { Q1, Q3, Q6, Q10, type TpchTriple } from './tpch-queries.js';

const QUERIES: readonly TpchTriple[] = [
  {
    name: 'Q1',
    mysql: Q1("date '1998-12-01' - interval '90' day"),
    sqlite: Q1("'1998-09-02'"),
    duck: Q1("date '1998-12-01' - interval '90' day"),
  },
  {
    name: 'Q3',
    mysql: Q3('BUILDING', "date '1995-03-15'", ''),
    sqlite: Q3('BUILDING', "'1995-03-15'", ''),
    duck: Q3('BUILDING', "date '1995-03-15'", ''),
  },
  {
    name: 'Q6',
    mysql: Q6("date '1994-01-01'", "date '1994-01-01' + interval '1' year", '0.06 - 0.01', '0.06 + 0.01'),
    // REAL arithmetic: 0.06 - 0.01 is below the stored 0.05, so SQLite gets the bounds as written
    sqlite: Q6("'1994-01-01'", "'1995-01-01'", '0.05', '0.07'),
    duck: Q6("date '1994-01-01'", "date '1994-01-01' + interval '1' year", '0.06 - 0.01', '0.06 + 0.01'),
  },
  {
    name: 'Q10',
    mysql: Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month"),
    sqlite: Q10("'1993-10-01'", "'1994-01-01'"),
    duck: Q10("date '1993-10-01'", "date '1993-10-01' + interval '3' month"),
  },
  {
    name: 'Q3 variant',
    mysql: Q3('AUTOMOBILE', "'1995-03-09'", ' FORCE INDEX (i_l_orderkey)'),
    sqlite: Q3('AUTOMOBILE', "'1995-03-09'", ' INDEXED BY i_l_orderkey'),
    duck: Q3('AUTOMOBILE', "date '1995-03-09'", ''),
  },
  {
    name: 'Q10 variant',
    mysql: Q10("'1993-08-01'", "date_add('1993-08-01', interval '3' month)"),
    sqlite: Q10("'1993-08-01'", "'1993-11-01'"),
    duck: Q10("date '1993-08-01'", "date '1993-08-01' + interval '3' month"),
  },
];

const SCAN = 'select count(*) from lineitem where l_quantity > 0';

interface EngineSession {
  readonly db: EngineDatabase;
  readonly session: Session;
}

/** The build's SQL session on a database file, or undefined when the build has none. */
function engineSession(engine: EngineModule, path: string, poolBytes: number): EngineSession | undefined {
  if (typeof engine.Session !== 'function') return undefined;
  const db = engine.Database.open(path, { innodb_buffer_pool_size: poolBytes });
  return { db, session: new engine.Session(db) };
}

const cell = (x: WallCpu | undefined): string =>
  x === undefined ? '-' : `${x.wall.toFixed(1)} (${x.cpu.toFixed(1)})`;

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const sf = a.number('sf');
  const runs = a.number('runs');
  const poolBytes = a.number('pool-mb') * 1024 * 1024;
  const only = a.text('only');
  const peers = !a.flag('no-peers');
  const comparePath = a.text('compare');
  const engine = await importEngine(a.text('engine'));
  const old = comparePath === undefined ? undefined : await importEngine(comparePath);
  const { dir, remove } = runDir('sql-tpch');
  const tbl = join(dir, 'tbl');
  try {
    generateTpch({ sf, out: tbl });
    const path = join(dir, 'tpch.ekdb');
    engine.loadTpch({ db: path, tbl });
    const sqlite = loadSqliteTpch(tbl, ':memory:');
    const duck = await loadDuckTpch(tbl, ':memory:');
    const ek = engineSession(engine, path, poolBytes);
    if (ek === undefined) io.out('this build of enginekit has no SQL session: SQLite and DuckDB only');
    if (old !== undefined && ek !== undefined) {
      const oldPath = join(dir, 'tpch-old.ekdb');
      old.loadTpch({ db: oldPath, tbl });
      const ok = engineSession(old, oldPath, poolBytes);
      if (ok === undefined) throw new Error(`${comparePath} has no SQL session to compare with`);
      const lines = [
        '| query | this build ms (CPU) | old build ms (CPU) | this / old (CPU) |',
        '|---|---:|---:|---:|',
      ];
      for (const q of [
        ...QUERIES.map((x) => ({ name: x.name, sql: x.mysql })),
        { name: 'scan', sql: SCAN },
      ]) {
        if (only !== undefined && q.name !== only) continue;
        const [ta, tb] = (await timeInterleavedCpu(
          [() => ek.session.query(q.sql), () => ok.session.query(q.sql)],
          runs,
        )) as [WallCpu, WallCpu];
        const rows = (x: EngineSession): string =>
          JSON.stringify(x.session.query(q.sql).rows, (_k, v: unknown) =>
            typeof v === 'bigint' ? `${v}` : v,
          );
        const same = rows(ek) === rows(ok) ? '' : ' (the answers differ)';
        const ratio = `${(ta.wall / tb.wall).toFixed(2)}× (${(ta.cpu / tb.cpu).toFixed(2)}×)`;
        lines.push(`| ${q.name} | ${cell(ta)} | ${cell(tb)} | ${ratio}${same} |`);
        io.log(lines[lines.length - 1] as string);
      }
      io.out('');
      io.out(
        `TPC-H SF ${sf}, this build and ${comparePath} alternately, median of ${runs}, load average ${loadAverage()}:`,
      );
      io.out('');
      for (const line of lines) io.out(line);
      ok.session.close();
      ok.db.close();
    }
    // with --compare and --no-peers, the comparison above is the whole run
    const main = old === undefined || peers;
    const table = [
      '| query | enginekit ms (CPU) | SQLite ms (CPU) | DuckDB 1 thread ms (CPU) | enginekit / SQLite (CPU) | enginekit / DuckDB (CPU) | rows (ek/SQLite/DuckDB) |',
      '|---|---:|---:|---:|---:|---:|---|',
    ];
    for (const q of main ? QUERIES : []) {
      if (only !== undefined && q.name !== only) continue;
      const n: [string | number, number, number] = ['-', 0, 0];
      const st = sqlite.prepare(q.sqlite);
      const s = peers
        ? await timeRunsCpu(() => {
            n[1] = st.all().length;
          }, runs)
        : undefined;
      const d = peers
        ? await timeRunsCpu(async () => {
            n[2] = (await duck.conn.runAndReadAll(q.duck)).getRows().length;
          }, runs)
        : undefined;
      let e: WallCpu | undefined;
      if (ek !== undefined) {
        try {
          e = await timeRunsCpu(() => {
            n[0] = ek.session.query(q.mysql).rows.length;
          }, runs);
        } catch (err) {
          n[0] = `error: ${String(err instanceof Error ? err.message : err).slice(0, 60)}`;
        }
      }
      const r = (x: WallCpu | undefined): string =>
        e === undefined || x === undefined
          ? '-'
          : `${(e.wall / x.wall).toFixed(2)}× (${(e.cpu / x.cpu).toFixed(2)}×)`;
      table.push(
        `| ${q.name} | ${cell(e)} | ${cell(s)} | ${cell(d)} | ${r(s)} | ${r(d)} | ${n.join(' / ')} |`,
      );
      io.log(table[table.length - 1] as string);
    }
    // a full scan of lineitem: the same count on each, as rows of lineitem per second
    const scanRows = sqlite.prepare('select count(*) from lineitem').pluck().get() as number;
    const scanLite = sqlite.prepare(SCAN).pluck();
    const scanning = main && (only === undefined || only === 'scan');
    const ls = scanning && peers ? await timeRunsCpu(() => scanLite.get(), runs) : undefined;
    const ds = scanning && peers ? await timeRunsCpu(() => duck.conn.runAndReadAll(SCAN), runs) : undefined;
    // enginekit plans the count as a covering scan of i_l_orderkey_quantity (type index, as
    // MariaDB): the table scan is timed with the index ignored, the planned one beside it
    const tableScan = SCAN.replace('from lineitem', 'from lineitem ignore index (i_l_orderkey_quantity)');
    let es: WallCpu | undefined;
    let ei: WallCpu | undefined;
    if (ek !== undefined && scanning) {
      try {
        es = await timeRunsCpu(() => ek.session.query(tableScan), runs);
        ei = await timeRunsCpu(() => ek.session.query(SCAN), runs);
      } catch (err) {
        io.out(`enginekit scan: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const rps = (x: WallCpu | undefined): string =>
      x === undefined ? '-' : `${(((scanRows / x.wall) * 1000) / 1e6).toFixed(2)} M`;
    if (main) {
      io.out('');
      io.out(`TPC-H SF ${sf}, median of ${runs} warm runs, load average ${loadAverage()}:`);
      io.out('');
      for (const line of table) io.out(line);
    }
    if (scanning) {
      io.out('');
      io.out(`| full scan of lineitem (${scanRows} rows), \`${SCAN}\` | rows/s | ms (CPU) |`);
      io.out('|---|---:|---:|');
      io.out(
        `| enginekit, table scan (\`ignore index (i_l_orderkey_quantity)\`) | ${rps(es)} | ${cell(es)} |`,
      );
      io.out(`| enginekit, as planned (covering scan of i_l_orderkey_quantity) | ${rps(ei)} | ${cell(ei)} |`);
      io.out(`| SQLite | ${rps(ls)} | ${cell(ls)} |`);
      io.out(`| DuckDB 1 thread | ${rps(ds)} | ${cell(ds)} |`);
    }
    ek?.session.close();
    ek?.db.close();
    sqlite.close();
    duck.conn.closeSync();
    duck.instance.closeSync();
  } finally {
    remove();
  }
}

export const sqlTpch: MicroBench = {
  name: 'sql-tpch',
  title: 'TPC-H Q1, Q3, Q6, Q10 and the join/MRR variants: enginekit vs SQLite vs DuckDB, warm',
  about: `Generates TPC-H at --sf and loads the same .tbl files into enginekit, SQLite (better-sqlite3,
in memory, DBT3 keys and indexes, ANALYZE run) and DuckDB (in memory, one thread). Each query:
the median wall and CPU ms of --runs runs after a warm-up run, and the ratios from this one run;
then a full scan of lineitem in rows/s on the three. --only names one query (or scan);
--no-peers times enginekit alone (for profiles: node --cpu-prof …/cli.js micro sql-tpch).
--engine measures another build; --compare times this build and an older one alternately on
copies of the same data, with the new/old ratio.`,
  options: {
    sf: { kind: 'number', default: '0.1', about: 'TPC-H scale factor' },
    runs: { kind: 'number', default: '5', about: 'timed runs per query (after one warm-up)' },
    'pool-mb': { kind: 'number', default: '1024', about: "enginekit's innodb_buffer_pool_size, MiB" },
    only: { kind: 'text', about: 'one query by name (Q1, Q3, Q6, Q10, Q3 variant, Q10 variant, scan)' },
    'no-peers': { kind: 'flag', about: 'enginekit alone, no SQLite or DuckDB' },
    engine: { kind: 'text', about: 'another engine build to measure (its dist folder or index.js)' },
    compare: {
      kind: 'text',
      about: 'an older build (dist folder or index.js) timed alternately with this one',
    },
  },
  run,
};
