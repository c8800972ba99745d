// The shared redo log against a model, under power cuts: the database the "main thread" opened is
// shared (shareDatabase) and two more Database objects attach to it (attachDatabase: the same
// code a worker thread runs, here on this thread so that one FaultPlan governs every device of
// every "thread"). SQL transactions (undo in undo pages) run on the three in turn, each writing
// through its own mini-transactions, its own handles on the data, log and doublewrite files, its
// own doublewrite region and its own synchronous flushes when the tiny log fills. The devices
// crash at the N-th write or fsync, torn or not, unsynced writes lost or kept; the reopened
// database holds exactly the committed transactions (or those plus the one committing), every
// tree and index consistent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FaultDevice,
  FaultPlan,
  type PageDevice,
  SimulatedCrashError,
  type UnsyncedFate,
} from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { attachDatabase, Database, Session, shareDatabase } from '../../../src/index.js';

import {
  canonical,
  checkRecovered,
  checkRecoveredPrefix,
  countingFate,
  type RunResult as ModelRun,
  OPTS,
  type Op,
  type ReorderTally,
  reorderPointCount,
  reorderPoints,
  type Row,
  setup,
  workload,
} from '../../helpers/crash-model.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-shared-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface RunResult extends ModelRun {
  /** Doublewrite batches written, by region, and synchronous flushes (when no crash came). */
  batches: number;
  syncFlushes: number;
}

/** Runs the workload on three "threads" over fault devices until it ends or the plan crashes. */
function run(path: string, plan: FaultPlan, fate: UnsyncedFate, trxs: Op[][], flush: 1 | 2 = 1): RunResult {
  const devs: FaultDevice[] = [];
  const wrapDevice = (d: PageDevice): PageDevice => {
    const f = new FaultDevice(d, plan);
    devs.push(f);
    return f;
  };
  const committed = new Map<number, Row>();
  let withPending: Map<number, Row> | null = null;
  const history = [canonical(committed)];
  const dbs: Database[] = [];
  let crashed = false;
  let batches = 0;
  let syncFlushes = 0;
  try {
    const main = Database.open(path, { ...OPTS, innodb_flush_log_at_trx_commit: flush, wrapDevice });
    dbs.push(main);
    main.pageCleaner!.stop(); // every write comes from the workload: crash points are reproducible
    const share = shareDatabase(main, 2);
    dbs.push(attachDatabase(share(1), { wrapDevice }), attachDatabase(share(2), { wrapDevice }));
    const sessions = dbs.map((d) => new Session(d));
    for (const [i, ops] of trxs.entries()) {
      const db = dbs[i % 3]!;
      const sql = sessions[i % 3]!;
      const t = db.table('t');
      const next = new Map(committed);
      sql.query('BEGIN');
      for (const op of ops) {
        if (op.kind === 'put') {
          const [id, a, pad] = op.row;
          if (next.has(id)) sql.query('UPDATE t SET a = ?, pad = ? WHERE id = ?', [a, pad, id]);
          else sql.query('INSERT INTO t VALUES (?, ?, ?)', [id, a, pad]);
          next.set(id, op.row);
        } else {
          sql.query('DELETE FROM t WHERE id = ?', [op.id]);
          next.delete(op.id);
        }
      }
      // One row count for the three objects of the table (a server shares it through WorkerShared).
      for (const o of dbs) o.table('t').rows = t.rows;
      withPending = next;
      // the session waits for the commit to be durable (innodb_flush_log_at_trx_commit=1)
      sql.query('COMMIT');
      withPending = null;
      for (const k of [...committed.keys()]) if (!next.has(k)) committed.delete(k);
      for (const [k, v] of next) committed.set(k, v);
      history.push(canonical(committed));
    }
    for (const x of sessions) x.close();
    const s = main.redoStatus();
    batches = s.Innodb_dblwr_writes!;
    syncFlushes = s.Innodb_log_sync_flushes!;
    dbs[2]!.detachFromPool();
    dbs[1]!.detachFromPool();
    main.close();
  } catch (e) {
    if (!(e instanceof SimulatedCrashError) && !plan.crashed) throw e;
    crashed = true;
    for (const d of devs) {
      try {
        d.crash(fate);
      } catch {
        // a device already closed
      }
    }
    for (const db of dbs.slice(1)) db.detachFromPool();
    dbs[0]?.abandon();
  }
  return {
    committed,
    withPending,
    crashed,
    writes: plan.writes,
    syncs: plan.syncs,
    acknowledged: history.length > 1,
    history,
    batches,
    syncFlushes,
  };
}

