import { describe, expect, it } from 'vitest';
import { BufferPool, oldRatioFromPct, pctFromOldRatio } from '../src/index.js';
import { deviceWithPages, fakeClock } from './helpers/pages.js';

const PS = 512;

function touch(pool: BufferPool, pageNo: number): number {
  const f = pool.fix(0, pageNo, 1);
  pool.unfix(f, 1);
  return f;
}

describe('innodb_old_blocks_pct → ratio', () => {
  it('follows buf_LRU_old_ratio_update and reports back as InnoDB does', () => {
    expect(oldRatioFromPct(37)).toBe(378);
    expect(pctFromOldRatio(378)).toBe(37);
    expect(oldRatioFromPct(5)).toBe(51);
    expect(oldRatioFromPct(95)).toBe(972);
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 64 * PS,
      innodb_old_blocks_pct: 5,
    });
    expect(pool.variables().innodb_old_blocks_pct).toBe(5);
    expect(() => pool.setVariables({ innodb_old_blocks_pct: 4 })).toThrow(
      /innodb_old_blocks_pct must be in \[5, 95\], got 4/,
    );
  });
});

describe('midpoint LRU, hand-computed lists', () => {
  it('below 512 blocks every read goes to the head and nothing is old', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 1024 * PS,
      device: deviceWithPages(600),
    });
    const frames = [0, 1, 2].map((p) => touch(pool, p));
    const l = pool.lruList();
    expect(l.frames).toEqual([frames[2], frames[1], frames[0]]);
    expect(l.old).toEqual([false, false, false]);
    expect(l.oldLen).toBe(0);
    pool.checkValid();
  });

  it('at 512 blocks the old sublist is 209 blocks (target 189 + tolerance 20)', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 1024 * PS,
      device: deviceWithPages(600),
    });
    for (let p = 0; p < 511; p++) touch(pool, p);
    expect(pool.lruList().oldLen).toBe(0);
    touch(pool, 511);
    const l = pool.lruList();
    // buf_LRU_old_init marks all 512 old; adjust_len walks LRU_old to the tail while
    // old_len > min(512·378/1024, 512 − 25) + 20 = 209.
    expect(l.oldLen).toBe(209);
    expect(l.old.indexOf(true)).toBe(512 - 209);
    expect(l.old.slice(303).every(Boolean)).toBe(true);
    // The 513th block is read: it enters right after LRU_old (old_len 210), then adjust moves
    // LRU_old one step to the tail (210 > 189 + 20), which is the new block itself.
    const f = touch(pool, 512);
    const l2 = pool.lruList();
    expect(l2.oldLen).toBe(209);
    expect(l2.frames.indexOf(f)).toBe(304);
    expect(l2.old.indexOf(true)).toBe(304);
    pool.checkValid();
  });

  it('the first access of a read page never makes it young with innodb_old_blocks_time > 0', () => {
    const clock = fakeClock();
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 600 * PS,
      innodb_old_blocks_time: 1000,
      device: deviceWithPages(2000),
      now: clock.now,
    });
    for (let p = 0; p < 700; p++) touch(pool, p); // full, evicting: freed_page_clock > 0
    pool.resetStats();
    const f = touch(pool, 1500); // read: enters at the midpoint, old
    expect(pool.lruList().old[pool.lruList().frames.indexOf(f)]).toBe(true);
    touch(pool, 1500);
    clock.advance(999);
    touch(pool, 1500);
    let s = pool.stats();
    expect(s.Innodb_buffer_pool_pages_made_young).toBe(0);
    expect(s.Innodb_buffer_pool_pages_not_made_young).toBe(3);
    clock.advance(1);
    touch(pool, 1500); // 1000 ms after the first access
    s = pool.stats();
    expect(s.Innodb_buffer_pool_pages_made_young).toBe(1);
    expect(pool.lruList().frames[0]).toBe(f);
    pool.checkValid();
  });

  it('"not too young": with innodb_old_blocks_time 0 a block moves only after curr_size·(1024−378)/4096 evictions', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 1024 * PS,
      innodb_old_blocks_time: 0,
      device: deviceWithPages(4000),
    });
    for (let p = 0; p < 1024; p++) touch(pool, p); // full, nothing evicted yet
    // Page 3000 is read at the midpoint (freed_page_clock of the block = 0, pool clock = 1) …
    const f = touch(pool, 3000);
    touch(pool, 3000);
    // … and 1 < 0 + 161 means young: no move.
    expect(pool.lruList().frames[0]).not.toBe(f);
    for (let p = 1024; p < 1024 + 159; p++) touch(pool, p); // clock = 160
    touch(pool, 3000);
    expect(pool.lruList().frames[0]).not.toBe(f);
    // Reading page 1183 evicts one more (clock = 161). Its own first access already finds it "too
    // old" (its block clock is 0 and 161 ≥ 0 + 161): 5.5's default made scanned pages young.
    touch(pool, 1183);
    expect(pool.stats().Innodb_buffer_pool_pages_made_young).toBe(1);
    touch(pool, 3000); // 161 ≥ 0 + 161: page 3000 moves to the head now
    expect(pool.lruList().frames[0]).toBe(f);
    expect(pool.stats().Innodb_buffer_pool_pages_made_young).toBe(2);
    pool.checkValid();
  });
});

