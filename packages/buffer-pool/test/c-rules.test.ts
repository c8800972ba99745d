import { describe, expect, it } from 'vitest';
import { BUF_LRU_OLD_MIN_LEN_51, BufferPool, LATCH_S, LATCH_X, MemoryDevice } from '../src/index.js';
import { deviceWithPages, fakeClock } from './helpers/pages.js';

const PS = 512;

function touch(pool: BufferPool, pageNo: number): number {
  const f = pool.fix(0, pageNo, LATCH_S);
  pool.unfix(f, LATCH_S);
  return f;
}

describe('allocatePage is not a read request', () => {
  it('counts Innodb_pages_created only, as buf_page_create (buf/buf0buf.c) does', () => {
    // buf_page_create takes a free block and inits it; unlike buf_page_get_gen it does not bump
    // buf_pool->stat.n_page_gets, the source of Innodb_buffer_pool_read_requests.
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 16 * PS,
      device: new MemoryDevice({ pageSize: PS }),
    });
    for (let i = 0; i < 3; i++) pool.unfix(pool.allocatePage(0), LATCH_X);
    let s = pool.stats();
    expect(s.Innodb_buffer_pool_read_requests).toBe(0);
    expect(s.Innodb_pages_created).toBe(3);
    expect(s.Innodb_buffer_pool_write_requests).toBe(3);
    pool.unfix(pool.fix(0, 1, LATCH_S), LATCH_S);
    s = pool.stats();
    expect(s.Innodb_buffer_pool_read_requests).toBe(1);
    expect(s.Innodb_buffer_pool_reads).toBe(0);
  });
});

describe('policy midpoint51: the built-in InnoDB of MySQL 5.1', () => {
  // storage/innobase/buf/buf0lru.c (5.1.45): BUF_LRU_OLD_MIN_LEN 80, buf_LRU_old_adjust_len aims
  // at new_len = 3 * (len / 8) within BUF_LRU_OLD_TOLERANCE 20; buf_LRU_add_block_low inserts
  // after LRU_old once the list has 80 blocks. include/buf0buf.ic buf_block_peek_if_too_old:
  // promote iff buf_pool->freed_page_clock >= block->freed_page_clock + 1 + curr_size / 4.
  const make = () =>
    new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 100 * PS,
      policy: 'midpoint51',
      linearReadAhead: false,
      device: deviceWithPages(400),
    });

  it('the old sublist appears at 80 blocks: 50 old (target 3·⌊80/8⌋ = 30, + tolerance 20)', () => {
    expect(BUF_LRU_OLD_MIN_LEN_51).toBe(80);
    const pool = make();
    expect(pool.policy).toBe('midpoint51');
    for (let p = 0; p < 79; p++) touch(pool, p);
    expect(pool.lruList().oldLen).toBe(0);
    touch(pool, 79);
    // buf_LRU_old_init marks all 80 old; adjust_len then walks LRU_old towards the tail while
    // old_len > 30 + 20, stopping at 50: blocks 30..79 of the list are old.
    let l = pool.lruList();
    expect(l.oldLen).toBe(50);
    expect(l.old.indexOf(true)).toBe(30);
    // The 81st block enters right after LRU_old (old_len 51 > 3·⌊81/8⌋ + 20 = 50), so LRU_old
    // steps once to the tail, onto the new block itself: index 31, old_len 50.
    const f = touch(pool, 80);
    l = pool.lruList();
    expect(l.oldLen).toBe(50);
    expect(l.frames.indexOf(f)).toBe(31);
    expect(l.old.indexOf(true)).toBe(31);
    pool.checkValid();
  });

  it('promotes on the clock alone: at 25 evictions nothing moves, at 26 (= 1 + 100/4) any access does', () => {
    const pool = make();
    for (let p = 0; p < 100; p++) touch(pool, p); // full; every block's freed_page_clock is 0
    for (let p = 100; p < 125; p++) touch(pool, p); // 25 evictions
    expect(pool.stats().Innodb_buffer_pool_reads - 100).toBe(25);
    const f40 = pool.peek(0, 40);
    expect(f40).toBeGreaterThanOrEqual(0);
    const before = pool.lruList().frames.indexOf(f40);
    touch(pool, 40); // 25 >= 0 + 1 + 25 is false
    expect(pool.lruList().frames.indexOf(f40)).toBe(before);
    // The 26th eviction: the page read in (at the midpoint, clock 0) is promoted by its very first
    // access (26 >= 0 + 1 + 25) — the scan pollution that innodb_old_blocks_time later cured.
    const f125 = touch(pool, 125);
    expect(pool.lruList().frames[0]).toBe(f125);
    touch(pool, 40);
    expect(pool.lruList().frames[0]).toBe(f40);
    pool.checkValid();
  });

  it('5.5/5.6 midpoint with innodb_old_blocks_time keeps the same first access at the midpoint', () => {
    const clock = fakeClock();
    const pool = new BufferPool({
      innodb_page_size: PS,
      innodb_buffer_pool_size: 600 * PS,
      linearReadAhead: false,
      device: deviceWithPages(800),
      now: clock.now,
    });
    for (let p = 0; p < 750; p++) touch(pool, p);
    const f = touch(pool, 750);
    expect(pool.lruList().frames[0]).not.toBe(f);
  });
});

describe('innodb_buffer_pool_instances default', () => {
  // 5.6 include/srv0start.h BUF_POOL_SIZE_THRESHOLD (1 GiB); srv/srv0start.cc
  // innobase_start_or_create_for_mysql uses one instance below it, the default 8 from it up.
  it('is 8 from 1 GiB up and 1 below, as MySQL 5.6; an explicit value is kept', () => {
    const big = new BufferPool({ innodb_page_size: 65536, innodb_buffer_pool_size: 2 ** 30 });
    expect(big.instances).toBe(8);
    const small = new BufferPool({ innodb_page_size: 65536, innodb_buffer_pool_size: 2 ** 30 - 65536 });
    expect(small.instances).toBe(1);
    const set = new BufferPool({
      innodb_page_size: 65536,
      innodb_buffer_pool_size: 2 ** 30,
      innodb_buffer_pool_instances: 2,
    });
    expect(set.instances).toBe(2);
    expect(new BufferPool({ innodb_page_size: 4096, innodb_buffer_pool_size: 64 * 4096 }).instances).toBe(1);
  });
});
