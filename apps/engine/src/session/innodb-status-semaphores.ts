import { semaphoreLines } from '@enginekit/mutex-atomics';
import { registerInnodbStatusSection } from './innodb-status.js';

/**
 * SHOW ENGINE INNODB STATUS's SEMAPHORES section: the spin and OS-wait counters of the buffer
 * pool's latches (instance mutexes and page latches, so the trees' page latches too), which live
 * in the pool's shared memory and so sum every thread attached to it. With `latches: 'legacy'`
 * the 5.1 rw-lock's inner-mutex contention shows in the Mutex line, as 5.1 printed it.
 */
registerInnodbStatusSection({
  order: 20,
  title: 'SEMAPHORES',
  body(db) {
    return semaphoreLines(db.pool.latchStats());
  },
});
