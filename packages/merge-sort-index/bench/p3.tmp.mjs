import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import { buildIndex } from '/work/main/packages/merge-sort-index/dist/index.js';
import { indexEntries, table, CountingSink } from '/work/main/packages/merge-sort-index/bench/data.js';
const rows = Number(process.argv[2] ?? 300000);
table(rows);
const extra = process.argv[3] ? JSON.parse(process.argv[3]) : {};
for (const mode of ['kway', 'innodb'])
  for (const sinkKind of ['count', 'btree']) {
    const cpus = [];
    for (let r = 0; r < 3; r++) {
      let sink;
      if (sinkKind === 'btree') {
        const pool = new BufferPool({ innodb_buffer_pool_size: 128 << 20 });
        pool.registerSpace(1, new MemoryDevice());
        sink = BTree.create(pool, { space: 1, unique: true, clustered: false }).bulkLoader();
      } else sink = new CountingSink();
      const c0 = process.cpuUsage();
      const { stats } = buildIndex(indexEntries(rows), sink, { mergeMode: mode, ...extra });
      const c = process.cpuUsage(c0);
      cpus.push(((c.user + c.system) / 1000) | 0);
      if (r === 2) console.log(mode, sinkKind, cpus.join(' '), 'runs', stats.runs, 'passes', stats.passes);
    }
  }
