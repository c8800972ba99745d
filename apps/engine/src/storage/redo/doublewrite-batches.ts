import type { PageDevice } from '@enginekit/buffer-pool';
import { MUTEX_SLOTS, mutexInit, mutexLock, mutexUnlock } from '@enginekit/mutex-atomics';

/** Pages per doublewrite batch (`srv_doublewrite_batch_size`'s role; InnoDB writes up to 120). */
export const DOUBLEWRITE_BATCH = 64;

/** A thread's handles: the data file and the doublewrite file. */
export interface DoublewriteIo {
  readonly data: PageDevice;
  readonly file: PageDevice;
}

/** What another thread needs to share the batches: the memory and the doublewrite file. */
export interface DoublewriteDescriptor {
  readonly buffer: SharedArrayBuffer;
  /** The doublewrite file (each thread opens its own handle). */
  readonly path: string;
}

/*
 * Layout of the shared memory:
 *
 * | byte offset | type | field |
 * |---|---|---|
 * | 0 | Int32 × 4 | directory mutex: the entry table, and every in-place write of a batch |
 * | 16 | Int32 | regions |
 * | 20 | Int32 | slots per region |
 * | 24 | Int32 | page size |
 * | 28 | Int32 | live entries, all regions |
 * | 32 | Float64 | pages written through the doublewrite file (`Innodb_dblwr_pages_written`) |
 * | 40 | Float64 | batches written (`Innodb_dblwr_writes`) |
 * | 64 + 32·r | Int32 × 4 | region r's mutex: held while a page enters its batch and while the batch is written |
 * | 80 + 32·r | Int32 | region r: entries used (its batch) |
 * | 84 + 32·r | Int32 | region r: write epoch, bumped when a batch's pages were written in place |
 * | 88 + 32·r | Int32 | region r: synced epoch, the write epoch the data file was last fsynced after |
 * | E = 64 + 32·regions | Int32 × 2 per entry | entry (r, s) at E + 8·(r·slots + s): page number, state (0 free, 1 live, 2 superseded) |
 * | P = E + 8·regions·slots | bytes | entry (r, s)'s page at P + (r·slots + s)·pageSize |
 *
 * Slot s of region r is page r·slots + s of the doublewrite file.
 */
const DIR = 0;
const REGIONS = 4;
const SLOTS = 5;
const PAGE_SIZE = 6;
const LIVE = 7;
const F_PAGES = 4;
const F_WRITES = 5;
const REGION_AT = 64;
const REGION_BYTES = 32;
const R_USED = 4;
const R_EPOCH = 5;
const R_SYNCED = 6;
const S_FREE = 0;
const S_LIVE = 1;
const S_SUPERSEDED = 2;

/**
 * The doublewrite batches of every thread of a server, in shared memory, one region each (thread
 * index → region; the creating thread is 0, worker i is i + 1). A page write enters the writing
 * thread's batch; a full batch (or a sync) goes to that region of the doublewrite file, which is
 * fsynced, and then in place. Threads never write each other's regions, but any thread may write
 * out any region's batch (a checkpoint must have every page written so far on disk, whichever
 * thread wrote it).
 *
 * Until its in-place write, a page lives only in a batch, so the directory serves it: a read of
 * the page by any thread is served from the batch, and a newer version of it entering another
 * thread's batch supersedes the older one, whose in-place write is then skipped (in-place writes
 * happen under the directory mutex, so the data file never gets an older version after a newer).
 *
 * A region is reused only after the data file was fsynced following its previous batch's in-place
 * writes (MariaDB's `buf_dblwr_t::write_completed`): otherwise a crash could tear a page whose
 * only copy the new batch had overwritten.
 */
export class DoublewriteBatches {
  readonly sab: SharedArrayBuffer;
  readonly regions: number;
  readonly slots: number;
  readonly pageSize: number;
  readonly #i32: Int32Array;
  readonly #f64: Float64Array;
  readonly #entries: Int32Array;
  readonly #pages: Uint8Array;

