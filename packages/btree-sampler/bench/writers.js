// Writers in parallel on one tree: T worker threads share a BufferPool (16 KiB pages, the whole
// tree in memory) and one RWLock as the index latch; each inserts its share of N random int keys
// (disjoint sets), then deletes every other one of them. The wall time from the start signal to
// the last thread's end, per build and thread count, median of the rounds; rounds alternate the
// builds. Every thread of a run loads the same build.
//   node bench/writers.js A/index.js B/index.js
//   WRITERS_N=400000 WRITERS_THREADS=1,2,4 WRITERS_ROUNDS=5 node bench/writers.js A B
import os from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BufferPool, MemoryDevice } from '@enginekit/buffer-pool';
import { RWLock } from '@enginekit/mutex-atomics';

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('usage: node bench/writers.js BUILD [BUILD ...]');
  process.exit(2);
}
const urls = paths.map((p) => pathToFileURL(isAbsolute(p) ? p : resolve(p)).href);
const builds = await Promise.all(urls.map((u) => import(u)));
const N = Number(process.env.WRITERS_N ?? 200_000);
const THREADS = (process.env.WRITERS_THREADS ?? '1,2,4').split(',').map(Number);
const ROUNDS = Number(process.env.WRITERS_ROUNDS ?? 5);
const PS = 16384;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const workerUrl = new URL('./writers-worker.js', import.meta.url);

/** One run: returns { ms, stats } (the threads' write counters summed). */
async function run(b, threads) {
  const pool = new BufferPool({
    innodb_page_size: PS,
    innodb_buffer_pool_size: Math.ceil((N * 60) / PS + 64) * PS,
    device: new MemoryDevice({ pageSize: PS, maxPages: Math.ceil((N * 60) / PS + 64) }),
  });
  const latch = new RWLock();
  const tree = builds[b].BTree.create(pool, { indexLatch: latch });
  const workers = [];
  const ready = [];
  const done = [];
  for (let id = 0; id < threads; id++) {
    const w = new Worker(workerUrl, {
      workerData: {
        moduleUrl: urls[b],
        pool: pool.descriptor(),
        latch: latch.descriptor(),
        rootPage: tree.rootPage,
        id,
        threads,
        n: N,
      },
    });
    workers.push(w);
    ready.push(new Promise((r) => w.once('message', r)));
  }
  await Promise.all(ready);
  for (const w of workers) {
    done.push(
      new Promise((r, j) => {
        w.once('message', r);
        w.once('error', j);
      }),
    );
  }
  const t0 = performance.now();
  for (const w of workers) w.postMessage('go');
  const results = await Promise.all(done);
  const ms = performance.now() - t0;
  const st = tree.checkValid();
  if (st.records !== N - Math.ceil(N / 2)) throw new Error(`build ${b}: ${st.records} records left`);
  pool.close();
  const stats = { optimistic: 0, restarts: 0, pessimistic: 0 };
  for (const r of results) for (const k of Object.keys(stats)) stats[k] += r.stats?.[k] ?? 0;
  return { ms, stats };
}

console.log(
  `${paths.map((p, i) => `${String.fromCharCode(65 + i)} = ${p}`).join('\n')}\n` +
    `${N.toLocaleString('en')} inserts then ${Math.floor(N / 2).toLocaleString('en')} deletes, ${ROUNDS} rounds; ` +
    `node ${process.version}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
);
console.log(
  `| threads | ${paths.map((_, i) => `${String.fromCharCode(65 + i)} ms (median)`).join(' | ')} | optimistic / restarts / pessimistic (last build) |`,
);
console.log(`|---:|${paths.map(() => '---:|').join('')}---|`);
for (const threads of THREADS) {
  const times = builds.map(() => []);
  let last = null;
  for (let round = 0; round < ROUNDS; round++) {
    const order = builds.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const b of order) {
      const r = await run(b, threads);
      times[b].push(r.ms);
      if (b === builds.length - 1) last = r.stats;
    }
  }
  console.log(
    `| ${threads} | ${times.map((t) => median(t).toFixed(0)).join(' | ')} | ${last.optimistic} / ${last.restarts} / ${last.pessimistic} |`,
  );
}
