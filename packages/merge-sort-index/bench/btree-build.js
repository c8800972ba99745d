// Build a secondary index over the same rows three ways, in the same process:
// - ours: buildIndex() = scan + external sort (1 MiB sort buffer) + bottom-up bulk load into an
//   @enginekit/btree-sampler tree (fill factor 100), in 'kway' and 'innodb' merge modes;
// - baseline: insertEach() = one top-down B+tree insert per entry into the same kind of tree
//   (what a copy-ALTER did before fast index creation);
// - peer: SQLite CREATE INDEX on the same rows.
// Both trees live in a @enginekit/buffer-pool pool (16 KiB pages) large enough to hold them, over
// a memory device, so the comparison is CPU work, as the blog's 300k-row table in memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, FileDevice, MemoryDevice } from '@enginekit/buffer-pool';
import { buildIndex, insertEach } from '../dist/index.js';
import { indexEntries, median, table } from './data.js';
import { sqliteCreateIndex } from './peer-sqlite.js';

function time(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000, result };
}

/**
 * A fresh tree. `poolMiB` undefined: a pool large enough for the whole tree over a memory device
 * (CPU-bound). A number: a pool of that size over a real file in the temp directory, smaller
 * than the index, so random inserts evict and re-read pages (IO-bound, as InnoDB's buffer pool
 * smaller than the table). `done()` closes the pool and deletes the file.
 */
function newTree(rows, poolMiB) {
  if (poolMiB === undefined) {
    // ~130-byte entries, pages ~70% full after random inserts: 2× the raw size is plenty
    const size = Math.max(64, Math.ceil((rows * 130 * 2) / (1 << 20) / 16) * 16) << 20;
    const pool = new BufferPool({ innodb_buffer_pool_size: size });
    pool.registerSpace(1, new MemoryDevice());
    return { tree: BTree.create(pool, { space: 1, unique: true, clustered: false }), done: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'msi-btree-'));
  const pool = new BufferPool({ innodb_buffer_pool_size: poolMiB << 20 });
  pool.registerSpace(1, new FileDevice(join(dir, 'index.ibd'), { truncate: true }));
  return {
    tree: BTree.create(pool, { space: 1, unique: true, clustered: false }),
    done: () => {
      pool.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function btreeBuildTable(rowCounts, repeat, poolMiB) {
  const out = [];
  for (const rows of rowCounts) {
    const reps = rows > 1_000_000 ? 1 : repeat;
    table(rows); // build the data outside the timed region
    const row = { rows, pool: poolMiB === undefined ? 'fits (memory)' : `${poolMiB} MiB (file)` };
    for (const mergeMode of ['kway', 'innodb']) {
      const runs = [];
      for (let r = 0; r < reps; r++) {
        const { tree, done } = newTree(rows, poolMiB);
        runs.push(
          time(() => {
            const res = buildIndex(indexEntries(rows), tree.bulkLoader({ innodb_fill_factor: 100 }), {
              mergeMode,
            });
            tree.store.flushAll?.();
            return res;
          }),
        );
        if (r === 0 && rows <= 300_000) tree.checkValid();
        done();
      }
      row[`sort+bulk ${mergeMode} ms`] = Math.round(median(runs.map((x) => x.ms)));
      row[`sort+bulk ${mergeMode} cpu`] = Math.round(median(runs.map((x) => x.cpuMs)));
    }
    const ins = [];
    for (let r = 0; r < reps; r++) {
      const { tree, done } = newTree(rows, poolMiB);
      ins.push(
        time(() => {
          insertEach(indexEntries(rows), tree);
          tree.store.flushAll?.();
        }),
      );
      done();
    }
    row['insert-each ms'] = Math.round(median(ins.map((x) => x.ms)));
    row['insert-each cpu'] = Math.round(median(ins.map((x) => x.cpuMs)));
    const peer = [];
    for (let r = 0; r < reps; r++) peer.push(sqliteCreateIndex(rows));
    row['SQLite ms'] = Math.round(median(peer.map((x) => x.ms)));
    row['SQLite cpu'] = Math.round(median(peer.map((x) => x.cpuMs)));
    row['insert-each / kway'] = +(row['insert-each ms'] / row['sort+bulk kway ms']).toFixed(2);
    row['kway / SQLite'] = +(row['sort+bulk kway ms'] / row['SQLite ms']).toFixed(2);
    out.push(row);
  }
  return out;
}
