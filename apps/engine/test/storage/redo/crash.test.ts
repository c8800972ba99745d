// Crash recovery against a model: a workload of small SQL transactions (undo in undo pages,
// rolled back at recovery when they had not committed) runs on devices that crash at the N-th write or fsync — torn or not, unsynced writes
// lost or kept — and the reopened database holds exactly the committed transactions (or those
// plus the one whose commit was in flight), with every tree and every index consistent.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultPlan, type UnsyncedFate } from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/index.js';

import {
  checkRecovered,
  checkRecoveredPrefix,
  countingFate,
  OPTS,
  type ReorderTally,
  reorderPointCount,
  reorderPoints,
  runOnFaults as run,
  SCHEMA,
  setup,
  workload,
} from '../../helpers/crash-model.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crash recovery against a model of committed transactions', () => {
  const trxs = workload(7, 150);
  const base = join(dir, 'base.ekdb');
  setup(base);
  const dry = run(join(dir, 'base.ekdb'), new FaultPlan(), 'lost', trxs);
  it('the workload without a crash writes and syncs enough to crash anywhere in it', () => {
    expect(dry.crashed).toBe(false);
    expect(dry.writes).toBeGreaterThan(100);
    expect(dry.syncs).toBeGreaterThan(20);
  });

  const points: Array<{ at: 'write' | 'sync'; n: number; tear: boolean; fate: 'lost' | 'kept' | 'half' }> =
    [];
  const fates = ['lost', 'kept', 'half'] as const;
  for (let i = 1; i <= 36; i++) {
    points.push({
      at: 'write',
      n: Math.max(1, Math.round((dry.writes * i) / 37)),
      tear: i % 2 === 0,
      fate: fates[i % 3]!,
    });
  }
  for (let i = 1; i <= 12; i++) {
    points.push({
      at: 'sync',
      n: Math.max(1, Math.round((dry.syncs * i) / 13)),
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
    // Recovery is idempotent: a second open finds a consistent database too.
    checkRecovered(path, r);
  });

  // Reordering within a barrier: at the crash each page with unsynced writes keeps none of them or
  // any one (not the latest only), independently of every other page and file. With
  // innodb_flush_log_at_trx_commit=2 commits return before their log is synced, so many versions
  // of the log's last block pile up between syncs and the recovered state may be any prefix.
  const tally: ReorderTally = { dropped: 0, latest: 0, older: 0, vanished: 0 };
  const lazyBase = join(dir, 'base-2.ekdb');
  setup(lazyBase);
  const lazy = run(lazyBase, new FaultPlan(), 'lost', trxs, { flushLogAtTrxCommit: 2 });
  const reordered = [
    ...reorderPoints(dry.writes, dry.syncs, reorderPointCount(16), 2027).map((p) => ({
      ...p,
      flush: 1 as const,
    })),
    ...reorderPoints(lazy.writes, lazy.syncs, reorderPointCount(16), 2028).map((p) => ({
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
      const r = run(path, plan, countingFate(seed, tally), trxs, { flushLogAtTrxCommit: flush });
      expect(r.crashed).toBe(true);
      checkRecoveredPrefix(path, r, flush === 1 ? r.history.length - 1 : 0);
    },
  );
  it('the reordering crashes dropped writes, kept the latest, and let older writes win over newer ones', () => {
    expect(tally.dropped).toBeGreaterThan(20);
    expect(tally.latest).toBeGreaterThan(20);
    expect(tally.older).toBeGreaterThan(0);
  });
});

describe('torn page writes', () => {
  it('a data page torn by the crash is repaired from the doublewrite file, then brought up to date', () => {
    const trxs = workload(11, 150);
    const base = join(dir, 'torn-dry.ekdb');
    setup(base);
    // Which writes (counted over every device of the plan) are in-place data page writes?
    const dataWrites: number[] = [];
    run(base, new FaultPlan(), 'lost', trxs, { dataWrites });
    // Every data write before the close's own flush is a candidate; take the last few.
    expect(dataWrites.length).toBeGreaterThan(10);
    let repaired = 0;
    for (const n of dataWrites
      .slice(0, -5)
      .filter((_, i) => i % 7 === 3)
      .slice(-4)) {
      const path = join(dir, `torn-${n}.ekdb`);
      setup(path);
      const r = run(path, new FaultPlan({ crashAtWrite: n, tear: true }), 'lost', trxs);
      expect(r.crashed).toBe(true);
      const db = Database.open(path, OPTS);
      repaired += db.recovery?.pagesRepaired ?? 0;
      db.close();
      checkRecovered(path, r);
    }
    expect(repaired).toBeGreaterThan(0);
  });

  it('without the doublewrite file a torn page the log cannot rebuild is a CorruptionError, and nothing is written', () => {
    const path = join(dir, 'torn-nodw.ekdb');
    const opts = { ...OPTS, innodb_doublewrite: false };
    const db = Database.create(path, opts);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 200; i++) t.insert([i, i % 7, 'y'.repeat(100)]);
    db.close();
    // A change logged after the checkpoint, then a torn write of that page: tear page 3 by hand.
    const db2 = Database.open(path, opts);
    db2.table('t').update([5], [5, 1, 'z'.repeat(100)]);
    db2.commit();
    db2.abandon();
    // Tear every page but the header: whichever the log touches cannot be rebuilt.
    const fd = openSync(path, 'r+');
    const half = Buffer.alloc(2048, 0xab);
    const pages = readFileSync(path).length / 4096;
    for (let page = 1; page < pages; page++) writeSync(fd, half, 0, 2048, page * 4096 + 2048);
    closeSync(fd);
    const before = readFileSync(path);
    expect(() => Database.open(path, opts)).toThrow(/corrupt page \d+ of space 0 .*cannot rebuild it/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
