import type { DeviceDescriptor, PageDevice } from './device.js';

/** What a worker needs to attach to a pool: the shared buffer and how to open each space. */
export interface BufferPoolDescriptor {
  readonly buffer: SharedArrayBuffer;
  readonly spaces: ReadonlyArray<{ readonly space: number; readonly device: DeviceDescriptor | null }>;
}

/** Options of `BufferPool.attach()`. */
export interface AttachOptions {
  /** Devices to use instead of reopening the descriptors, by space id. */
  devices?: ReadonlyMap<number, PageDevice> | Readonly<Record<number, PageDevice>>;
  /** Millisecond clock; default `Date.now`. */
  now?: () => number;
}
