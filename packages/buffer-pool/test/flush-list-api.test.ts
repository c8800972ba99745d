import { describe, expect, it } from 'vitest';
import { BufferPool, LATCH_X, MemoryDevice } from '../src/index.js';

function pool(): BufferPool {
  return new BufferPool({
    innodb_buffer_pool_size: 64 * 4096,
    innodb_page_size: 4096,
    device: new MemoryDevice({ pageSize: 4096 }),
  });
}

describe('flush list calls for a redo log', () => {
  it('oldestModification is the smallest first-change LSN of a dirty page; 0n when clean', () => {
    const p = pool();
    expect(p.oldestModification()).toBe(0n);
    const frames: number[] = [];
    for (let i = 0; i < 4; i++) {
      const f = p.allocatePage(0);
      p.unfix(f, LATCH_X);
      frames.push(f);
    }
    p.flushAll();
    const lsns = [500n, 300n, 900n, 700n];
    for (const [i, f] of frames.entries()) {
      p.fix(0, p.framePageNo(f), LATCH_X);
      p.markDirty(f, lsns[i]!);
      p.unfix(f, LATCH_X);
    }
    expect(p.oldestModification()).toBe(300n);
    // A later change keeps the first-change LSN.
    p.fix(0, p.framePageNo(frames[1]!), LATCH_X);
    p.markDirty(frames[1]!, 1000n);
    p.unfix(frames[1]!, LATCH_X);
    expect(p.oldestModification()).toBe(300n);
    p.checkValid();
  });

  it('flushOldest writes only pages below the limit, oldest first, at most maxPages', () => {
    const p = pool();
    const frames: number[] = [];
    for (let i = 0; i < 5; i++) {
      const f = p.allocatePage(0);
      p.unfix(f, LATCH_X);
      frames.push(f);
    }
    p.flushAll();
    for (const [i, f] of frames.entries()) {
      p.fix(0, p.framePageNo(f), LATCH_X);
      p.markDirty(f, BigInt(100 * (i + 1)));
      p.unfix(f, LATCH_X);
    }
    expect(p.flushOldest(350n, 1)).toBe(1);
    expect(p.oldestModification()).toBe(200n);
    expect(p.flushOldest(350n, 10)).toBe(2);
    expect(p.oldestModification()).toBe(400n);
    expect(frames.map((f) => p.isDirty(f))).toEqual([false, false, false, true, true]);
    expect(p.flushOldest(10_000n, 10)).toBe(2);
    expect(p.oldestModification()).toBe(0n);
    p.checkValid();
  });

  it('advanceLsn moves the LSN forward only, and markDirty without an LSN continues from it', () => {
    const p = pool();
    p.advanceLsn(1000n);
    p.advanceLsn(10n);
    expect(p.currentLsn()).toBe(1000n);
    const f = p.allocatePage(0);
    expect(p.currentLsn()).toBe(1001n);
    p.unfix(f, LATCH_X);
    expect(() => p.advanceLsn(-1n)).toThrow(RangeError);
  });
});
