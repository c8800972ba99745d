// The redo record of a changed page is the same wherever its frame lies in the pool: a frame past
// 2 GiB (a pool larger than a signed 32-bit byte offset) gives the bytes a frame at the start gives.
import { describe, expect, it } from 'vitest';
import { logPageDiff, RecordBuilder } from '../../../src/storage/redo/page-diff.js';

const PS = 16384;

function diffAt(poolBytes: number, frameOff: number): Uint8Array {
  // the pool: lazily committed memory, only the page written is touched
  const pool = new Uint8Array(new SharedArrayBuffer(poolBytes));
  const copy = new Uint8Array(PS);
  for (let i = 0; i < PS; i++) copy[i] = (i * 31) & 0xff;
  pool.set(copy, frameOff);
  // three changed ranges: one byte, a word-straddling run, and the page's last bytes
  pool[frameOff + 100] = (pool[frameOff + 100] ?? 0) ^ 0xff;
  for (let i = 5001; i < 5013; i++) pool[frameOff + i] = 7;
  pool[frameOff + PS - 1] = (pool[frameOff + PS - 1] ?? 0) ^ 1;
  const out = new RecordBuilder();
  const written = logPageDiff(
    out,
    0,
    42,
    copy,
    0,
    pool,
    frameOff,
    PS,
    new Int32Array(copy.buffer),
    new Int32Array(pool.buffer, 0, poolBytes / 4),
  );
  expect(written).toBe(true);
  return out.bytes.slice(0, out.length);
}

describe('logPageDiff', () => {
  it('a frame past 2 GiB logs the same record as a frame at the start', () => {
    const low = diffAt(4 * PS, PS);
    const high = diffAt(2 ** 31 + 2 * PS, 2 ** 31 + PS);
    expect(high).toEqual(low);
    expect(low.length).toBeGreaterThan(20);
  });
});
