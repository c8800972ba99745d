// Crash recovery against a model: a workload of small SQL transactions (undo in undo pages,
// rolled back at recovery when they had not committed) runs on devices that crash at the N-th write or fsync — torn or not, unsynced writes
// lost or kept — and the reopened database holds exactly the committed transactions (or those
// plus the one whose commit was in flight), with every tree and every index consistent.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
import { Database } from '../src/index.js';

import {
  checkRecovered,
  type Committed,
  OPTS,
  type Op,
  type Row,
  SCHEMA,
  setup,
  workload,
} from './helpers/crash-model.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface RunResult extends Committed {
  crashed: boolean;
  writes: number;
  syncs: number;
}

/** Runs the workload on fault devices until it ends or the plan crashes. */
function run(
  path: string,
  plan: FaultPlan,
  fate: UnsyncedFate,
  trxs: Op[][],
  dataWrites?: number[],
): RunResult {
  const devs: FaultDevice[] = [];
  const wrapDevice = (d: PageDevice, role: string): PageDevice => {
    const f = new FaultDevice(d, plan);
    devs.push(f);
    if (role !== 'data' || dataWrites === undefined) return f;
    const write = f.writePage.bind(f);
    f.writePage = (p: number, src: Uint8Array, off: number) => {
      dataWrites.push(plan.writes + 1);
      write(p, src, off);
    };
    return f;
  };
  const committed = new Map<number, Row>();
  let withPending: Map<number, Row> | null = null;
  let db: Database | undefined;
  let crashed = false;
  try {
    db = Database.open(path, { ...OPTS, wrapDevice });
    const t = db.table('t');
    const sql = db.session();
    for (const ops of trxs) {
      const next = new Map(committed);
      sql.query('BEGIN');
      for (const op of ops) {
        if (op.kind === 'put') {
          const [id, a, pad] = op.row;
          if (t.get([id]) === undefined) sql.query('INSERT INTO t VALUES (?, ?, ?)', [id, a, pad]);
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
      withPending = null;
      for (const k of [...committed.keys()]) if (!next.has(k)) committed.delete(k);
      for (const [k, v] of next) committed.set(k, v);
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
  return { committed, withPending, crashed, writes: plan.writes, syncs: plan.syncs };
}

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
});

describe('torn page writes', () => {
  it('a data page torn by the crash is repaired from the doublewrite file, then brought up to date', () => {
    const trxs = workload(11, 150);
    const base = join(dir, 'torn-dry.ekdb');
    setup(base);
    // Which writes (counted over every device of the plan) are in-place data page writes?
    const dataWrites: number[] = [];
    run(base, new FaultPlan(), 'lost', trxs, dataWrites);
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
