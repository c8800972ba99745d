// The crash-recovery model the redo tests share: table t (an int key, an indexed int, a padded
// varchar), options small enough that a short workload evicts pages, fills the log and
// checkpoints, a seeded workload of small transactions, and the check of a recovered database
// against the committed states (every tree and index consistent).
import {
  type CrashChooser,
  FaultDevice,
  type FaultPlan,
  type PageDevice,
  SimulatedCrashError,
  seededFate,
  type UnsyncedFate,
} from '@enginekit/buffer-pool';
import { expect } from 'vitest';
import { Database, Session, type DatabaseOptions, type TableSchema } from '../../src/index.js';
import { TableHandler } from '../../src/handler/table-handler.js';

export const SCHEMA: TableSchema = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' } },
    { name: 'a', type: { kind: 'int' } },
    { name: 'pad', type: { kind: 'varchar', length: 300 } },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'i_a', columns: ['a'] }],
};

/** Small everything, so a short workload evicts pages, fills the log and checkpoints. */
export const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 16 * 4096,
  innodb_log_file_size: 65536,
  innodb_log_files_in_group: 2,
  innodb_log_buffer_size: 8192,
};

export type Row = [number, number, string];
export type Op = { kind: 'put'; row: Row } | { kind: 'del'; id: number };

/** A seeded workload: transactions of 1–3 operations over 400 keys. */
export function workload(seed: number, count: number): Op[][] {
  let s = seed >>> 0 || 1;
  const rnd = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: Op[][] = [];
  for (let i = 0; i < count; i++) {
    const trx: Op[] = [];
    const n = 1 + rnd(3);
    for (let k = 0; k < n; k++) {
      const id = rnd(400);
      if (rnd(4) === 0) trx.push({ kind: 'del', id });
      else trx.push({ kind: 'put', row: [id, rnd(40), 'x'.repeat(20 + rnd(250))] });
    }
    out.push(trx);
  }
  return out;
}

/** A new database at `path` with table t. */
export function setup(path: string): void {
  const db = Database.create(path, OPTS);
  db.createTable(SCHEMA);
  db.close();
}

/** The committed states a crashed run leaves: those acknowledged, and with the one committing. */
export interface Committed {
  committed: Map<number, Row>;
  /** The model with the transaction that was committing when the crash came. */
  withPending: Map<number, Row> | null;
}

export function contents(db: Database): Map<number, Row> {
  const out = new Map<number, Row>();
  new TableHandler(db.table('t')).rndScan((r) => {
    const v = r.toArray() as [number, number, string | Uint8Array];
    const pad = typeof v[2] === 'string' ? v[2] : new TextDecoder().decode(v[2]);
    out.set(v[0], [v[0], v[1], pad]);
    return true;
  });
  return out;
}

/** Opens the recovered database and checks it holds exactly the committed rows (or those with the pending one). */
export function checkRecovered(path: string, r: Committed): void {
  const db = Database.open(path, OPTS);
  try {
    const got = contents(db);
    const t = db.table('t');
    t.checkIndexes();
    for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
    db.pool.checkValid();
    expect(t.rows).toBe(got.size);
    const sorted = (m: Map<number, Row>) => [...m.entries()].sort((a, b) => a[0] - b[0]);
    if (r.withPending !== null && sorted(got).length === r.withPending.size) {
      const a = JSON.stringify(sorted(got));
      if (a === JSON.stringify(sorted(r.withPending))) return;
    }
    expect(sorted(got)).toEqual(sorted(r.committed));
  } finally {
    db.close();
  }
}

/** What {@link runOnFaults} saw: the committed states, and how far the plan got. */
export interface RunResult extends Committed {
  crashed: boolean;
  writes: number;
  syncs: number;
  /** The first commit was acknowledged (a created database and its table t are durable). */
  acknowledged: boolean;
  /** The table after 0, 1, 2, … acknowledged commits ({@link canonical} form). */
  history: string[];
}

export interface RunOptions {
  /** Create the database (and table t) on the fault devices instead of opening it. Default false. */
  readonly create?: boolean;
  /** Tell the plan of the engine's directory fsyncs (`onDirectorySync`). Default true. */
  readonly directorySyncs?: boolean;
  /** Receives the plan's write number of every in-place data page write. */
  readonly dataWrites?: number[];
  /** `innodb_flush_log_at_trx_commit` of the run (default 1: a commit returns once durable). */
  readonly flushLogAtTrxCommit?: 0 | 1 | 2;
}

/**
 * Runs the workload's transactions over SQL, every file on a {@link FaultDevice} of `plan` (new
 * files marked created, so a crash may take them away until their directory is synced), until
 * the workload ends or the plan crashes; then `fate` decides what every device keeps.
 */