  constructor(sab: SharedArrayBuffer) {
    this.sab = sab;
    const head = new Int32Array(sab, 0, 8);
    this.regions = head[REGIONS]!;
    this.slots = head[SLOTS]!;
    this.pageSize = head[PAGE_SIZE]!;
    const e = REGION_AT + REGION_BYTES * this.regions;
    this.#i32 = new Int32Array(sab, 0, e / 4);
    this.#f64 = new Float64Array(sab, 0, 8);
    const n = this.regions * this.slots;
    this.#entries = new Int32Array(sab, e, 2 * n);
    this.#pages = new Uint8Array(sab, e + 8 * n, n * this.pageSize);
  }

  /** New, empty batches for `regions` threads. */
  static create(regions: number, pageSize: number, slots: number = DOUBLEWRITE_BATCH): DoublewriteBatches {
    if (!Number.isInteger(regions) || regions < 1 || regions > 1024)
      throw new RangeError(`doublewrite regions must be an integer in [1, 1024], got ${String(regions)}`);
    const e = REGION_AT + REGION_BYTES * regions;
    const sab = new SharedArrayBuffer(e + regions * slots * (8 + pageSize));
    const i32 = new Int32Array(sab, 0, e / 4);
    mutexInit(i32, DIR);
    i32[REGIONS] = regions;
    i32[SLOTS] = slots;
    i32[PAGE_SIZE] = pageSize;
    for (let r = 0; r < regions; r++) mutexInit(i32, (REGION_AT + REGION_BYTES * r) / 4);
    if (MUTEX_SLOTS !== 4) throw new Error('doublewrite: shared layout out of date');
    return new DoublewriteBatches(sab);
  }

  /** Pages written through the doublewrite file, and batches, by every thread. */
  get pagesWritten(): number {
    return this.#f64[F_PAGES]!;
  }

  get batchesWritten(): number {
    return this.#f64[F_WRITES]!;
  }

  /** Pages waiting in some batch for their in-place write. */
  get live(): number {
    return Atomics.load(this.#i32, LIVE);
  }

  #r(region: number): number {
    return (REGION_AT + REGION_BYTES * region) / 4;
  }

