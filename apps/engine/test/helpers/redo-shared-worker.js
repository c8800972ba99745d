// A worker thread for the shared redo log tests: attaches to the database the main thread opened
// (its pool, redo log and doublewrite region), creates a B+tree of its own in one logged
// mini-transaction and commits it, then runs `committers` concurrent committers: each commit is
// 1–3 mini-transactions inserting keys into the tree, then a wait for the log to
// be durable (waitFlushed: the main thread's flusher does the fsync, shared by every thread).
// Posts {t:'root'}, then (after {t:'go'} when `waitForGo`) {t:'ack', keys} after each durable
// commit; with `commits` set each committer stops after that many and the worker posts
// {t:'done'}; {t:'stop'} detaches it. A wait that resolves before the log is flushed past the
// commit is a failure ({t:'failed'}).
import { parentPort, workerData } from 'node:worker_threads';
import { BTree } from '@enginekit/btree-sampler';
import { attachDatabase } from '../../dist/index.js';
import { keyOf, valueFor } from './redo-shared-values.js';

const { attach, worker, cycle, committers, commits, waitForGo } = workerData;
const db = attachDatabase(attach);
const store = db.store;
const redo = db.redo;

store.begin();
const tree = BTree.create(store, {});
store.commit();
const setup = redo.lsn;
redo.flushSync(setup);
parentPort.postMessage({ t: 'root', worker, root: tree.rootPage });

let next = 0;
let stopping = false;
let go = () => {};
const started = waitForGo ? new Promise((resolve) => (go = resolve)) : Promise.resolve();
parentPort.on('message', (m) => {
  if (m.t === 'stop') stopping = true;
  else if (m.t === 'go') go();
});

async function committer(c) {
  for (let k = 0; commits === undefined || k < commits; k++) {
    if (stopping) return;
    const keys = [];
    const n = 1 + ((next + c) % 3);
    for (let i = 0; i < n; i++) {
      const seq = next++;
      store.begin();
      try {
        tree.insert(keyOf(worker, seq), valueFor(cycle, worker, seq));
      } catch (e) {
        store.rollback();
        throw e;
      }
      store.commit();
      keys.push(seq);
    }
    const lsn = redo.lsn; // the commit point: the end of the last mini-transaction
    await redo.waitFlushed(lsn);
    if (redo.flushedLsn < lsn)
      throw new Error(`commit at ${lsn} acknowledged with the log flushed to ${redo.flushedLsn}`);
    parentPort.postMessage({ t: 'ack', worker, keys, lsn });
  }
}

started
  .then(() => Promise.all(Array.from({ length: committers }, (_, c) => committer(c))))
  .then(
    () => {
      parentPort.postMessage({ t: 'done', worker, inserted: next });
      const wait = () => {
        if (!stopping) return setTimeout(wait, 5);
        db.detachFromPool();
        parentPort.postMessage({ t: 'stopped', worker });
        parentPort.close();
      };
      wait();
    },
    (e) => parentPort.postMessage({ t: 'failed', worker, message: String(e?.stack ?? e) }),
  );
