import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, FileDevice, MemoryDevice } from '@enginekit/buffer-pool';
import { Database, Session } from '@enginekit/engine';
import { buildIndex, insertEach, insertSink } from '@enginekit/merge-sort-index';
import Sqlite from 'better-sqlite3';
import type { ExperimentContext } from '../../experiment.js';
import { onExit } from '../../internal/cleanup.js';
import { medianOf } from '../../internal/runs.js';
import {
  C_LENGTH,
  idxCEntries,
  SBTEST_DDL,
  type SbtestRows,
  sbtestInserts,
  sbtestRows,
} from '../../internal/sbtest-rows.js';
import { deriveSeed } from '../../internal/seeds.js';
import { type Spread, spread, timeInterleaved } from '../../measure.js';
import { findMariaDb, MARIADB_ABSENT, MariaDb } from '../../peers/mariadb.js';

const M = 1 << 20;

/** A fresh secondary-index tree in a pool that holds it (memory device: CPU-bound, as the post's laptop run). */
function newTree(rows: number): BTree {
  const size = Math.max(64, Math.ceil((rows * 130 * 2) / M / 16) * 16) * M;
  const pool = new BufferPool({ innodb_buffer_pool_size: size });
  pool.registerSpace(1, new MemoryDevice());
  return BTree.create(pool, { space: 1, unique: true, clustered: false });
}