  #checkRegion(region: number): void {
    if (!Number.isInteger(region) || region < 0 || region >= this.regions)
      throw new RangeError(
        `doublewrite region must be an integer in [0, ${this.regions - 1}], got ${String(region)}`,
      );
  }

  /**
   * Puts a page image into `region`'s batch (writing the batch out first when full): a copy of it
   * already in the batch is replaced, one in another region's batch is superseded.
   */
  add(region: number, pageNo: number, src: Uint8Array, srcOffset: number, io: DoublewriteIo): void {
    this.#checkRegion(region);
    const i32 = this.#i32;
    const rb = this.#r(region);
    const ps = this.pageSize;
    mutexLock(i32, rb);
    try {
      if (i32[rb + R_USED] === this.slots) this.#flushLocked(region, io);
      mutexLock(i32, DIR);
      try {
        const ent = this.#entries;
        let own = -1;
        if (Atomics.load(i32, LIVE) > 0 || i32[rb + R_USED]! > 0) {
          for (let q = 0; q < this.regions; q++) {
            const used = i32[this.#r(q) + R_USED]!;
            for (let s = 0; s < used; s++) {
              const e = q * this.slots + s;
              if (ent[2 * e] !== pageNo || ent[2 * e + 1] === S_FREE) continue;
              if (q === region) own = s;
              else if (ent[2 * e + 1] === S_LIVE) {
                ent[2 * e + 1] = S_SUPERSEDED;
                Atomics.sub(i32, LIVE, 1);
              }
            }
          }
        }
        if (own < 0) {
          own = i32[rb + R_USED]!;
          i32[rb + R_USED] = own + 1;
          ent[2 * (region * this.slots + own)] = pageNo;
        }
        const e = region * this.slots + own;
        if (ent[2 * e + 1] !== S_LIVE) {
          ent[2 * e + 1] = S_LIVE;
          Atomics.add(i32, LIVE, 1);
        }
        this.#pages.set(src.subarray(srcOffset, srcOffset + ps), e * ps);
      } finally {
        mutexUnlock(i32, DIR);
      }
    } finally {
      mutexUnlock(i32, rb);
    }
  }

  /** Writes `region`'s batch out: doublewrite file, fsync, then the pages in place (not synced). */
  flush(region: number, io: DoublewriteIo): void {
    this.#checkRegion(region);
    const rb = this.#r(region);
    mutexLock(this.#i32, rb);
    try {
      this.#flushLocked(region, io);
    } finally {
      mutexUnlock(this.#i32, rb);
    }
  }

  /** REQUIRES: the region's mutex. */
  #flushLocked(region: number, io: DoublewriteIo): void {
    const i32 = this.#i32;
    const rb = this.#r(region);
    const n = i32[rb + R_USED]!;
    if (n === 0) return;
    // The previous batch's in-place writes must be durable before its copies are overwritten.
    if (i32[rb + R_EPOCH] !== i32[rb + R_SYNCED]) {
      io.data.sync();
      i32[rb + R_SYNCED] = i32[rb + R_EPOCH]!;
    }
    const ps = this.pageSize;
    const ent = this.#entries;
    const base = region * this.slots;
    const live: number[] = [];
    mutexLock(i32, DIR);
    for (let s = 0; s < n; s++) if (ent[2 * (base + s) + 1] === S_LIVE) live.push(s);
    mutexUnlock(i32, DIR);
    // Only this region's mutex holder changes its pages: they are stable here.
    for (const s of live) io.file.writePage(base + s, this.#pages, (base + s) * ps);
    if (live.length > 0) io.file.sync();
    mutexLock(i32, DIR);
    try {
      let written = 0;
      for (let s = 0; s < n; s++) {
        const e = base + s;
        if (ent[2 * e + 1] === S_LIVE) {
          io.data.writePage(ent[2 * e]!, this.#pages, e * ps);
          Atomics.sub(i32, LIVE, 1);
          written++;
        }
        ent[2 * e + 1] = S_FREE;
      }
      i32[rb + R_USED] = 0;
      if (written > 0) {
        i32[rb + R_EPOCH] = (i32[rb + R_EPOCH]! + 1) | 0;
        this.#f64[F_PAGES]! += live.length;
        this.#f64[F_WRITES]!++;
      }
    } finally {
      mutexUnlock(i32, DIR);
    }
  }

  /**
   * Writes out every region's batch, then fsyncs the data file: every page handed to any thread's
   * device so far is durable in place afterwards (what a checkpoint needs).
   */
  syncAll(io: DoublewriteIo): void {
    const i32 = this.#i32;
    const epochs: number[] = [];
    for (let r = 0; r < this.regions; r++) {
      const rb = this.#r(r);
      mutexLock(i32, rb);
      try {
        this.#flushLocked(r, io);
        epochs.push(i32[rb + R_EPOCH]!);
      } finally {
        mutexUnlock(i32, rb);
      }
    }
    io.data.sync();
    for (let r = 0; r < this.regions; r++) {
      const rb = this.#r(r);
      mutexLock(i32, rb);
      // A batch written after our fsync started keeps its region unsynced.
      if (i32[rb + R_EPOCH] === epochs[r]) i32[rb + R_SYNCED] = epochs[r]!;
      mutexUnlock(i32, rb);
    }
  }

  /**
   * Copies into `dest` the batch copies of pages [first, first + count), if any; returns which
   * pages it copied (null: none). A page with no copy here is in place already.
   */
  copyLive(first: number, count: number, dest: Uint8Array, destOffset: number): boolean[] | null {
    const i32 = this.#i32;
    if (Atomics.load(i32, LIVE) === 0) return null;
    const ps = this.pageSize;
    const ent = this.#entries;
    let found: boolean[] | null = null;
    mutexLock(i32, DIR);
    try {
      for (let q = 0; q < this.regions; q++) {
        const used = i32[this.#r(q) + R_USED]!;
        for (let s = 0; s < used; s++) {
          const e = q * this.slots + s;
          const p = ent[2 * e]!;
          if (ent[2 * e + 1] !== S_LIVE || p < first || p >= first + count) continue;
          found ??= new Array<boolean>(count).fill(false);
          found[p - first] = true;
          dest.set(this.#pages.subarray(e * ps, (e + 1) * ps), destOffset + (p - first) * ps);
        }
      }
    } finally {
      mutexUnlock(i32, DIR);
    }
    return found;
  }
}
