import type { DeviceDescriptor, PageDevice } from './device.js';
import { checkPageNo, checkRun } from './device.js';

/** Bytes a disk writes atomically: a write is torn only between sectors. */
export const SECTOR_SIZE = 512;

/** When a {@link FaultPlan} crashes the devices it governs. */
export interface FaultPlanOptions {
  /** Crash at the N-th `writePage` (1-based) over every device of the plan. Default: never. */
  readonly crashAtWrite?: number;
  /** Crash at the N-th `sync` (1-based) over every device of the plan. Default: never. */
  readonly crashAtSync?: number;
  /**
   * Tear the write that crashes: its first half of sectors reaches the disk, the rest keeps the old
   * bytes. A device whose pages are one sector (a 512-byte log block) writes all or nothing, as a
   * disk does. Default false (the crashing write is lost whole).
   */
  readonly tear?: boolean;
}

/** What survives of the writes made since the last sync when {@link FaultDevice.crash} runs. */
export type UnsyncedFate = 'lost' | 'kept' | ((device: string, pageNo: number) => boolean);

/** Thrown by every call of a device whose plan has crashed (and by the call that crashed it). */
export class SimulatedCrashError extends Error {
  override readonly name = 'SimulatedCrashError' as const;
  constructor(what: string) {
    super(`simulated crash at ${what}`);
  }
}

/**
 * The crash schedule shared by several {@link FaultDevice}s (a data file and its log files), so
 * "the N-th write" counts writes in the order they reached any of them.
 */
export class FaultPlan {
  readonly crashAtWrite: number;
  readonly crashAtSync: number;
  readonly tear: boolean;
  /** Writes and syncs seen so far (the crashing one included). */
  writes = 0;
  syncs = 0;
  /** True once the crash point has passed: every further call throws. */
  crashed = false;

  constructor(options: FaultPlanOptions = {}) {
    this.crashAtWrite = checkPoint(options.crashAtWrite, 'crashAtWrite');
    this.crashAtSync = checkPoint(options.crashAtSync, 'crashAtSync');
    this.tear = options.tear === true;
  }

  /** Counts a write; true if this write is the crash point. */
  noteWrite(): boolean {
    if (this.crashed) throw new SimulatedCrashError('a write after the crash');
    this.writes++;
    if (this.writes === this.crashAtWrite) this.crashed = true;
    return this.crashed;
  }

  /** Counts a sync; true if this sync is the crash point. */
  noteSync(): boolean {
    if (this.crashed) throw new SimulatedCrashError('a sync after the crash');
    this.syncs++;
    if (this.syncs === this.crashAtSync) this.crashed = true;
    return this.crashed;
  }
}

function checkPoint(v: number | undefined, name: string): number {
  if (v === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(v) || v < 1)
    throw new RangeError(`${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/**
 * A device that fails like a disk under a power cut. It wraps another device, which holds the
 * durable image; writes go to a volatile image (the page cache) and reach the inner device only
 * at `sync()`. At the plan's crash point the crashing call throws {@link SimulatedCrashError},
 * and so does every later call on any device of the plan. {@link FaultDevice.crash} then decides
 * what the disk holds: the durable image, plus the unsynced pages the fate keeps, plus the torn
 * page if the crash tore one. Reopen the inner device (or its file) to see what survived.
 *
 * @example
 * const plan = new FaultPlan({ crashAtWrite: 3, tear: true });
 * const dev = new FaultDevice(new MemoryDevice({ pageSize: 4096 }), plan);
 */
export class FaultDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  readonly inner: PageDevice;
  readonly plan: FaultPlan;
  /** Pages written since the last sync (the volatile image over the inner, durable one). */
  readonly #volatile = new Map<number, Uint8Array>();
  #torn: { pageNo: number; bytes: Uint8Array } | null = null;
  #size: number;

  constructor(inner: PageDevice, plan: FaultPlan) {
    this.inner = inner;
    this.plan = plan;
    this.pageSize = inner.pageSize;
    this.name = inner.name;
    this.#size = inner.size();
  }

  size(): number {
    return this.#size;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    if (this.plan.crashed) throw new SimulatedCrashError(`a read of ${this.name}`);
    checkRun(first, count, this.#size, this.name);
    const ps = this.pageSize;
    for (let i = 0; i < count; i++) {
      const v = this.#volatile.get(first + i);
      const at = destOffset + i * ps;
      if (v !== undefined) dest.set(v, at);
      else if (first + i < this.inner.size()) this.inner.readPages(first + i, 1, dest, at);
      else dest.fill(0, at, at + ps);
    }
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    checkPageNo(pageNo);
    const ps = this.pageSize;
    const page = src.slice(srcOffset, srcOffset + ps);
    if (this.plan.noteWrite()) {
      if (this.plan.tear && ps > SECTOR_SIZE) {
        const old = new Uint8Array(ps);
        const v = this.#volatile.get(pageNo);
        if (v !== undefined) old.set(v);
        else if (pageNo < this.inner.size()) this.inner.readPages(pageNo, 1, old, 0);
        const half = Math.floor(ps / SECTOR_SIZE / 2) * SECTOR_SIZE;
        old.set(page.subarray(0, half), 0);
        this.#torn = { pageNo, bytes: old };
      }
      throw new SimulatedCrashError(`write ${this.plan.writes} (page ${pageNo} of ${this.name})`);
    }
    this.#volatile.set(pageNo, page);
    if (pageNo >= this.#size) this.#size = pageNo + 1;
  }

  sync(): void {
    if (this.plan.noteSync()) throw new SimulatedCrashError(`sync ${this.plan.syncs} (${this.name})`);
    this.#drain(() => true);
    this.inner.sync();
  }

  /** `sync()`, answered after the current turn of the event loop (as an fsync on a thread pool). */
  syncAsync(): Promise<void> {
    return new Promise((resolve, reject) => {
      setImmediate(() => {
        try {
          this.sync();
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /** Pages written and not yet synced. */
  get unsynced(): number {
    return this.#volatile.size;
  }

  /**
   * After the crash (or instead of one): puts on the inner device what a disk would hold. Unsynced
   * pages survive as `fate` says ('lost' by default); a torn page is written over whatever else
   * survived of that page. Leaves the inner device synced and this device unusable.
   */
  crash(fate: UnsyncedFate = 'lost'): void {
    const keep =
      fate === 'lost' ? () => false : fate === 'kept' ? () => true : (p: number) => fate(this.name, p);
    this.plan.crashed = true;
    this.#drain(keep);
    if (this.#torn !== null) this.inner.writePage(this.#torn.pageNo, this.#torn.bytes, 0);
    this.#torn = null;
    this.inner.sync();
  }

  #drain(keep: (pageNo: number) => boolean): void {
    const pages = [...this.#volatile.keys()].sort((a, b) => a - b);
    for (const p of pages) if (keep(p)) this.inner.writePage(p, this.#volatile.get(p)!, 0);
    this.#volatile.clear();
  }

  close(): void {
    this.inner.close();
  }

  /** A fault device cannot be reopened elsewhere: its volatile image lives in this object. */
  descriptor(): DeviceDescriptor | null {
    return null;
  }
}
