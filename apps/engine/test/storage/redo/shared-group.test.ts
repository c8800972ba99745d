// Group commit across threads: 2 worker threads attached to the database this thread opened run
// 4 committers each (8 in all) with innodb_flush_log_at_trx_commit=1; every commit waits with
// waitFlushed, which posts a request to this thread's flusher and waits on the flushed-sequence
// word. One fsync covers every commit appended before it starts, so there are clearly fewer
// fsyncs than commits (a structural property: with 8 committers at most one fsync in flight,
// each fsync after the first covers the commits that arrived during the previous one). Every
// commit is acknowledged only once the log is durable past it, and every key is there after a
// clean close. The workers run the built package (rebuilt when stale).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BTree } from '@enginekit/btree-sampler';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, shareDatabase } from '../../../src/index.js';
import { keyOf, valueFor } from '../../helpers/redo-shared-values.js';

const engineDir = join(import.meta.dirname, '..', '..', '..');
const workerUrl = new URL('../../helpers/redo-shared-worker.js', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'engine-redo-shared-group-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS = { innodb_page_size: 4096, innodb_buffer_pool_size: 256 * 4096 };

type Message =
  | { t: 'root'; worker: number; root: number }
  | { t: 'ack'; worker: number; keys: number[]; lsn: bigint }
  | { t: 'done'; worker: number; inserted: number }
  | { t: 'stopped'; worker: number }
  | { t: 'failed'; worker: number; message: string };

describe('group commit across threads', () => {
  it('8 committers on 2 workers with flush_log_at_trx_commit=1 share fsyncs', async () => {
    const path = join(dir, 'group.ekdb');
    const db = Database.create(path, { ...OPTS, innodb_flush_log_at_trx_commit: 1 });
    // Only the commits fsync the log here (the once-a-second checkpoint would add its own).
    db.pageCleaner!.stop();
    const redo = db.redo!;
    const share = shareDatabase(db, 2);
    const COMMITS = 25;
    const roots = new Map<number, number>();
    const inserted = new Map<number, number>();
    let acks = 0;
    const workers: Worker[] = [];
    const phase = (want: Message['t']) =>
      Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              const on = (m: Message) => {
                if (m.t === 'failed') reject(new Error(m.message));
                if (m.t === 'ack') {
                  acks++;
                  expect(redo.flushedLsn).toBeGreaterThanOrEqual(m.lsn);
                }
                if (m.t === 'root') roots.set(m.worker, m.root);
                if (m.t === 'done') inserted.set(m.worker, m.inserted);
                if (m.t !== want) return;
                w.off('message', on);
                resolve();
              };
              w.on('message', on);
              w.once('error', reject);
            }),
        ),
      );
    for (let i = 0; i < 2; i++)
      workers.push(
        new Worker(workerUrl, {
          workerData: {
            attach: share(i + 1),
            worker: i,
            cycle: 0,
            committers: 4,
            commits: COMMITS,
            waitForGo: true,
          },
        }),
      );
    await phase('root');
    const f0 = redo.stats.Innodb_os_log_fsyncs;
    const j0 = redo.stats.Innodb_log_group_commit_joins;
    const done = phase('done');
    for (const w of workers) w.postMessage({ t: 'go' });
    await done;
    const fsyncs = redo.stats.Innodb_os_log_fsyncs - f0;
    const commits = 2 * 4 * COMMITS;
    expect(acks).toBe(commits);
    expect(fsyncs).toBeGreaterThan(0);
    expect(fsyncs / commits).toBeLessThan(0.75);
    expect(redo.stats.Innodb_log_group_commit_joins - j0).toBeGreaterThan(0);
    const stopped = phase('stopped');
    for (const w of workers) w.postMessage({ t: 'stop' });
    await stopped;
    db.close();
    const again = Database.open(path, OPTS);
    try {
      expect(again.recovery).toBeNull();
      for (const [w, root] of roots) {
        const tree = BTree.open(again.treeStore, { rootPage: root });
        tree.checkValid();
        expect(tree.stats().records).toBe(inserted.get(w));
        for (let seq = 0; seq < inserted.get(w)!; seq++)
          expect(tree.get(keyOf(w, seq))).toEqual(valueFor(0, w, seq));
      }
    } finally {
      again.close();
    }
  }, 120_000);
});
