import type { AttachOptions, BufferPoolDescriptor } from '../descriptor.js';
import type { DeviceDescriptor, PageDevice } from '../device.js';
import { openDevice } from '../open-device.js';
import { mutexLock, mutexUnlock } from './latch.js';
import { C_STRIDE } from './layout.js';
import { registerSpace } from './spaces.js';
import type { PoolThread } from './thread.js';

/** Checks that `desc` looks like a `descriptor()` result before anything is attached. */
export function checkDescriptor(desc: unknown): asserts desc is BufferPoolDescriptor {
  if (
    desc === null ||
    typeof desc !== 'object' ||
    !((desc as BufferPoolDescriptor).buffer instanceof SharedArrayBuffer) ||
    !Array.isArray((desc as BufferPoolDescriptor).spaces)
  ) {
    throw new TypeError('desc must come from BufferPool.descriptor()');
  }
}

/** The descriptor of this thread's pool: the buffer and each registered space's device recipe. */
export function makeDescriptor(t: PoolThread): BufferPoolDescriptor {
  t.shared = true;
  const spaces: { space: number; device: DeviceDescriptor | null }[] = [];
  for (const [space, dev] of t.devices) spaces.push({ space, device: dev.descriptor() });
  return { buffer: t.L.sab, spaces };
}

/**
 * Registers every space of `desc` in a freshly attached thread: with the device given in
 * `options.devices`, else one reopened from its descriptor (its own file handle).
 */
export function attachSpaces(t: PoolThread, desc: BufferPoolDescriptor, options: AttachOptions): void {
  const given = options.devices;
  for (const { space, device } of desc.spaces) {
    let dev: PageDevice | undefined;
    if (given instanceof Map) dev = given.get(space);
    else if (given !== undefined) dev = (given as Readonly<Record<number, PageDevice>>)[space];
    if (dev === undefined) {
      if (device === null)
        throw new TypeError(`space ${space} has no shareable device; pass it in options.devices`);
      dev = openDevice(device);
    }
    registerSpace(t, space, dev);
  }
}

/**
 * Gives the thread's counter slot back: its counts move to the detached threads' block (so
 * statistics keep them) and the slot can serve a later attach.
 */
export function retireThread(t: PoolThread): void {
  const L = t.L;
  const slot = t.slot;
  if (slot < 0) return;
  const retired = L.maxThreads * L.instances * C_STRIDE;
  const n = L.instances * C_STRIDE;
  mutexLock(L.latches, L.spaceMutex, t.cfg);
  for (let i = 0; i < n; i++) {
    L.counters[retired + i]! += L.counters[t.cbase + i]!;
    L.counters[t.cbase + i] = 0;
  }
  mutexUnlock(L.latches, L.spaceMutex, t.cfg);
  t.slot = -1;
  t.shared = true;
  Atomics.store(L.slots, slot, 0);
}
