import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../src/index.js';
import { deviceWithPages } from './helpers/pages.js';

/**
 * A second implementation of InnoDB's midpoint LRU, written from the reference text on a plain
 * array (head first) instead of linked typed arrays: `buf_LRU_add_block_low`, `_remove_block`,
 * `_old_adjust_len`, `_old_init`, `buf_page_peek_if_too_old`, eviction from the tail.
 */
class MidpointModel {
  list: number[] = [];
  old = new Map<number, boolean>();
  blockClock = new Map<number, number>();
  access = new Map<number, number>();
  lruOld: number | null = null;
  oldLen = 0;
  poolClock = 0;
  madeYoung = 0;
  notMadeYoung = 0;
  reads = 0;

  constructor(
    readonly frames: number,
    readonly ratio: number,
    readonly oldTime: number,
  ) {}

  adjust(): void {
    const len = this.list.length;
    const target = Math.min(Math.floor((len * this.ratio) / 1024), len - 25);
    for (;;) {
      const at = this.list.indexOf(this.lruOld!);
      if (this.oldLen + 20 < target) {
        this.lruOld = this.list[at - 1]!;
        this.old.set(this.lruOld, true);
        this.oldLen++;
      } else if (this.oldLen > target + 20) {
        this.old.set(this.lruOld!, false);
        this.lruOld = this.list[at + 1]!;
        this.oldLen--;
      } else {
        return;
      }
    }
  }

  add(p: number, old: boolean): void {
    const len0 = this.list.length;
    if (!old || len0 < 512) {
      this.list.unshift(p);
      this.blockClock.set(p, this.poolClock & 0x7fffffff);
    } else {
      this.list.splice(this.list.indexOf(this.lruOld!) + 1, 0, p);
      this.oldLen++;
    }
    const len = len0 + 1;
    if (len > 512) {
      this.old.set(p, old);
      this.adjust();
    } else if (len === 512) {
      for (const q of this.list) this.old.set(q, true);
      this.lruOld = this.list[0]!;
      this.oldLen = len;
      this.adjust();
    } else {
      this.old.set(p, this.lruOld !== null);
    }
  }

  remove(p: number): void {
    const at = this.list.indexOf(p);
    if (p === this.lruOld) {
      this.lruOld = this.list[at - 1]!;
      this.old.set(this.lruOld, true);
      this.oldLen++;
    }
    this.list.splice(at, 1);
    const wasOld = this.old.get(p) === true;
    this.old.set(p, false);
    if (this.list.length < 512) {
      for (const q of this.list) this.old.set(q, false);
      this.lruOld = null;
      this.oldLen = 0;
      return;
    }
    if (wasOld) this.oldLen--;
    this.adjust();
  }

  fix(p: number, now: number): void {
    if (!this.list.includes(p)) {
      if (this.list.length === this.frames) {
        const victim = this.list[this.list.length - 1]!;
        this.remove(victim);
        this.old.delete(victim);
        this.access.delete(victim);
        this.poolClock++;
      }
      this.access.set(p, 0);
      this.blockClock.set(p, 0);
      this.add(p, true);
      this.reads++;
    }
    if (this.access.get(p) === 0) this.access.set(p, now);
    if (this.poolClock === 0) return;
    let tooOld: boolean;
    if (this.oldTime !== 0 && this.old.get(p) === true) {
      tooOld = now - this.access.get(p)! >= this.oldTime;
      if (!tooOld) this.notMadeYoung++;
    } else {
      const young =
        this.poolClock < this.blockClock.get(p)! + Math.floor((this.frames * (1024 - this.ratio)) / 4096);
      tooOld = !young;
    }
    if (tooOld) {
      if (this.old.get(p) === true) this.madeYoung++;
      this.remove(p);
      this.add(p, false);
    }
  }
}

describe('midpoint LRU against an array model of buf0lru', () => {
  it('same list, old flags and counters after every fix', () => {
    const FRAMES = 560;
    const device = deviceWithPages(1400);
    const step = fc.record({
      page: fc.oneof(fc.integer({ min: 0, max: 149 }), fc.integer({ min: 0, max: 1399 })),
      dt: fc.constantFrom(0, 0, 1, 7, 300, 1200),
    });
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 600, maxLength: 1500 }),
        fc.constantFrom(0, 1000),
        fc.constantFrom(25, 37, 60),
        (steps, oldTime, pct) => {
          let t = 0;
          const pool = new BufferPool({
            innodb_page_size: 512,
            innodb_buffer_pool_size: FRAMES * 512,
            innodb_old_blocks_time: oldTime,
            innodb_old_blocks_pct: pct,
            linearReadAhead: false,
            device,
            now: () => t,
          });
          const model = new MidpointModel(FRAMES, Math.floor((pct * 1024) / 100), oldTime);
          for (const { page, dt } of steps) {
            t += dt;
            pool.unfix(pool.fix(0, page, 0), 0);
            model.fix(page, t);
          }
          const l = pool.lruList();
          expect(l.frames.map((f) => pool.framePageNo(f))).toEqual(model.list);
          expect(l.old).toEqual(model.list.map((p) => model.old.get(p) === true));
          expect(l.oldLen).toBe(model.oldLen);
          const s = pool.stats();
          expect(s.Innodb_buffer_pool_reads).toBe(model.reads);
          expect(s.Innodb_buffer_pool_pages_made_young).toBe(model.madeYoung);
          expect(s.Innodb_buffer_pool_pages_not_made_young).toBe(model.notMadeYoung);
          pool.checkValid();
        },
      ),
      // No shrinking: a 1,500-step counterexample shrinks for minutes; the seed replays it.
      { numRuns: 25, endOnFailure: true },
    );
  });
});
