// The process the shared redo log kill test SIGKILLs: opens (or creates) the database on its main
// thread with a tiny log, shares it with `workers` worker threads (redo-shared-worker.js) that run
// committers on B+trees of their own, and prints what the test checks after the kill:
//   ready <lsn> <log capacity>            once open (recovery, if any, done)
//   root <cycle> <worker> <page>          a worker's tree, created and committed
//   ack <cycle> <worker> <seq,seq,…>      keys of a commit that is durable (waitFlushed resolved)
//   status <checkpoints> <lsn> <sync flushes>   every 20 ms, after the main thread flushed pages
// The main thread flushes the 16 oldest pages every 20 ms and checkpoints every 200 ms, while the
// workers' own log_free_check flushes through their devices when the log is nearly full. Runs
// until killed.
import { existsSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Database, shareDatabase } from '../../dist/index.js';

const [path, workersArg, cycleArg] = process.argv.slice(2);
const workers = Number(workersArg);
const cycle = Number(cycleArg);
const opts = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 96 * 4096,
  innodb_log_file_size: 65536,
  innodb_log_buffer_size: 8192,
};
const db = existsSync(path) ? Database.open(path, opts) : Database.create(path, opts);
const out = (line) => writeSync(1, `${line}\n`);
out(`ready ${db.redo.lsn} ${db.redo.capacity}`);
const attach = shareDatabase(db, workers);
const url = new URL('./redo-shared-worker.js', import.meta.url);
for (let i = 0; i < workers; i++) {
  const w = new Worker(url, { workerData: { attach: attach(i + 1), worker: i, cycle, committers: 3 } });
  w.on('message', (m) => {
    if (m.t === 'root') out(`root ${cycle} ${m.worker} ${m.root}`);
    else if (m.t === 'ack') out(`ack ${cycle} ${m.worker} ${m.keys.join(',')}`);
    else if (m.t === 'failed') {
      out(`failed ${m.worker} ${m.message.replace(/\n/g, ' | ')}`);
      process.exit(1);
    }
  });
  w.on('error', (e) => {
    out(`failed ${i} ${String(e?.stack ?? e).replace(/\n/g, ' | ')}`);
    process.exit(1);
  });
}
let ticks = 0;
setInterval(() => {
  db.pool.flushOldest(db.redo.lsn, 16);
  if (++ticks % 10 === 0) db.pageCleaner.checkpoint();
  const s = db.redo.stats;
  out(`status ${s.Innodb_checkpoints} ${db.redo.lsn} ${s.Innodb_log_sync_flushes}`);
}, 20);
