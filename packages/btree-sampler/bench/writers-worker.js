// A thread of bench/writers.js: attaches to the pool and the index latch, opens the tree, waits
// for the start signal, inserts its keys (k ≡ id mod threads among a seeded shuffle of N), then
// deletes every other one of them, and reports the tree object's write counters.
import { parentPort, workerData } from 'node:worker_threads';
import { BufferPool } from '@enginekit/buffer-pool';
import { RWLock } from '@enginekit/mutex-atomics';
import { int1, randomKeys, valueFor } from './data.js';

const { moduleUrl, pool: poolDesc, latch: latchDesc, rootPage, id, threads, n } = workerData;
const { BTree } = await import(moduleUrl);
const pool = BufferPool.attach(poolDesc);
const tree = BTree.open(pool, { rootPage, indexLatch: RWLock.fromDescriptor(latchDesc) });
const all = randomKeys(n);
const mine = [];
for (let i = id; i < n; i += threads) mine.push(all[i]);
const keys = mine.map((k) => int1.encode([k]));
const vals = mine.map((k) => valueFor(k));
parentPort.once('message', () => {
  for (let i = 0; i < keys.length; i++) tree.insert(keys[i], vals[i]);
  // every other key of the whole insert order: keys at even global positions
  for (let i = 0; i < keys.length; i++) if ((id + i * threads) % 2 === 0) tree.delete(keys[i]);
  parentPort.postMessage({ stats: tree.writeStats });
});
parentPort.postMessage('ready');
