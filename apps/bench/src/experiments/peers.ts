import { medianOf } from '../internal/runs.js';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '@enginekit/engine';
import { TPCH_QUERY_COUNT, tpchQuery, tpchVariant } from '@enginekit/tpch';
import type { Experiment, ExperimentContext, ExperimentOutput } from '../experiment.js';
import { TpchFiles } from '../internal/tpch-files.js';
import { round, spread } from '../measure.js';
import { loadDuckTpch, toDuck } from '../peers/duckdb-tpch.js';
import { loadSqliteTpch, toSqlite } from '../peers/sqlite-tpch.js';
import type { Chart, Claim, Table } from '../result.js';

const SCAN = 'select count(*) from lineitem where l_quantity > 0';

interface Query {
  readonly name: string;
  readonly statements: readonly string[];
  readonly answer: string;
}

function queries(all: boolean, sf: number): Query[] {
  const numbers = all ? Array.from({ length: TPCH_QUERY_COUNT }, (_, i) => i + 1) : [1, 3, 6, 10];
  const out: Query[] = numbers.map((n) => {
    const q = tpchQuery(n, { sf });
    return { name: `Q${n}`, statements: q.statements, answer: q.answer };
  });
  for (const v of ['q3-force-index', 'q10-date-add'] as const) {
    const q = tpchVariant(v);
    out.push({ name: v, statements: q.statements, answer: q.answer });
  }
  // A full scan of lineitem, every row read and tested: the executors' raw row rate.
  out.push({ name: 'lineitem scan', statements: [SCAN], answer: SCAN });
  return out;
}

type Rows = string[][];
const text = (v: unknown): string => (v === null || v === undefined ? 'NULL' : String(v));

/** Cells equal as numbers (to the cent, or 1e-9 relative) or as trimmed text. */
function sameAnswer(a: Rows, b: Rows): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, i) => {
    const other = b[i] as string[];
    if (row.length !== other.length) return false;
    return row.every((x, j) => {
      const y = other[j] as string;
      const nx = Number(x);
      const ny = Number(y);
      if (x.trim() !== '' && y.trim() !== '' && Number.isFinite(nx) && Number.isFinite(ny))
        return Math.abs(nx - ny) <= 0.011 + 1e-9 * Math.abs(nx);
      return x.trim() === y.trim();
    });
  });
}

interface System {
  readonly name: string;
  run(q: Query): Promise<Rows>;
}

async function measure(
  s: System,
  q: Query,
  runs: number,
): Promise<{ rows: Rows; ms: number[]; error?: string }> {
  try {
    const rows = await s.run(q);
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await s.run(q);
      ms.push(performance.now() - t0);
    }
    return { rows, ms };
  } catch (e) {
    return { rows: [], ms: [], error: (e instanceof Error ? e.message : String(e)).slice(0, 120) };
  }
}