describe('scan resistance', () => {
  function run(oldBlocksTime: number): number {
    const clock = fakeClock();
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 1024 * PS,
      innodb_old_blocks_time: 0,
      device: deviceWithPages(8000),
      now: clock.now,
    });
    // Warm-up: a hot set of 100 pages used all the time while 1,500 other pages pass through.
    for (let k = 0; k < 1500; k++) {
      touch(pool, 2000 + k);
      touch(pool, k % 100);
      clock.advance(1);
    }
    pool.setVariables({ innodb_old_blocks_time: oldBlocksTime });
    clock.advance(5000);
    // A full scan of 5,000 pages, each page touched 3 times in quick succession (rows of a page).
    for (let p = 3000; p < 8000; p++) {
      for (let r = 0; r < 3; r++) touch(pool, p);
      clock.advance(0.01);
    }
    pool.checkValid();
    let resident = 0;
    for (let p = 0; p < 100; p++) if (pool.peek(0, p) >= 0) resident++;
    return resident;
  }

  it('a full scan does not evict the hot set when innodb_old_blocks_time > 0', () => {
    expect(run(1000)).toBe(100);
  });

  it('with innodb_old_blocks_time = 0 the scan pushes the hot set out', () => {
    expect(run(0)).toBeLessThan(10);
  });
});

describe('plain LRU and CLOCK', () => {
  it('LRU moves every hit to the head', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 3 * PS,
      policy: 'lru',
      device: deviceWithPages(10),
    });
    const a = touch(pool, 0);
    const b = touch(pool, 1);
    const c = touch(pool, 2);
    touch(pool, 0);
    expect(pool.lruList().frames).toEqual([a, c, b]);
    touch(pool, 3); // evicts page 1 (tail)
    expect(pool.peek(0, 1)).toBe(-1);
    expect(pool.peek(0, 0)).toBe(a);
    pool.checkValid();
  });

  it('CLOCK gives a referenced page a second chance', () => {
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 3 * PS,
      policy: 'clock',
      device: deviceWithPages(10),
    });
    touch(pool, 0);
    touch(pool, 1);
    touch(pool, 2);
    touch(pool, 0); // the read set no bit; this hit sets page 0's bit
    touch(pool, 3); // hand: page 0 (bit) → cleared and kept; page 1 evicted
    expect(pool.peek(0, 1)).toBe(-1);
    expect(pool.peek(0, 0)).toBeGreaterThanOrEqual(0);
    touch(pool, 4); // page 2 has no bit: evicted
    expect(pool.peek(0, 2)).toBe(-1);
    expect(pool.peek(0, 0)).toBeGreaterThanOrEqual(0);
    pool.checkValid();
  });
});
