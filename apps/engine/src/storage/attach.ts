import { BufferPool, type BufferPoolDescriptor, FileDevice, type PageDevice } from '@enginekit/buffer-pool';
import { Database } from './database.js';
import { ExtendingDevice } from './file-extend.js';
import {
  attachDurable,
  type DurabilityOptions,
  type DurableAttachDescriptor,
  DurableDevice,
  MtrStore,
  PageCleaner,
} from './redo/index.js';

/** What a thread needs to attach to a database another thread opened ({@link attachDatabase}). */
export interface AttachDescriptor {
  /** The database file (the thread opens its own handle). */
  readonly path: string;
  readonly pageSize: number;
  readonly pool: BufferPoolDescriptor;
  /** The shared redo log and doublewrite batches, and this thread's doublewrite region. */
  readonly durable: DurableAttachDescriptor;
  /** The transaction system (ids, active transactions, read views): storage/trx-sys.ts. */
  readonly trxSys: SharedArrayBuffer;
  /** The data file's extension mutex (storage/file-extend.ts). */
  readonly extend: SharedArrayBuffer;
  /** The opener's `innodb_sort_buffer_size`. */
  readonly sortBufferSize: number;
}

/** The DurableDevice under a database's pool (beneath a SimulatedDevice, if any). */
function durableDevice(db: Database): DurableDevice {
  let d: PageDevice | undefined = db.device;
  while (d !== undefined && !(d instanceof DurableDevice)) d = (d as { inner?: PageDevice }).inner;
  if (d === undefined) throw new TypeError(`database ${db.path} has no durable device`);
  return d;
}

/** The device that extends the database's file ahead of its allocations. */
function extendingDevice(db: Database): ExtendingDevice {
  let d: PageDevice | undefined = db.device;
  while (d !== undefined && !(d instanceof ExtendingDevice))
    d = d instanceof DurableDevice ? d.data : (d as { inner?: PageDevice }).inner;
  if (d === undefined) throw new TypeError(`database ${db.path} has no extending device`);
  return d;
}

/**
 * Makes the database the calling thread opened ready for `threads` other threads: the buffer pool
 * and the redo log shared, the doublewrite batches and file sized for one region per thread.
 * Returns the descriptor of thread `i` (1 … threads; the opener is thread 0). REQUIRES: the redo
 * log (every thread's page writes follow the WAL rule and the doublewrite buffer), and no other
 * thread attached yet.
 */
export function shareDatabase(db: Database, threads: number): (thread: number) => AttachDescriptor {
  if (!Number.isInteger(threads) || threads < 1 || threads > 1023)
    throw new RangeError(`threads must be an integer in [1, 1023], got ${String(threads)}`);
  const redo = db.redo;
  if (redo === null)
    throw new TypeError(
      `database ${db.path} runs without its redo log: threads attached to it could not write durably`,
    );
  const doublewrite = durableDevice(db).shareDoublewrite(threads + 1);
  const pool = db.pool.descriptor();
  const log = redo.descriptor();
  const extend = extendingDevice(db).extender.shared;
  const trxSys = db.trxSys.sab;
  return (thread) => {
    if (!Number.isInteger(thread) || thread < 1 || thread > threads)
      throw new RangeError(`thread must be an integer in [1, ${threads}], got ${String(thread)}`);
    return {
      path: db.path,
      pageSize: db.pool.pageSize,
      pool,
      durable: { redo: log, doublewrite, region: thread },
      trxSys,
      extend,
      sortBufferSize: db.sortBufferSize,
    };
  };
}

/**
 * A Database in another thread over the buffer pool, redo log and doublewrite batches the
 * opening thread shares ({@link shareDatabase}): the pool's frames, page table, latches and
 * counters are the opener's (one SharedArrayBuffer), and so are the log's LSNs, buffer, checkpoint
 * and counters (another). This thread gets its own handles on the data file (positional I/O, so
 * handles never share a file offset), on the log files and on the doublewrite file, its own
 * DurableDevice (WAL on the shared log, its own doublewrite region), its own mini-transactions
 * over the shared log, and its own dictionary objects read from the pages. New pages come from the
 * pool's shared page counter, so two threads never allocate the same page. Leave with
 * `detachFromPool()`: the opener flushes, checkpoints and closes the files.
 */
export function attachDatabase(
  d: AttachDescriptor,
  options: Pick<DurabilityOptions, 'wrapDevice'> = {},
): Database {
  const file = new FileDevice(d.path, { pageSize: d.pageSize, create: false });
  const data = new ExtendingDevice(
    options.wrapDevice === undefined ? file : options.wrapDevice(file, 'data', false),
    d.path,
    d.extend,
  );
  let durable: ReturnType<typeof attachDurable>;
  try {
    durable = attachDurable(data, d.durable, options);
  } catch (e) {
    data.close();
    throw e;
  }
  const { device, redo } = durable;
  let pool: BufferPool;
  try {
    pool = BufferPool.attach(d.pool, { devices: new Map([[0, device]]) });
  } catch (e) {
    device.close();
    redo.close();
    throw e;
  }
  try {
    const store = new MtrStore(pool, redo);
    store.reserve = (pages) => data.extender.ensure(pages);
    store.reuse = true;
    const cleaner = new PageCleaner(pool, redo, device, {
      ioCapacity: 200,
      ioCapacityMax: 2000,
      adaptive: true,
      maxDirtyPct: 75,
    });
    redo.onLogFull = (target) => cleaner.freeLog(target);
    return Database.overPool(d.path, pool, device, store, cleaner, d.trxSys, d.sortBufferSize);
  } catch (e) {
    pool.detach();
    device.close();
    redo.close();
    throw e;
  }
}
