export type { DeviceDescriptor, DiskProfile, PageDevice } from './device.js';
export { FileDevice } from './file-device.js';
export type { FileDeviceOptions } from './file-device.js';
export { MemoryDevice } from './memory-device.js';
export type { MemoryDeviceOptions } from './memory-device.js';
export { DISK_PROFILES, SimulatedDevice } from './simulated-device.js';
export type { SimulatedDeviceStats } from './simulated-device.js';
export { FaultDevice, SECTOR_SIZE } from './fault-device.js';
export type { FaultDeviceOptions } from './fault-device.js';
export { FaultPlan, SimulatedCrashError, seededFate } from './fault-plan.js';
export type { CrashChooser, FaultPlanOptions, UnsyncedFate } from './fault-plan.js';
export { openDevice } from './open-device.js';
export * from './envelope.js';
export { LATCH_NONE, LATCH_S, LATCH_X } from './page-store.js';
export type { LatchMode, PageStore } from './page-store.js';
export { BufferPoolFullError, CorruptionError } from './errors.js';
export { BufferPool } from './pool.js';
export type { AttachOptions, BufferPoolDescriptor } from './descriptor.js';
export type { BufferPoolOptions, BufferPoolVariables, ReplacementPolicy } from './options.js';
export type { BufferPoolStats } from './stats.js';
export {
  BUF_LRU_OLD_MIN_LEN,
  BUF_LRU_OLD_MIN_LEN_51,
  BUF_LRU_OLD_RATIO_DIV,
  BUF_LRU_OLD_TOLERANCE,
  oldRatioFromPct,
  pctFromOldRatio,
} from './midpoint-lru.js';
