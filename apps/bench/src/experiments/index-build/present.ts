import type { ExperimentOutput } from '../../experiment.js';
import { medianOf, medianRange } from '../../internal/runs.js';
import { round, spread } from '../../measure.js';
import { MARIADB_ABSENT } from '../../peers/mariadb.js';
import type { Chart, Claim, Column, Table } from '../../result.js';
import type { IndexBuildMeasurement } from './measure.js';

const M = 1 << 20;

/** Bars for the rows that have a figure (a statement a system did not run gets no bar). */
function barsOf<R extends { readonly op: string }>(
  rows: readonly R[],
  y: (r: R) => number | null,
): { x: string; y: number }[] {
  return rows.flatMap((r) => {
    const v = y(r);
    return v === null ? [] : [{ x: r.op, y: v }];
  });
}

/** The columns of a timed build: median and min–max of the rounds, and the ratio to the 1M bulk load. */
const TIME_COLUMNS: readonly Column[] = [
  { key: 'contender', label: 'mechanics' },
  { key: 'ms', label: 'ms', digits: 1 },
  { key: 'min', label: 'min', digits: 1 },
  { key: 'max', label: 'max', digits: 1 },
  { key: 'vsBulk', label: '× bulk load 1M', digits: 2 },
];

/** 8M's time over 1M's: ≤ 0.95 holds, ≥ 1 does not, in between is within the noise (null). */
export function sortBufferVerdict(ratio: number): boolean | null {
  return ratio <= 0.95 ? true : ratio >= 1 ? false : null;
}

const medianMs = (xs: readonly number[]): number | null => (xs.length === 0 ? null : spread([...xs]).median);

