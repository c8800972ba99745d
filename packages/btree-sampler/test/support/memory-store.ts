// A small PageStore test double that follows the contract of docs/architecture.md: every page
// lives in its own frame (no eviction), page numbers are handed out per space in order, and the
// envelope's page number is written on allocation. It also checks latch discipline: an X latch
// excludes every other latch on the frame (no recursion), so a double fix by the tree throws.
import { readFileSync, writeFileSync } from 'node:fs';
import type { LatchMode, PageStore } from '@enginekit/buffer-pool';

export class MemoryStore implements PageStore {
  readonly pageSize: number;
  bytes: Uint8Array;
  #frames = new Map<string, number>();
  #nextPage = new Map<number, number>();
  #nFrames = 0;
  #capacity: number;
  readonly pins: Int32Array;
  readonly sLatches: Int32Array;
  readonly xLatches: Int32Array;
  fixes = 0;

  constructor(pageSize: number, capacity = 4096) {
    this.pageSize = pageSize;
    this.#capacity = capacity;
    this.bytes = new Uint8Array(new SharedArrayBuffer(pageSize * capacity));
    this.pins = new Int32Array(capacity);
    this.sLatches = new Int32Array(capacity);
    this.xLatches = new Int32Array(capacity);
  }

  #frameOf(space: number, pageNo: number, create: boolean): number {
    const k = `${space}:${pageNo}`;
    let f = this.#frames.get(k);
    if (f === undefined) {
      if (!create) throw new RangeError(`page ${pageNo} of space ${space} does not exist`);
      if (this.#nFrames >= this.#capacity) throw new RangeError('test store is full');
      f = this.#nFrames++;
      this.#frames.set(k, f);
    }
    return f;
  }

  #latch(f: number, latch: LatchMode): void {
    if (latch === 2) {
      if (this.xLatches[f]! > 0 || this.sLatches[f]! > 0)
        throw new Error(`X latch on frame ${f} already latched`);
      this.xLatches[f]!++;
    } else if (latch === 1) {
      if (this.xLatches[f]! > 0) throw new Error(`S latch on frame ${f} held in X`);
      this.sLatches[f]!++;
    }
    this.pins[f]!++;
  }

  fix(space: number, pageNo: number, latch: LatchMode): number {
    this.fixes++;
    const f = this.#frameOf(space, pageNo, false);
    this.#latch(f, latch);
    return f;
  }

  unfix(frame: number, latch: LatchMode): void {
    if (this.pins[frame]! <= 0) throw new Error(`unfix of unpinned frame ${frame}`);
    if (latch === 2) {
      if (this.xLatches[frame]! <= 0) throw new Error(`X unlatch of frame ${frame} not X-latched`);
      this.xLatches[frame]!--;
    } else if (latch === 1) {
      if (this.sLatches[frame]! <= 0) throw new Error(`S unlatch of frame ${frame} not S-latched`);
      this.sLatches[frame]!--;
    }
    this.pins[frame]!--;
  }

  allocatePage(space: number): number {
    const pageNo = this.#nextPage.get(space) ?? 0;
    this.#nextPage.set(space, pageNo + 1);
    const f = this.#frameOf(space, pageNo, true);
    const base = f * this.pageSize;
    this.bytes.fill(0, base, base + this.pageSize);
    new DataView(this.bytes.buffer).setUint32(base + 4, pageNo);
    this.#latch(f, 2);
    return f;
  }

  markDirty(_frame: number, _lsn?: bigint): void {}

  /** Frames still pinned (should be 0 between operations). */
  pinned(): number {
    let n = 0;
    for (let i = 0; i < this.#nFrames; i++) n += this.pins[i]!;
    return n;
  }

  /** Write space `space` as a file of pages in page-number order. */
  save(path: string, space = 0): void {
    const n = this.#nextPage.get(space) ?? 0;
    const out = new Uint8Array(n * this.pageSize);
    for (let p = 0; p < n; p++) {
      const f = this.#frameOf(space, p, false);
      out.set(this.bytes.subarray(f * this.pageSize, (f + 1) * this.pageSize), p * this.pageSize);
    }
    writeFileSync(path, out);
  }

  static load(path: string, pageSize: number, space = 0, capacity = 4096): MemoryStore {
    const data = readFileSync(path);
    const s = new MemoryStore(pageSize, capacity);
    const n = data.length / pageSize;
    for (let p = 0; p < n; p++) {
      const f = s.allocatePage(space);
      s.bytes.set(data.subarray(p * pageSize, (p + 1) * pageSize), f * pageSize);
      s.unfix(f, 2);
    }
    return s;
  }
}
