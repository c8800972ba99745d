import type { DeviceDescriptor, PageDevice } from './device.js';
import { FileDevice } from './file-device.js';
import { MemoryDevice } from './memory-device.js';
import { SimulatedDevice } from './simulated-device.js';

/** Opens a device from a descriptor made by `descriptor()` in another thread. */
export function openDevice(desc: DeviceDescriptor): PageDevice {
  switch (desc.kind) {
    case 'file':
      return new FileDevice(desc.path, { pageSize: desc.pageSize, create: false });
    case 'memory':
      return new MemoryDevice({ pageSize: desc.pageSize, name: desc.name, buffer: desc.buffer });
    case 'simulated':
      return new SimulatedDevice(openDevice(desc.inner), desc.profile);
    default:
      throw new TypeError(`unknown device descriptor kind ${String((desc as { kind: unknown }).kind)}`);
  }
}