/** A fresh tree in a pool of `poolBytes` over a file (IO-bound once the index outgrows it); `done` removes the file. */
function fileTree(poolBytes: number): { tree: BTree; pool: BufferPool; done: () => void } {
  const dir = mkdtempSync(join(process.env.ENGINEKIT_BENCH_DIR ?? tmpdir(), 'enginekit-bench-index-'));
  const pool = new BufferPool({ innodb_buffer_pool_size: poolBytes });
  pool.registerSpace(1, new FileDevice(join(dir, 'index.ibd'), { truncate: true }));
  return {
    tree: BTree.create(pool, { space: 1, unique: true, clustered: false }),
    pool,
    done: () => {
      pool.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SQLite's CREATE INDEX on the same (id, c) rows; loading the table is not timed. */
function sqliteCreateIndex(t: SbtestRows): number {
  const dir = mkdtempSync(join(process.env.ENGINEKIT_BENCH_DIR ?? tmpdir(), 'enginekit-bench-sqlite-'));
  try {
    const db = new Sqlite(join(dir, 'peer.db'));
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec('CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, c BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO sbtest1 (id, c) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < t.rows; i++) insert.run(i + 1, t.c.subarray(i * C_LENGTH, (i + 1) * C_LENGTH));
    })();
    const t0 = performance.now();
    db.exec('CREATE INDEX idx_c ON sbtest1 (c)');
    const ms = performance.now() - t0;
    const n = (
      db.prepare('SELECT count(*) AS n FROM sbtest1 INDEXED BY idx_c WHERE c >= ?').get(Buffer.alloc(0)) as {
        n: number;
      }
    ).n;
    db.close();
    if (n !== t.rows) throw new Error(`SQLite's index holds ${n} rows, expected ${t.rows}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Contender {
  readonly label: string;
  readonly build: (t: SbtestRows, tree: BTree) => { runs: number; passes: number };
}

/** How the index entries reach the tree in each server version. */
const CONTENDERS: readonly Contender[] = [
  ...[1, 8].map((mb) => ({
    label: `sorted, bulk load (5.7), sort buffer ${mb}M`,
    build: (t: SbtestRows, tree: BTree) => {
      const r = buildIndex(idxCEntries(t), tree.bulkLoader(), { innodb_sort_buffer_size: mb * M });
      return { runs: r.stats.runs, passes: r.stats.passes };
    },
  })),
  ...[1, 8].map((mb) => ({
    label: `sorted, row-by-row insert (5.5/5.6), sort buffer ${mb}M`,
    build: (t: SbtestRows, tree: BTree) => {
      const r = buildIndex(idxCEntries(t), insertSink(tree), {
        mechanics: 'mysql56',
        innodb_sort_buffer_size: mb * M,
      });
      return { runs: r.stats.runs, passes: r.stats.passes };
    },
  })),
  {
    label: 'unsorted, insert each in table order (copy with fast index creation OFF)',
    build: (t, tree) => {
      insertEach(idxCEntries(t), tree);
      return { runs: 0, passes: 0 };
    },
  },
];

/** The SQL path on one system: milliseconds of each statement. */
export interface SqlTimes {
  loadMs: number;
  addIndexMs: number;
  addColumnOffMs: number | null;
  addColumnOnMs: number | null;
  /**
   * The build at innodb_sort_buffer_size 1M and 8M, rounds alternated, each after a restart with
   * that size: enginekit's copying ADD COLUMN with expand_fast_index_creation (the post's
   * statement), MariaDB's ADD INDEX (it has no expand_fast_index_creation).
   */
  sortBuffer1M: number[];
  sortBuffer8M: number[];
  note: string;
}

async function timedStatement(run: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

/** `build` timed at innodb_sort_buffer_size 1M and 8M, alternated for `rounds` rounds. */
async function sortBufferRounds(
  rounds: number,
  build: (sortBufferBytes: number) => Promise<number>,
): Promise<{ sortBuffer1M: number[]; sortBuffer8M: number[] }> {
  const out = { sortBuffer1M: [] as number[], sortBuffer8M: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    out.sortBuffer1M.push(await build(M));
    out.sortBuffer8M.push(await build(8 * M));
  }
  return out;
}

async function engineTimes(t: SbtestRows, rounds: number): Promise<SqlTimes> {
  const dir = mkdtempSync(join(process.env.ENGINEKIT_BENCH_DIR ?? tmpdir(), 'enginekit-bench-index-'));
  const release = onExit(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'sbtest.ekdb');
  const open = (innodb_sort_buffer_size: number): { db: Database; s: Session } => {
    const db = Database.open(path, { innodb_buffer_pool_size: 512 * M, innodb_sort_buffer_size });
    return { db, s: new Session(db) };
  };
  try {
    let db = Database.create(path, { innodb_buffer_pool_size: 512 * M });
    let s = new Session(db);
    s.query(SBTEST_DDL);
    const loadMs = await timedStatement(() => {
      for (const q of sbtestInserts(t, 1000)) s.query(q);
    });
    const addIndexMs = await timedStatement(() => s.query('ALTER TABLE sbtest1 ADD INDEX idx_c (c)'));
    s.query('SET expand_fast_index_creation=OFF');
    const addColumnOffMs = await timedStatement(() =>
      s.query('ALTER TABLE sbtest1 ADD COLUMN d INT DEFAULT 0'),
    );
    s.query('ALTER TABLE sbtest1 DROP COLUMN d');
    s.query('SET expand_fast_index_creation=ON');
    const addColumnOnMs = await timedStatement(() =>
      s.query('ALTER TABLE sbtest1 ADD COLUMN d INT DEFAULT 0'),
    );
    s.query('ALTER TABLE sbtest1 DROP COLUMN d');
    s.close();
    db.close();
    const sizes = await sortBufferRounds(rounds, async (bytes) => {
      ({ db, s } = open(bytes));
      s.query('SET expand_fast_index_creation=ON');
      const ms = await timedStatement(() => s.query('ALTER TABLE sbtest1 ADD COLUMN d INT DEFAULT 0'));
      s.query('ALTER TABLE sbtest1 DROP COLUMN d');
      s.close();
      db.close();
      return ms;
    });
    return {
      loadMs,
      addIndexMs,
      addColumnOffMs,
      addColumnOnMs,
      ...sizes,
      note: `ADD COLUMN with expand_fast_index_creation at innodb_sort_buffer_size 1M and 8M: the database reopened with each size (a startup option, as in MySQL), ${medianOf(rounds, 'alternated round')}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    release();
  }
}

async function mariaTimes(
  t: SbtestRows,
  rounds: number,
  log: (l: string) => void,
): Promise<SqlTimes | undefined> {
  const binaries = findMariaDb();
  if (binaries === undefined) return undefined;
  const server = await MariaDb.start(binaries, { innodb_buffer_pool_size: 512 * M, log });
  try {
    await server.query(SBTEST_DDL);
    const loadMs = await timedStatement(async () => {
      for (const q of sbtestInserts(t, 1000)) await server.query(q);
    });
    const addIndexMs = await timedStatement(() =>
      server.query('ALTER TABLE sbtest1 ADD INDEX idx_c (c), ALGORITHM=INPLACE'),
    );
    // MariaDB has no expand_fast_index_creation: a copying ALTER maintains every index row by row.
    const addColumnOffMs = await timedStatement(() =>
      server.query('ALTER TABLE sbtest1 ADD COLUMN d INT DEFAULT 0, ALGORITHM=COPY'),
    );
    await server.query('ALTER TABLE sbtest1 DROP INDEX idx_c');
    const sizes = await sortBufferRounds(rounds, async (bytes) => {
      server.extraArgs = [`--innodb-sort-buffer-size=${bytes}`];
      await server.restart(512 * M);
      const ms = await timedStatement(() =>
        server.query('ALTER TABLE sbtest1 ADD INDEX idx_c (c), ALGORITHM=INPLACE'),
      );
      await server.query('ALTER TABLE sbtest1 DROP INDEX idx_c');
      return ms;
    });
    return {
      loadMs,
      addIndexMs,
      addColumnOffMs,
      addColumnOnMs: null,
      ...sizes,
      note: `${binaries.version}: ADD COLUMN with ALGORITHM=COPY (no expand_fast_index_creation); ADD INDEX in place at innodb_sort_buffer_size 1M and 8M, restarted with each size, ${medianOf(rounds, 'alternated round')}`,
    };
  } finally {
    await server.stop();
  }
}

/** Sorted runs and merge passes of one package-path build, and the records its tree holds. */
export interface BuildShape {
  readonly runs: number;
  readonly passes: number;
  readonly records: number;
}

/** What `index-build` measures; every field survives JSON (`mariadb` is undefined without MariaDB). */
export interface IndexBuildMeasurement {
  readonly settings: {
    readonly rows: number;
    readonly rounds: number;
    readonly sortBufferSizes: readonly number[];
    /** The pool of the IO-bound builds. */
    readonly ioPoolBytes: number;
    /** The package path's mechanics, in order. */
    readonly contenders: readonly string[];
    /** The mechanics also run over a file, in order. */
    readonly ioContenders: readonly string[];
    /** The MariaDB found on this machine, or null. */
    readonly mariadb: string | null;
  };
  /** One build per mechanics, untimed: its shape. */
  readonly shape: readonly BuildShape[];
  /** Milliseconds per mechanics, interleaved rounds. */
  readonly times: readonly Spread[];
  /** SQLite's CREATE INDEX, milliseconds per round. */
  readonly sqlite: Spread;
  /** Milliseconds per IO-bound mechanics. */
  readonly ioTimes: readonly Spread[];
  readonly engine: SqlTimes;
  readonly mariadb: SqlTimes | undefined;
}

export async function measure(ctx: ExperimentContext): Promise<IndexBuildMeasurement> {
  const rows = ctx.quick ? 20_000 : 300_000;
  const rounds = ctx.quick ? 1 : 3;
  ctx.log(`index-build: ${rows} sbtest1 rows`);
  const t = sbtestRows(rows, deriveSeed(ctx.seed, 'sbtest1'));
  const shape: BuildShape[] = [];
  for (const c of CONTENDERS) {
    const tree = newTree(rows);
    const r = c.build(t, tree);
    shape.push({ ...r, records: tree.checkValid().records });
  }
  ctx.log('index-build: package path, interleaved rounds');
  const times = timeInterleaved(
    CONTENDERS.map((c) => () => void c.build(t, newTree(rows))),
    rounds,
  );
  const sqliteMs = spread(Array.from({ length: rounds }, () => sqliteCreateIndex(t)));
  // IO-bound: an 8 MiB pool over a file (1 MiB with --quick) against an index several times larger.
  const poolBytes = ctx.quick ? M : 8 * M;
  ctx.log(`index-build: package path over a file with a ${poolBytes / M} MiB pool`);
  const ioCases = [CONTENDERS[0], CONTENDERS[2], CONTENDERS[4]] as Contender[];
  const ioTimes = ioCases.map((c) => {
    const samples: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const { tree, pool, done } = fileTree(poolBytes);
      const t0 = performance.now();
      c.build(t, tree);
      pool.flushAll();
      samples.push(performance.now() - t0);
      done();
    }
    return spread(samples);
  });
  ctx.log('index-build: engine SQL path');
  const engine = await engineTimes(t, rounds);
  const maria = await mariaTimes(t, rounds, ctx.log);
  if (maria === undefined) ctx.log(MARIADB_ABSENT);

  return {
    settings: {
      rows,
      rounds,
      sortBufferSizes: [M, 8 * M],
      ioPoolBytes: poolBytes,
      contenders: CONTENDERS.map((c) => c.label),
      ioContenders: ioCases.map((c) => c.label),
      mariadb: findMariaDb()?.version ?? null,
    },
    shape,
    times,
    sqlite: sqliteMs,
    ioTimes,
    engine,
    mariadb: maria,
  };
}