/** The claims, tables and charts of `index-build`, computed from its measurement alone. */
export function present(m: IndexBuildMeasurement): ExperimentOutput {
  const { rows, rounds, ioPoolBytes: poolBytes, contenders, ioContenders } = m.settings;
  const { shape, times, ioTimes, engine } = m;
  const sqliteMs = m.sqlite;
  const maria = m.mariadb;
  const fastest = times[0]?.median ?? 1;
  const pkgRows: Record<string, string | number | null>[] = contenders.map((label, i) => ({
    contender: label,
    ms: round(times[i]?.median ?? 0, 1),
    min: round(times[i]?.min ?? 0, 1),
    max: round(times[i]?.max ?? 0, 1),
    vsBulk: round((times[i]?.median ?? 0) / fastest, 2),
    runs: shape[i]?.runs ?? 0,
    passes: shape[i]?.passes ?? 0,
    records: shape[i]?.records ?? 0,
  }));
  pkgRows.push({
    contender: 'SQLite CREATE INDEX (better-sqlite3, the peer)',
    ms: round(sqliteMs.median, 1),
    min: round(sqliteMs.min, 1),
    max: round(sqliteMs.max, 1),
    vsBulk: round(sqliteMs.median / fastest, 2),
    runs: null,
    passes: null,
    records: rows,
  });
  const ioRows = ioContenders.map((label, i) => ({
    contender: label,
    ms: round(ioTimes[i]?.median ?? 0, 1),
    min: round(ioTimes[i]?.min ?? 0, 1),
    max: round(ioTimes[i]?.max ?? 0, 1),
    vsBulk: round((ioTimes[i]?.median ?? 0) / Math.max(1e-9, ioTimes[0]?.median ?? 1), 2),
  }));
  const s = (ms: number | null | undefined): number | null =>
    ms === null || ms === undefined ? null : round(ms / 1000, 2);
  const sqlRows = [
    {
      op: 'ADD INDEX idx_c (c), in place',
      post55: 4.37,
      postPercona: 3.9,
      engine: s(engine.addIndexMs),
      maria: s(maria?.addIndexMs),
    },
    {
      op: 'ADD COLUMN d (copy), expand_fast_index_creation OFF',
      post55: 37.05,
      postPercona: null,
      engine: s(engine.addColumnOffMs),
      maria: s(maria?.addColumnOffMs),
    },
    {
      op: 'ADD COLUMN d (copy), expand_fast_index_creation ON, 1M',
      post55: null,
      postPercona: 9.51,
      engine: s(engine.addColumnOnMs),
      maria: null,
    },
    {
      op: `sort buffer 1M, ${medianOf(rounds)} (ADD COLUMN as above; ADD INDEX for MariaDB)`,
      post55: null,
      postPercona: 9.51,
      engine: s(medianMs(engine.sortBuffer1M)),
      maria: s(medianMs(maria?.sortBuffer1M ?? [])),
    },
    {
      op: `sort buffer 8M, ${medianOf(rounds)} (the same)`,
      post55: null,
      postPercona: 8.61,
      engine: s(medianMs(engine.sortBuffer8M)),
      maria: s(medianMs(maria?.sortBuffer8M ?? [])),
    },
    {
      op: 'loading the rows (INSERT, 1000 a statement)',
      post55: null,
      postPercona: null,
      engine: s(engine.loadMs),
      maria: s(maria?.loadMs),
    },
  ];
  const insertEachMs = times[4]?.median ?? 0;
  const bulk1 = times[0]?.median ?? 0;
  const e1 = medianMs(engine.sortBuffer1M);
  const e8 = medianMs(engine.sortBuffer8M);
  const m1 = medianMs(maria?.sortBuffer1M ?? []);
  const m8 = medianMs(maria?.sortBuffer8M ?? []);
  const claims: Claim[] = [
    {
      text: 'every way of building the index gives the same tree contents',
      post: '—',
      ours: `records ${shape.map((x) => x.records).join(' / ')} of ${rows}`,
      holds: shape.every((x) => x.records === rows),
    },
    {
      text: 'a copying ALTER that maintains the secondary index row by row is several times slower than building it after by merge sort',
      post: '37.05 s vs 9.51 s (×3.9)',
      ours: `package path ×${round(insertEachMs / Math.max(1e-9, bulk1), 2)} (insert-each vs sorted bulk load); engine SQL ×${round((engine.addColumnOffMs ?? 0) / Math.max(1e-9, engine.addColumnOnMs ?? 1), 2)} (ADD COLUMN OFF vs ON)`,
      holds: null,
    },
    {
      text: 'an 8 MB sort buffer builds the index faster than 1 MB (the time the post measured)',
      post: '9.51 s → 8.61 s (×0.91), ADD COLUMN with expand_fast_index_creation',
      ours: `engine SQL ${s(e1)} s → ${s(e8)} s (×${round((e8 ?? 0) / Math.max(1e-9, e1 ?? 1), 2)}, ADD COLUMN)${
        maria === undefined
          ? ''
          : `; MariaDB ${s(m1)} s → ${s(m8)} s (×${round((m8 ?? 0) / Math.max(1e-9, m1 ?? 1), 2)}, ADD INDEX)`
      }; ${medianOf(rounds, 'alternated round')}`,
      // judged on medians of alternated rounds only (one run each is noise): faster by 5 % or
      // more (about half the post's gain) holds, not faster does not, in between is the noise
      holds: rounds >= 3 && e1 !== null && e8 !== null ? sortBufferVerdict(e8 / e1) : null,
    },
    {
      text: 'the mechanism: a larger sort buffer needs fewer sorted runs and merge passes',
      post: 'an 8 MB merge block instead of 1 MB',
      ours: `package path: runs ${shape[0]?.runs} → ${shape[1]?.runs}, passes ${shape[0]?.passes} → ${shape[1]?.passes}`,
      holds:
        (shape[1]?.runs ?? 0) <= (shape[0]?.runs ?? 0) && (shape[1]?.passes ?? 0) <= (shape[0]?.passes ?? 0),
    },
  ];
  const tables: Table[] = [
    {
      id: 'alter',
      title: `ALTER TABLE on sbtest1 (${rows.toLocaleString('en-US')} rows), seconds: the post, the engine (SQL), MariaDB`,
      columns: [
        { key: 'op', label: 'statement' },
        { key: 'post55', label: 'post: MySQL 5.5', digits: 2 },
        { key: 'postPercona', label: 'post: Percona 5.5', digits: 2 },
        { key: 'engine', label: 'engine SQL', digits: 2 },
        { key: 'maria', label: 'MariaDB', digits: 2 },
      ],
      rows: sqlRows,
      note: `Engine: ${engine.note}. MariaDB: ${maria?.note ?? MARIADB_ABSENT}. The other rows: one run each.`,
    },
    {
      id: 'mechanics',
      title: `How the idx_c entries reach the tree (package path, ${medianOf(rounds, 'interleaved round')}, ms)`,
      columns: [
        ...TIME_COLUMNS,
        { key: 'runs', label: 'sorted runs' },
        { key: 'passes', label: 'merge passes' },
        { key: 'records', label: 'records' },
      ],
      rows: pkgRows,
      note: '@enginekit/merge-sort-index into @enginekit/btree-sampler on a pool that holds the tree: 5.7 bulk-loads the sorted run bottom-up; 5.5/5.6 (row_merge_insert_index_tuples) insert the sorted entries one by one from the root; a copy without fast index creation inserts in table order.',
    },
  ];
  tables.push({
    id: 'io-bound',
    title: `The same builds with a ${poolBytes / M} MiB pool over a file (wall ms, ${medianOf(rounds)})`,
    columns: TIME_COLUMNS,
    rows: ioRows,
    note: 'The index (~130 bytes an entry) is several times the pool: the bulk loader writes each page once, in order; inserting entry by entry evicts and rereads pages.',
  });
  const charts: Chart[] = [
    {
      id: 'mechanics',
      kind: 'bars',
      title: `Index build time by mechanics (package path), ${medianRange(rounds)}`,
      xLabel: 'mechanics',
      yLabel: 'ms',
      series: [
        {
          name: 'ms',
          points: pkgRows.map((r) => ({
            x: String(r.contender),
            y: Number(r.ms),
            low: Number(r.min),
            high: Number(r.max),
          })),
        },
      ],
    },
    // The post's seconds (300,000 rows on the author's laptop) and ours (this run's rows, this
    // machine) are different scales: each gets a panel of its own.
    {
      id: 'alter-post',
      kind: 'bars',
      title:
        "ALTER TABLE seconds in the post: MySQL 5.5 and Percona Server 5.5, 300,000 rows, the author's laptop",
      xLabel: 'statement',
      yLabel: 's (the post)',
      series: [
        {
          name: 'the post',
          points: sqlRows.flatMap((r) => {
            const y = r.post55 ?? r.postPercona;
            return y === null ? [] : [{ x: r.op, y }];
          }),
        },
      ],
    },
    {
      id: 'alter',
      kind: 'bars',
      title: `ALTER TABLE seconds in this run: the engine's SQL${maria ? ' and MariaDB' : ''}, ${rows.toLocaleString('en-US')} rows, this machine`,
      xLabel: 'statement',
      yLabel: 's (this run)',
      series: [
        { name: 'engine SQL', points: barsOf(sqlRows.slice(0, 4), (r) => r.engine) },
        ...(maria ? [{ name: 'MariaDB', points: barsOf(sqlRows.slice(0, 4), (r) => r.maria) }] : []),
      ],
    },
  ];
  return {
    config: {
      rows,
      rounds,
      innodb_sort_buffer_size: m.settings.sortBufferSizes,
      ioPoolBytes: poolBytes,
      paths: {
        packages: 'ran: merge-sort-index mechanics into btree-sampler',
        engineSql:
          'ran: CREATE TABLE, INSERT, ALTER TABLE through the Session (innodb_sort_buffer_size 1M and 8M, set at open)',
        mariadb: m.settings.mariadb ?? 'not installed',
      },
    },
    claims,
    tables,
    charts,
    data: {
      times: times.map((x, i) => ({ contender: contenders[i], ...spread(x.samples) })),
      shape,
      engine,
      mariadb: maria,
    },
  };
}
