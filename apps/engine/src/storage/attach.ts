import { BufferPool, type BufferPoolDescriptor, FileDevice } from '@enginekit/buffer-pool';
import { Database } from './database.js';

/**
 * A Database in a worker thread over the buffer pool another thread created: the pool's frames,
 * page table, latches and counters are the creator's (one SharedArrayBuffer); this thread gets
 * its own file handle (positional I/O, so handles never share a file offset) and its own
 * dictionary objects read from the pages. New pages come from the pool's shared page counter, so
 * two threads never allocate the same page. Leave with `detachFromPool()`: the creator flushes
 * and closes the file.
 */
export function attachDatabase(path: string, desc: BufferPoolDescriptor, pageSize: number): Database {
  const device = new FileDevice(path, { pageSize, create: false });
  let pool: BufferPool;
  try {
    pool = BufferPool.attach(desc, { devices: new Map([[0, device]]) });
  } catch (e) {
    device.close();
    throw e;
  }
  try {
    return Database.overPool(path, pool, device);
  } catch (e) {
    pool.detach();
    device.close();
    throw e;
  }
}
