import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from '@enginekit/engine';
import { TPCH_QUERY_COUNT, tpchQuery, tpchVariant } from '@enginekit/tpch';
import type { ExperimentContext } from '../../experiment.js';
import { TpchFiles } from '../../internal/tpch-files.js';
import { loadDuckTpch, toDuck } from '../../peers/duckdb-tpch.js';
import { loadSqliteTpch, toSqlite } from '../../peers/sqlite-tpch.js';

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

/** An answer as text cells, NULL spelled out. */
export type Rows = string[][];
const text = (v: unknown): string => (v === null || v === undefined ? 'NULL' : String(v));

interface System {
  readonly name: string;
  run(q: Query): Promise<Rows>;
}

/** One system's runs of one query: its answer, the wall ms of each timed run, or the error it threw. */
export interface QueryRuns {
  readonly rows: Rows;
  readonly ms: number[];
  readonly error?: string;
}

/** One query on the three systems. */
export interface QueryResult {
  readonly query: string;
  readonly enginekit: QueryRuns;
  readonly sqlite: QueryRuns;
  readonly duckdb: QueryRuns;
}

/** What `peers` measures; every field survives JSON. */
export interface PeersMeasurement {
  readonly settings: {
    readonly sf: number;
    readonly runs: number;
    readonly all: boolean;
    readonly queries: readonly string[];
    readonly duckdbThreads: number;
    /** The statement of the `lineitem scan` query. */
    readonly scanStatement: string;
  };
  /** Per query, in `settings.queries` order. */
  readonly results: readonly QueryResult[];
  /** Milliseconds each system took to load the `.tbl` files. */
  readonly loadMs: { readonly enginekit: number; readonly sqlite: number; readonly duckdb: number };
  /** Bytes of each system's database file. */
  readonly sizes: { readonly enginekit: number; readonly sqlite: number; readonly duckdb: number };
}

async function timeQuery(s: System, q: Query, runs: number): Promise<QueryRuns> {
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

export async function measure(ctx: ExperimentContext): Promise<PeersMeasurement> {
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
    const results: QueryResult[] = [];
    try {
      for (const q of list) {
        ctx.log(`peers: ${q.name}`);
        const m: QueryRuns[] = [];
        for (const s of systems) m.push(await timeQuery(s, q, runs));
        const [ek, lite, dk] = m as [QueryRuns, QueryRuns, QueryRuns];
        results.push({ query: q.name, enginekit: ek, sqlite: lite, duckdb: dk });
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
    return {
      settings: {
        sf,
        runs,
        all: ctx.all === true,
        queries: list.map((q) => q.name),
        duckdbThreads: 1,
        scanStatement: SCAN,
      },
      results,
      loadMs: { enginekit: files.loadMs, sqlite: t1 - t0, duckdb: t2 - t1 },
      sizes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