export function runOnFaults(
  path: string,
  plan: FaultPlan,
  fate: UnsyncedFate,
  trxs: Op[][],
  o: RunOptions = {},
): RunResult {
  const devs: FaultDevice[] = [];
  const dataWrites = o.dataWrites;
  const wrapDevice = (d: PageDevice, role: string, created: boolean): PageDevice => {
    const f = new FaultDevice(d, plan, { created });
    devs.push(f);
    if (role !== 'data' || dataWrites === undefined) return f;
    const write = f.writePage.bind(f);
    f.writePage = (p: number, src: Uint8Array, off: number) => {
      dataWrites.push(plan.writes + 1);
      write(p, src, off);
    };
    return f;
  };
  const options: DatabaseOptions = {
    ...OPTS,
    ...(o.flushLogAtTrxCommit === undefined ? {} : { innodb_flush_log_at_trx_commit: o.flushLogAtTrxCommit }),
    wrapDevice,
    ...(o.directorySyncs === false ? {} : { onDirectorySync: (dir: string) => plan.syncDirectory(dir) }),
  };
  const committed = new Map<number, Row>();
  let withPending: Map<number, Row> | null = null;
  let acknowledged = false;
  const history = [canonical(committed)];
  let db: Database | undefined;
  let crashed = false;
  try {
    if (o.create === true) {
      db = Database.create(path, options);
      db.createTable(SCHEMA);
    } else db = Database.open(path, options);
    const t = db.table('t');
    const sql = new Session(db);
    for (const ops of trxs) {
      const next = new Map(committed);
      sql.query('BEGIN');
      for (const op of ops) {
        if (op.kind === 'put') {
          const [id, a, pad] = op.row;
          if (new TableHandler(t).get([id]) === undefined)
            sql.query('INSERT INTO t VALUES (?, ?, ?)', [id, a, pad]);
          else sql.query('UPDATE t SET a = ?, pad = ? WHERE id = ?', [a, pad, id]);
          next.set(id, op.row);
        } else {
          sql.query('DELETE FROM t WHERE id = ?', [op.id]);
          next.delete(op.id);
        }
      }
      withPending = next;
      // the session waits for the commit to be durable (innodb_flush_log_at_trx_commit=1)
      sql.query('COMMIT');
      acknowledged = true;
      withPending = null;
      for (const k of [...committed.keys()]) if (!next.has(k)) committed.delete(k);
      for (const [k, v] of next) committed.set(k, v);
      history.push(canonical(committed));
    }
    db.close();
  } catch (e) {
    if (!(e instanceof SimulatedCrashError) && !plan.crashed) throw e;
    crashed = true;
    for (const d of devs) {
      try {
        d.crash(fate);
      } catch {
        // a device already closed by the failed open
      }
    }
    db?.abandon();
  }
  return { committed, withPending, crashed, writes: plan.writes, syncs: plan.syncs, acknowledged, history };
}

/** A table state as one comparable string (rows in key order). */
export function canonical(m: Map<number, Row>): string {
  return JSON.stringify([...m.entries()].sort((a, b) => a[0] - b[0]));
}

/**
 * Opens the recovered database and checks it holds exactly the state after some prefix of the
 * run's commits — at least `durable` of them (every commit acknowledged as durable), at most all
 * acknowledged ones plus the one committing — with every tree and index consistent. Returns the
 * prefix's length.
 */
export function checkRecoveredPrefix(path: string, r: RunResult, durable: number): number {
  const db = Database.open(path, OPTS);
  try {
    const got = contents(db);
    const t = db.table('t');
    t.checkIndexes();
    for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
    db.pool.checkValid();
    expect(t.rows).toBe(got.size);
    const states = r.withPending === null ? r.history : [...r.history, canonical(r.withPending)];
    const text = canonical(got);
    const k = states.lastIndexOf(text);
    if (k < durable)
      expect.fail(
        `recovered ${got.size} rows, not the state after any prefix of ${durable} to ${states.length - 1} commits`,
      );
    return k;
  } finally {
    db.close();
  }
}

/**
 * Seeded crash points per mode in the reordering runs: `ENGINEKIT_REORDER_POINTS` (a positive
 * integer) for a deeper search than the default, which keeps each test file within its time.
 */
export function reorderPointCount(fallback: number): number {
  const v = process.env.ENGINEKIT_REORDER_POINTS;
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`ENGINEKIT_REORDER_POINTS must be a positive integer, got ${v}`);
  return n;
}

/** A seeded crash point of the reordering mode. */
export interface ReorderPoint {
  /** Seeds the crash's choices ({@link countingFate}). */
  readonly seed: number;
  readonly at: 'write' | 'sync';
  readonly n: number;
  readonly tear: boolean;
}

/**
 * `count` crash points drawn from `seed` over a run of `writes` writes and `syncs` syncs: three in
 * four at a write (half of those torn), the rest at a sync, each with its own seed for what the
 * crash keeps.
 */
export function reorderPoints(writes: number, syncs: number, count: number, seed: number): ReorderPoint[] {
  let s = seed >>> 0 || 1;
  const rnd = (n: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  return Array.from({ length: count }, () => {
    const atWrite = rnd(4) !== 0;
    return {
      seed: 1 + rnd(0x7fffffff),
      at: atWrite ? 'write' : 'sync',
      n: 1 + rnd(atWrite ? writes : syncs),
      tear: atWrite && rnd(2) === 0,
    };
  });
}

/** What reordering crashes chose, summed: proof that the mode reorders rather than keeps a prefix. */
export interface ReorderTally {
  /** Pages left as the last sync left them although they had unsynced writes. */
  dropped: number;
  /** Pages that kept their latest unsynced write. */
  latest: number;
  /** Pages that kept an older unsynced write although a newer one to the same place existed. */
  older: number;
  /** New files whose entries (never made durable) were dropped. */
  vanished: number;
}

/** {@link seededFate}, adding what it chose to `tally`. */
export function countingFate(seed: number, tally: ReorderTally): CrashChooser {
  const f = seededFate(seed);
  return {
    pickVersion: (d, p, n) => {
      const i = f.pickVersion(d, p, n);
      if (i < 0) tally.dropped++;
      else if (i === n - 1) tally.latest++;
      else tally.older++;
      return i;
    },
    keepEntry: (d) => {
      const keep = f.keepEntry(d);
      if (!keep) tally.vanished++;
      return keep;
    },
  };
}
