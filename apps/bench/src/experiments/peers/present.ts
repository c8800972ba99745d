import type { ExperimentOutput } from '../../experiment.js';
import { medianOf } from '../../internal/runs.js';
import { round, spread } from '../../measure.js';
import type { Chart, Claim, Table } from '../../result.js';
import type { PeersMeasurement, QueryRuns, Rows } from './measure.js';

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

/** The claims, tables and charts of `peers`, computed from its measurement alone. */
export function present(m: PeersMeasurement): ExperimentOutput {
  const { sf, runs, all, queries, duckdbThreads } = m.settings;
  const sizes = m.sizes;
  const med = (x: QueryRuns): number | null => (x.ms.length ? spread(x.ms).median : null);
  const resultRows: Record<string, string | number | boolean | null>[] = m.results.map((r) => {
    const { enginekit: ek, sqlite: lite, duckdb: dk } = r;
    const e = med(ek);
    const l = med(lite);
    const d = med(dk);
    return {
      query: r.query,
      rows: dk.rows.length,
      engineMs: e === null ? null : round(e, 1),
      sqliteMs: l === null ? null : round(l, 1),
      duckMs: d === null ? null : round(d, 1),
      vsSqlite: e !== null && l ? round(e / l, 2) : null,
      vsDuck: e !== null && d ? round(e / d, 2) : null,
      engineMatches: ek.error ? `error: ${ek.error}` : sameAnswer(ek.rows, dk.rows),
      sqliteMatches: lite.error ? `error: ${lite.error}` : sameAnswer(lite.rows, dk.rows),
    };
  });
  const loadRows = [
    {
      system: 'enginekit (loadTpch: bulk load, DBT3 indexes)',
      loadS: round(m.loadMs.enginekit / 1000, 2),
      mib: round(sizes.enginekit / 2 ** 20, 1),
    },
    {
      system: 'SQLite (INSERT in one transaction, DBT3 indexes, ANALYZE)',
      loadS: round(m.loadMs.sqlite / 1000, 2),
      mib: round(sizes.sqlite / 2 ** 20, 1),
    },
    {
      system: 'DuckDB (read_csv, no indexes)',
      loadS: round(m.loadMs.duckdb / 1000, 2),
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
      note: `SQLite holds DECIMAL as REAL and DATE as text (date arithmetic on literals folded before it runs); answers are compared to the cent. lineitem scan: \`${m.settings.scanStatement}\`.`,
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
    config: { sf, runs, all, queries, duckdbThreads, sizes },
    claims,
    tables,
    charts,
    data: m.results,
  };
}