async function run(ctx: ExperimentContext): Promise<ExperimentOutput> {
  const sf = ctx.sf ?? (ctx.quick ? 0.01 : 0.1);
  const runs = ctx.quick ? 1 : 5;
  const list = queries(ctx.all === true, sf);
  const files = TpchFiles.shared(sf, ctx.log);
  const dir = mkdtempSync(join(files.dir, 'peers-'));
  try {
    ctx.log('peers: loading SQLite and DuckDB from the same .tbl files');
    const t0 = performance.now();
    const sqlite = loadSqliteTpch(files.tbl, join(dir, 'peer.sqlite'));
    const t1 = performance.now();
    const duck = await loadDuckTpch(files.tbl, join(dir, 'peer.duckdb'));
    const t2 = performance.now();
    const db = files.open(Math.max(64 << 20, Math.ceil(files.dbBytes * 1.5)));
    const session = new Session(db);
    const systems: System[] = [
      {
        name: 'enginekit',
        run: async (q) => {
          let rows: Rows = [];
          for (const s of q.statements) {
            const r = session.query(s);
            if (s === q.answer) rows = r.rows.map((x) => x.map(text));
          }
          return rows;
        },
      },
      {
        name: 'SQLite',
        run: async (q) => {
          let rows: Rows = [];
          for (const s of q.statements) {
            const st = sqlite.prepare(toSqlite(s));
            if (st.reader) {
              const r = st.raw().all() as unknown[][];
              if (s === q.answer) rows = r.map((x) => x.map(text));
            } else st.run();
          }
          return rows;
        },
      },
      {
        name: 'DuckDB',
        run: async (q) => {
          let rows: Rows = [];
          for (const s of q.statements) {
            const r = await duck.conn.runAndReadAll(toDuck(s));
            if (s === q.answer) rows = r.getRows().map((x) => x.map(text));
          }
          return rows;
        },
      },
    ];
    const resultRows: Record<string, string | number | boolean | null>[] = [];
    const detail: unknown[] = [];
    try {
      for (const q of list) {
        ctx.log(`peers: ${q.name}`);
        const m = [];
        for (const s of systems) m.push(await measure(s, q, runs));
        const [ek, lite, dk] = m as [
          Awaited<ReturnType<typeof measure>>,
          Awaited<ReturnType<typeof measure>>,
          Awaited<ReturnType<typeof measure>>,
        ];
        const med = (x: typeof ek): number | null => (x.ms.length ? spread(x.ms).median : null);
        const e = med(ek);
        const l = med(lite);
        const d = med(dk);
        resultRows.push({
          query: q.name,
          rows: dk.rows.length,
          engineMs: e === null ? null : round(e, 1),
          sqliteMs: l === null ? null : round(l, 1),
          duckMs: d === null ? null : round(d, 1),
          vsSqlite: e !== null && l ? round(e / l, 2) : null,
          vsDuck: e !== null && d ? round(e / d, 2) : null,
          engineMatches: ek.error ? `error: ${ek.error}` : sameAnswer(ek.rows, dk.rows),
          sqliteMatches: lite.error ? `error: ${lite.error}` : sameAnswer(lite.rows, dk.rows),
        });
        detail.push({ query: q.name, enginekit: ek, sqlite: lite, duckdb: dk });
      }
    } finally {
      session.close();
      db.close();
    }
    const sizes = {
      enginekit: files.dbBytes,
      sqlite: statSync(join(dir, 'peer.sqlite')).size,
      duckdb: statSync(join(dir, 'peer.duckdb')).size,
    };
    sqlite.close();
    duck.conn.closeSync();
    duck.instance.closeSync();
    const loadRows = [
      {
        system: 'enginekit (loadTpch: bulk load, DBT3 indexes)',
        loadS: round(files.loadMs / 1000, 2),
        mib: round(sizes.enginekit / 2 ** 20, 1),
      },
      {
        system: 'SQLite (INSERT in one transaction, DBT3 indexes, ANALYZE)',
        loadS: round((t1 - t0) / 1000, 2),
        mib: round(sizes.sqlite / 2 ** 20, 1),
      },
      {
        system: 'DuckDB (read_csv, no indexes)',
        loadS: round((t2 - t1) / 1000, 2),
        mib: round(sizes.duckdb / 2 ** 20, 1),
      },
    ];
    const matched = resultRows.filter((r) => r.engineMatches === true).length;
    const claims: Claim[] = [
      {
        text: 'enginekit answers the TPC-H queries as DuckDB does',
        post: '—',
        ours: `${matched} of ${resultRows.length} queries match DuckDB's answer`,
        holds: resultRows.every((r) => r.engineMatches === true),
      },
      {
        text: 'enginekit vs the libraries a user would otherwise pick, one warm run set each',
        post: '—',
        ours: resultRows
          .filter((r) => r.vsSqlite !== null)
          .map((r) => `${r.query} ×${r.vsSqlite} SQLite, ×${r.vsDuck} DuckDB`)
          .join('; '),
        holds: null,
      },
    ];
    const tables: Table[] = [
      {
        id: 'queries',
        title: `TPC-H SF ${sf}, warm, ${medianOf(runs)} (ms): enginekit, SQLite, DuckDB (1 thread)`,
        columns: [
          { key: 'query', label: 'query' },
          { key: 'rows', label: 'rows' },
          { key: 'engineMs', label: 'enginekit ms', digits: 1 },
          { key: 'sqliteMs', label: 'SQLite ms', digits: 1 },
          { key: 'duckMs', label: 'DuckDB ms', digits: 1 },
          { key: 'vsSqlite', label: 'enginekit / SQLite', digits: 2 },
          { key: 'vsDuck', label: 'enginekit / DuckDB', digits: 2 },
          { key: 'engineMatches', label: 'enginekit = DuckDB' },
          { key: 'sqliteMatches', label: 'SQLite = DuckDB' },
        ],
        rows: resultRows,
        note: `SQLite holds DECIMAL as REAL and DATE as text (date arithmetic on literals folded before it runs); answers are compared to the cent. lineitem scan: \`${SCAN}\`.`,
      },
      {
        id: 'load',
        title: 'Loading the same .tbl files: seconds and file size',
        columns: [
          { key: 'system', label: 'system' },
          { key: 'loadS', label: 'load s', digits: 2 },
          { key: 'mib', label: 'file MiB', digits: 1 },
        ],
        rows: loadRows,
      },
    ];
    const charts: Chart[] = [
      {
        id: 'query-ms',
        kind: 'bars',
        title: 'TPC-H query time, ms (warm)',
        xLabel: 'query',
        yLabel: 'ms',
        series: [
          {
            name: 'enginekit',
            points: resultRows.map((r) => ({ x: String(r.query), y: Number(r.engineMs ?? 0) })),
          },
          {
            name: 'SQLite',
            points: resultRows.map((r) => ({ x: String(r.query), y: Number(r.sqliteMs ?? 0) })),
          },
          {
            name: 'DuckDB',
            points: resultRows.map((r) => ({ x: String(r.query), y: Number(r.duckMs ?? 0) })),
          },
        ],
      },
    ];
    return {
      config: { sf, runs, all: ctx.all === true, queries: list.map((q) => q.name), duckdbThreads: 1, sizes },
      claims,
      tables,
      charts,
      data: detail,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const peers: Experiment = {
  name: 'peers',
  title: 'TPC-H in enginekit, SQLite and DuckDB on the same data: answers, times, load and size',
  post: {
    title: 'The engine beside the embedded databases a user would otherwise pick',
    sources: [],
    claim: 'Every answer matches; the times and ratios say where the engine stands.',
  },
  options: '--sf N (default 0.1; 0.01 with --quick), --all (the 22 queries)',
  run,
};
