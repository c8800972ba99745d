import type { PageDevice } from '../device.js';
import { checkPageNo } from '../device.js';
import { checkInt } from '../options.js';
import { mutexLock, mutexUnlock } from './latch.js';
import { H_NSPACES, type PoolLayout } from './layout.js';
import type { PoolThread } from './thread.js';

/**
 * The tablespace table: `L.spaces` holds [space id, size in pages] pairs, appended under the
 * space mutex; a space id is published last (Atomics.store) so lock-free readers see its size.
 */

/** Index of `space`'s pair in `L.spaces`, or −1. */
export function spaceSlot(L: PoolLayout, space: number): number {
  const n = L.header[H_NSPACES]!;
  for (let i = 0; i < n; i++) if (Atomics.load(L.spaces, i * 2) === space) return i * 2;
  return -1;
}

/**
 * Registers `device` as tablespace `space` in this thread. The first registration in any thread
 * records the space's size (device pages); a later one only grows it.
 */
export function registerSpace(t: PoolThread, space: number, device: PageDevice): void {
  const L = t.L;
  checkInt('space', space, 0, 2 ** 31 - 1);
  if (device === null || typeof device !== 'object' || typeof device.readPages !== 'function') {
    throw new TypeError(`device must be a PageDevice, got ${String(device)}`);
  }
  if (device.pageSize !== L.pageSize) {
    throw new RangeError(
      `device.pageSize must equal the pool's page size ${L.pageSize}, got ${device.pageSize}`,
    );
  }
  mutexLock(L.latches, L.spaceMutex, t.cfg);
  try {
    let slot = spaceSlot(L, space);
    if (slot < 0) {
      const n = L.header[H_NSPACES]!;
      if (n >= L.maxSpaces) throw new RangeError(`space table is full (maxSpaces ${L.maxSpaces})`);
      slot = n * 2;
      L.spaces[slot + 1] = device.size();
      Atomics.store(L.spaces, slot, space);
      L.header[H_NSPACES] = n + 1;
    } else {
      const size = device.size();
      if (size > L.spaces[slot + 1]!) L.spaces[slot + 1] = size;
    }
  } finally {
    mutexUnlock(L.latches, L.spaceMutex, t.cfg);
  }
  t.devices.set(space, device);
}

/** Pages of `space` (allocated so far, flushed or not); RangeError if unknown. */
export function spaceSize(L: PoolLayout, space: number): number {
  const slot = spaceSlot(L, space);
  if (slot < 0) throw new RangeError(`space ${space} is not registered`);
  return Atomics.load(L.spaces, slot + 1);
}

/**
 * Validates a miss under instance mutex `m`: the space is registered in this thread and the page
 * exists. Returns the space's size; on an error it unlocks `m` first, then throws.
 */
export function checkReadable(t: PoolThread, space: number, pageNo: number, m: number): number {
  const L = t.L;
  const slot = spaceSlot(L, space);
  const size = slot < 0 ? -1 : Atomics.load(L.spaces, slot + 1);
  const known = slot >= 0 && t.devices.has(space);
  if (known && pageNo >= 0 && pageNo < size && Number.isInteger(pageNo)) return size;
  mutexUnlock(L.latches, m, t.cfg);
  if (!known) {
    checkInt('space', space, 0, 2 ** 31 - 1);
    throw new RangeError(`space ${space} is not registered`);
  }
  checkPageNo(pageNo);
  throw new RangeError(`pageNo ${pageNo} is past the end of space ${space} (${size} pages)`);
}

/**
 * Takes the next page number of `space` (`fsp` allocation, one page at a time). RangeError if the
 * space is not registered in this thread or is full.
 */
export function appendPageNo(t: PoolThread, space: number): number {
  const L = t.L;
  const slot = spaceSlot(L, space);
  if (slot < 0 || !t.devices.has(space)) {
    checkInt('space', space, 0, 2 ** 31 - 1);
    throw new RangeError(`space ${space} is not registered`);
  }
  const pageNo = Atomics.add(L.spaces, slot + 1, 1);
  if (pageNo >= 0x7fffffff) throw new RangeError(`space ${space} is full (${pageNo} pages)`);
  return pageNo;
}