describe('three threads on one redo log, crash recovery against a model', () => {
  const trxs = workload(17, 150);
  const base = join(dir, 'base.ekdb');
  setup(base);
  const dry = run(base, new FaultPlan(), 'lost', trxs);
  it('the workload without a crash flushes from every thread and checkpoints when the log fills', () => {
    expect(dry.crashed).toBe(false);
    expect(dry.writes).toBeGreaterThan(100);
    expect(dry.syncs).toBeGreaterThan(20);
    expect(dry.batches).toBeGreaterThan(3);
    expect(dry.syncFlushes).toBeGreaterThan(0);
    checkRecovered(base, dry);
  });

  const points: Array<{ at: 'write' | 'sync'; n: number; tear: boolean; fate: 'lost' | 'kept' | 'half' }> =
    [];
  const fates = ['lost', 'kept', 'half'] as const;
  for (let i = 1; i <= 24; i++) {
    points.push({
      at: 'write',
      n: Math.max(1, Math.round((dry.writes * i) / 25)),
      tear: i % 2 === 0,
      fate: fates[i % 3]!,
    });
  }
  for (let i = 1; i <= 8; i++) {
    points.push({
      at: 'sync',
      n: Math.max(1, Math.round((dry.syncs * i) / 9)),
      tear: false,
      fate: fates[i % 3]!,
    });
  }

  it.each(points)('crash at $at $n (torn: $tear, unsynced writes $fate)', ({ at, n, tear, fate }) => {
    const path = join(dir, `c-${at}-${n}-${fate}-${tear}.ekdb`);
    setup(path);
    const plan = new FaultPlan(at === 'write' ? { crashAtWrite: n, tear } : { crashAtSync: n });
    let coin = n;
    const f: UnsyncedFate =
      fate === 'half'
        ? () => {
            coin = (Math.imul(coin, 48271) + 1) >>> 0;
            return (coin & 1) === 0;
          }
        : fate;
    const r = run(path, plan, f, trxs);
    expect(r.crashed).toBe(true);
    checkRecovered(path, r);
    checkRecovered(path, r);
  });

  // Reordering within a barrier (see crash.test.ts): every thread's devices keep, page by
  // page, none or any one of their unsynced writes.
  const tally: ReorderTally = { dropped: 0, latest: 0, older: 0, vanished: 0 };
  const lazyBase = join(dir, 'base-2.ekdb');
  setup(lazyBase);
  const lazy = run(lazyBase, new FaultPlan(), 'lost', trxs, 2);
  const reordered = [
    ...reorderPoints(dry.writes, dry.syncs, reorderPointCount(8), 3031).map((p) => ({
      ...p,
      flush: 1 as const,
    })),
    ...reorderPoints(lazy.writes, lazy.syncs, reorderPointCount(8), 3032).map((p) => ({
      ...p,
      flush: 2 as const,
    })),
  ];
  it.each(reordered)(
    'reordered: crash at $at $n (torn: $tear, seed $seed, innodb_flush_log_at_trx_commit=$flush)',
    ({ seed, at, n, tear, flush }) => {
      const path = join(dir, `r-${at}-${n}-${seed}.ekdb`);
      setup(path);
      const plan = new FaultPlan(at === 'write' ? { crashAtWrite: n, tear } : { crashAtSync: n });
      const r = run(path, plan, countingFate(seed, tally), trxs, flush);
      expect(r.crashed).toBe(true);
      checkRecoveredPrefix(path, r, flush === 1 ? r.history.length - 1 : 0);
    },
  );
  it('the reordering crashes dropped writes, kept the latest, and let older writes win over newer ones', () => {
    expect(tally.dropped).toBeGreaterThan(10);
    expect(tally.latest).toBeGreaterThan(10);
    expect(tally.older).toBeGreaterThan(0);
  });
});
