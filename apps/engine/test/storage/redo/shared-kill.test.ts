// One redo log for every thread, under real crashes: a child process opens the database with a
// tiny log (64 KiB files, so the log wraps many times and checkpoints run throughout), shares it
// with 3 worker threads that each run 3 concurrent committers of mini-transactions on a B+tree of
// their own (commits wait with waitFlushed, served by the main thread's flusher), while the main
// thread flushes pages and checkpoints; it is SIGKILLed at a random moment. Recovery in this
// process must find every key of every acknowledged commit of every worker, and every tree valid.
// Three cycles on the same file. The child runs the built package (rebuilt when stale).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BTree } from '@enginekit/btree-sampler';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/index.js';
import { keyOf, valueFor } from '../../helpers/redo-shared-values.js';

const engineDir = join(import.meta.dirname, '..', '..', '..');
const child = join(import.meta.dirname, '..', '..', 'helpers', 'redo-shared-child.js');
const dir = mkdtempSync(join(tmpdir(), 'engine-redo-shared-kill-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 96 * 4096,
  innodb_log_file_size: 65536,
  innodb_log_buffer_size: 8192,
};
const WORKERS = 3;

interface Run {
  /** `${cycle}/${worker}` → root page. */
  roots: Map<string, number>;
  /** `${cycle}/${worker}` → acknowledged keys. */
  acks: Map<string, number[]>;
  ackCount: number;
  startLsn: bigint;
  capacity: bigint;
  lastLsn: bigint;
  checkpoints: number;
}

/** Runs the child until `acks` commits are acknowledged and a checkpoint ran, then SIGKILLs it. */
function runAndKill(path: string, cycle: number, acks: number, delayMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, path, String(WORKERS), String(cycle)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = {
      roots: new Map(),
      acks: new Map(),
      ackCount: 0,
      startLsn: 0n,
      capacity: 0n,
      lastLsn: 0n,
      checkpoints: 0,
    };
    let checkpoints0 = -1;
    let buf = '';
    let err = '';
    let killing = false;
    const timer = setTimeout(() => {
      if (!killing) p.kill('SIGKILL');
    }, 120_000);
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i = buf.indexOf('\n');
      while (i >= 0) {
        const f = buf.slice(0, i).split(' ');
        buf = buf.slice(i + 1);
        i = buf.indexOf('\n');
        if (f[0] === 'ready') {
          run.startLsn = BigInt(f[1]!);
          run.capacity = BigInt(f[2]!);
        } else if (f[0] === 'root') run.roots.set(`${f[1]}/${f[2]}`, Number(f[3]));
        else if (f[0] === 'ack') {
          const k = `${f[1]}/${f[2]}`;
          const list = run.acks.get(k) ?? [];
          for (const s of f[3]!.split(',')) list.push(Number(s));
          run.acks.set(k, list);
          run.ackCount++;
        } else if (f[0] === 'status') {
          if (checkpoints0 < 0) checkpoints0 = Number(f[1]);
          run.checkpoints = Number(f[1]) - checkpoints0;
          run.lastLsn = BigInt(f[2]!);
        } else if (f[0] === 'failed') err += f.join(' ');
      }
      if (!killing && run.ackCount >= acks && run.checkpoints > 0) {
        killing = true;
        setTimeout(() => p.kill('SIGKILL'), delayMs);
      }
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL' || err !== '') reject(new Error(`child ended without SIGKILL: ${err}`));
      else resolve(run);
    });
  });
}

describe('one redo log shared by worker threads, SIGKILL at random moments', () => {
  it('every key of every acknowledged commit of every worker survives; every tree is valid', async () => {
    const path = join(dir, 'shared.ekdb');
    let seed = 4242;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 48271) + 11) >>> 0;
      return seed % n;
    };
    const roots = new Map<string, number>();
    const acked = new Map<string, number[]>();
    let startLsn = -1n;
    let capacity = 0n;
    let lastLsn = 0n;
    let checkpoints = 0;
    for (let cycle = 0; cycle < 3; cycle++) {
      const run = await runAndKill(path, cycle, 300 + rnd(300), rnd(40));
      if (startLsn < 0n) startLsn = run.startLsn;
      capacity = run.capacity;
      lastLsn = run.lastLsn;
      checkpoints += run.checkpoints;
      expect(run.roots.size).toBe(WORKERS);
      for (const [k, v] of run.roots) roots.set(k, v);
      for (const [k, v] of run.acks) acked.set(k, v);
      const db = Database.open(path, OPTS);
      try {
        expect(db.recovery).not.toBeNull();
        for (const [k, root] of roots) {
          const [c, w] = k.split('/').map(Number) as [number, number];
          const tree = BTree.open(db.treeStore, { rootPage: root });
          tree.checkValid();
          for (const seq of acked.get(k) ?? [])
            expect(tree.get(keyOf(w, seq)), `cycle ${c} worker ${w} key ${seq}`).toEqual(valueFor(c, w, seq));
        }
      } finally {
        db.close();
      }
    }
    // The log wrapped many times over, checkpointing all along.
    expect(lastLsn - startLsn).toBeGreaterThan(3n * capacity);
    expect(checkpoints).toBeGreaterThan(3);
    expect([...acked.values()].reduce((n, l) => n + l.length, 0)).toBeGreaterThan(900);
  }, 600_000);
});
