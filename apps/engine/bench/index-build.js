// Secondary-index build over the same rows, every contender in one process run:
// - sort + bulk load: merge-sort-index's buildIndex() (default 1 MiB innodb_sort_buffer_size)
//   into btree-sampler's bottom-up bulk loader (MySQL 5.7's path), 'kway' and 'innodb' merges;
// - MySQL 5.6: buildIndex() with mechanics 'mysql56' (record-only buffer accounting, every pass
//   written) into insertSink(tree), one top-down insert per sorted entry;
// - insert-each: one top-down insert per entry in table order (a copy-ALTER without fast index
//   creation);
// - SQLite: CREATE INDEX on the same rows (better-sqlite3; loading the table is not timed).
// Trees live in a buffer-pool pool (16 KiB pages): large enough for the tree over a memory device
// (CPU-bound), or `--pool-mib=N` over a file (IO-bound when N is smaller than the index).
//   node bench/index-build.js [--rows=300000] [--repeat=3] [--pool-mib=8] [--only=kway,innodb,...]
// Imports the built packages: run `pnpm build` first. Prints a table and one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BTree } from '@enginekit/btree-sampler';
import { BufferPool, FileDevice, MemoryDevice } from '@enginekit/buffer-pool';
import { buildIndex, insertEach, insertSink } from '@enginekit/merge-sort-index';
import Database from 'better-sqlite3';
import { indexEntries, table, tableRows } from './index-build-data.js';

function flag(name, fallback) {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (arg === undefined) return fallback;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : 'true';
}
const rows = Number(flag('rows', '300000'));
const repeat = Number(flag('repeat', '3'));
const poolMiB = flag('pool-mib', undefined);
const only = flag('only', '');
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function time(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}

/** A fresh, empty secondary-index tree and a `done()` that frees its pool (and file). */
function newTree() {
  if (poolMiB === undefined) {
    // ~130-byte entries, pages ~70 % full after random inserts: twice the raw size is plenty
    const size = Math.max(64, Math.ceil((rows * 130 * 2) / (1 << 20) / 16) * 16) << 20;
    const pool = new BufferPool({ innodb_buffer_pool_size: size });
    pool.registerSpace(1, new MemoryDevice());
    return { tree: BTree.create(pool, { space: 1, unique: true, clustered: false }), done: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'index-build-bench-'));
  const pool = new BufferPool({ innodb_buffer_pool_size: Number(poolMiB) << 20 });
  pool.registerSpace(1, new FileDevice(join(dir, 'index.ibd'), { truncate: true }));
  return {
    tree: BTree.create(pool, { space: 1, unique: true, clustered: false }),
    done: () => {
      pool.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const contenders = {
  kway: (tree) => buildIndex(indexEntries(rows), tree.bulkLoader(), { mergeMode: 'kway' }),
  innodb: (tree) => buildIndex(indexEntries(rows), tree.bulkLoader(), { mergeMode: 'innodb' }),
  mysql56: (tree) => buildIndex(indexEntries(rows), insertSink(tree), { mechanics: 'mysql56' }),
  'insert-each': (tree) => insertEach(indexEntries(rows), tree),
};

function sqliteCreateIndex() {
  const dir = mkdtempSync(join(tmpdir(), 'index-build-sqlite-'));
  try {
    const db = new Database(join(dir, 'peer.db'));
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec('CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, c BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO sbtest1 (id, c) VALUES (?, ?)');
    db.transaction(() => tableRows(rows)((id, c) => insert.run(id, c)))();
    const t = time(() => db.exec('CREATE INDEX idx_c ON sbtest1 (c)'));
    const n = db
      .prepare('SELECT count(*) AS n FROM sbtest1 INDEXED BY idx_c WHERE c >= ?')
      .get(Buffer.alloc(0)).n;
    db.close();
    if (n !== rows) throw new Error(`SQLite index holds ${n} rows, expected ${rows}`);
    return t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

table(rows); // build the data outside the timed region
const names = [...Object.keys(contenders), 'SQLite'].filter(
  (n) => only === '' || only.split(',').includes(n),
);
const samples = Object.fromEntries(names.map((n) => [n, []]));
// interleaved: one run of each contender per round, so load changes hit all of them alike
for (let r = 0; r < repeat; r++) {
  for (const name of names) {
    if (name === 'SQLite') {
      samples[name].push(sqliteCreateIndex());
      continue;
    }
    const { tree, done } = newTree();
    samples[name].push(
      time(() => {
        contenders[name](tree);
        tree.store.flushAll?.();
      }),
    );
    if (r === 0 && rows <= 300_000) {
      const s = tree.checkValid();
      if (s.records !== rows) throw new Error(`${name}: tree holds ${s.records} records, expected ${rows}`);
    }
    done();
  }
}
const result = {};
for (const name of names) {
  result[name] = {
    ms: Math.round(median(samples[name].map((x) => x.ms))),
    cpuMs: Math.round(median(samples[name].map((x) => x.cpuMs))),
  };
}
const ratio = (a, b) => (result[a] && result[b] ? +(result[a].ms / result[b].ms).toFixed(2) : undefined);
console.log(
  `index build, ${rows} rows, ${poolMiB === undefined ? 'pool holds the tree (memory device)' : `${poolMiB} MiB pool over a file`}, median of ${repeat}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.table(result);
const ratios = {
  'insert-each / kway': ratio('insert-each', 'kway'),
  'insert-each / mysql56': ratio('insert-each', 'mysql56'),
  'kway / SQLite': ratio('kway', 'SQLite'),
};
console.log(ratios);
console.log(JSON.stringify({ rows, poolMiB: poolMiB ?? null, repeat, loadavg: loadavg(), result, ratios }));
