import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeviceDescriptor, PageDevice } from './device.js';
import { checkPageNo, checkRun } from './device.js';
import {
  chooserOf,
  type FaultPlan,
  type FileCache,
  SimulatedCrashError,
  type UnsyncedFate,
} from './fault-plan.js';

/** Bytes a disk writes atomically: a write is torn only between sectors. */
export const SECTOR_SIZE = 512;

/** How a {@link FaultDevice} came to be. */
export interface FaultDeviceOptions {
  /**
   * The inner device's file was created by this open: its directory entry is durable only after a
   * {@link FaultPlan.syncDirectory} of its directory (the directory of the device's name), and a
   * crash before that may take the whole file away. Default false.
   */
  readonly created?: boolean;
}

/**
 * A device that fails like a disk under a power cut. It wraps another device, which holds the
 * durable image; writes go to a volatile image (the file's page cache, shared with every other
 * device of the plan that has the same name: another handle on the same file) and reach the disk
 * only at a `sync()` through any of them. At the plan's crash point the crashing call throws {@link SimulatedCrashError},
 * and so does every later call on any device of the plan. {@link FaultDevice.crash} then decides
 * what the disk holds: the durable image, plus, for each page, the unsynced write the fate picks
 * (any one of them, or none), plus the torn half of the crashing write; or nothing at all when the
 * device's file was created and its directory never synced, and the fate drops its entry. Reopen
 * the inner device (or its file) to see what survived.
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
  /** The file's page cache: every write since the last sync, per page, oldest first. */
  readonly #cache: FileCache;
  readonly #volatile: Map<number, Uint8Array[]>;
  /** The sectors of the crashing write that reached the disk, when the crash tore it. */
  #torn: { pageNo: number; head: Uint8Array } | null = null;
  /** True once {@link crash} took the file away (its entry was never made durable). */
  vanished = false;

  constructor(inner: PageDevice, plan: FaultPlan, options: FaultDeviceOptions = {}) {
    this.inner = inner;
    this.plan = plan;
    this.pageSize = inner.pageSize;
    this.name = inner.name;
    this.#cache = plan.cacheOf(this.name, inner.size());
    this.#volatile = this.#cache.versions;
    if (options.created === true) plan.noteCreated(this.name, dirname(this.name));
  }

  size(): number {
    return this.#cache.size;
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    if (this.plan.crashed) throw new SimulatedCrashError(`a read of ${this.name}`);
    checkRun(first, count, this.#cache.size, this.name);
    const ps = this.pageSize;
    for (let i = 0; i < count; i++) {
      const v = this.#volatile.get(first + i);
      const at = destOffset + i * ps;
      if (v !== undefined) dest.set(v[v.length - 1]!, at);
      else if (first + i < this.#innerSize()) this.inner.readPages(first + i, 1, dest, at);
      else dest.fill(0, at, at + ps);
    }
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    checkPageNo(pageNo);
    const ps = this.pageSize;
    const page = src.slice(srcOffset, srcOffset + ps);
    if (this.plan.noteWrite()) {
      if (this.plan.tear && ps > SECTOR_SIZE) {
        const half = Math.floor(ps / SECTOR_SIZE / 2) * SECTOR_SIZE;
        this.#torn = { pageNo, head: page.subarray(0, half) };
      }
      throw new SimulatedCrashError(`write ${this.plan.writes} (page ${pageNo} of ${this.name})`);
    }
    const versions = this.#volatile.get(pageNo);
    if (versions === undefined) this.#volatile.set(pageNo, [page]);
    else versions.push(page);
    if (pageNo >= this.#cache.size) this.#cache.size = pageNo + 1;
  }

  sync(): void {
    if (this.plan.noteSync()) throw new SimulatedCrashError(`sync ${this.plan.syncs} (${this.name})`);
    this.#drain((_p, n) => n - 1);
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
   * After the crash (or instead of one): puts on the inner device what a disk would hold. Each page
   * with unsynced writes holds the one `fate` picks, or none ('lost' by default); a torn write's
   * first sectors land over whatever survived of its page. A file created here whose directory was
   * not synced since, and whose entry the fate drops, is gone: the inner device is closed, and a
   * file device's file removed ({@link vanished} says so). Leaves the inner device synced and this
   * device unusable.
   */
  crash(fate: UnsyncedFate = 'lost'): void {
    const chooser = chooserOf(fate);
    this.plan.crashed = true;
    // Decided once per file, whichever of its handles crashes first.
    const volatileEntry = this.plan.entryVolatile(this.name);
    if (volatileEntry) this.plan.settleEntry(this.name);
    if (volatileEntry && !chooser.keepEntry(this.name)) {
      this.#volatile.clear();
      this.#torn = null;
      this.vanished = true;
      const d = this.inner.descriptor();
      this.inner.close();
      if (d?.kind === 'file') rmSync(d.path, { force: true });
      return;
    }
    this.#drain((p, n) => chooser.pickVersion(this.name, p, n));
    const torn = this.#torn;
    this.#torn = null;
    if (torn !== null) {
      const page = new Uint8Array(this.pageSize);
      if (torn.pageNo < this.#innerSize()) this.inner.readPages(torn.pageNo, 1, page, 0);
      page.set(torn.head, 0);
      this.inner.writePage(torn.pageNo, page, 0);
    }
    this.inner.sync();
  }

  /** The inner device's size, as another handle on the same file may have grown it. */
  #innerSize(): number {
    const d = this.inner as PageDevice & { refreshSize?: () => number };
    return d.refreshSize === undefined ? d.size() : d.refreshSize();
  }

  /** Writes to the inner device, per page in page order, the version `pick` names (-1: none). */
  #drain(pick: (pageNo: number, versions: number) => number): void {
    const pages = [...this.#volatile.keys()].sort((a, b) => a - b);
    for (const p of pages) {
      const versions = this.#volatile.get(p)!;
      const i = pick(p, versions.length);
      if (!Number.isInteger(i) || i < -1 || i >= versions.length)
        throw new RangeError(`pickVersion must give -1 … ${versions.length - 1} for page ${p}, got ${i}`);
      if (i >= 0) this.inner.writePage(p, versions[i]!, 0);
    }
    this.#volatile.clear();
  }

  close(): void {
    if (this.vanished) return;
    this.inner.close();
  }

  /** A fault device cannot be reopened elsewhere: its volatile image lives in this object. */
  descriptor(): DeviceDescriptor | null {
    return null;
  }
}
