import type { DeviceDescriptor, DiskProfile, PageDevice } from './device.js';

/**
 * Built-in disk models.
 *
 * - `hdd`: the blog's "4 × 5.4K disks in RAID5" seen by one reader: a random request waits for one
 *   spindle (10 ms average seek + half a turn at 5,400 rpm = 5.56 ms); a sequential stream runs at
 *   100 MB/s. We model the array as one queue: RAID5's extra spindles would serve concurrent random
 *   reads in parallel and stripe long transfers, which this model leaves out.
 * - `ssd`: a SATA SSD: 0.1 ms per non-sequential request, no rotation, 500 MB/s.
 * - `nvme`: an NVMe drive: 0.02 ms per non-sequential request, 3,000 MB/s.
 */
export const DISK_PROFILES: Readonly<Record<'hdd' | 'ssd' | 'nvme', DiskProfile>> = {
  hdd: { name: 'hdd', seekMs: 10, rpm: 5400, transferMBps: 100 },
  ssd: { name: 'ssd', seekMs: 0.1, rpm: 0, transferMBps: 500 },
  nvme: { name: 'nvme', seekMs: 0.02, rpm: 0, transferMBps: 3000 },
};

/** What a `SimulatedDevice` has charged since creation or `resetStats()`. */
export interface SimulatedDeviceStats {
  /** Modeled device time, milliseconds. */
  modeledMs: number;
  /** Read requests (one per `readPages` call). */
  readRequests: number;
  /** Write requests (one per `writePage` call). */
  writeRequests: number;
  pagesRead: number;
  pagesWritten: number;
  bytesRead: number;
  bytesWritten: number;
  /** Requests that paid seek + rotation (did not start at the head position). */
  positionings: number;
}

function checkProfile(p: DiskProfile): DiskProfile {
  for (const key of ['seekMs', 'rpm', 'transferMBps', 'requestMs'] as const) {
    const v = p[key];
    if (key === 'requestMs' && v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new RangeError(`profile.${key} must be a finite number ≥ 0, got ${String(v)}`);
    }
  }
  if (p.transferMBps === 0) throw new RangeError('profile.transferMBps must be > 0, got 0');
  return p;
}

/**
 * Wraps a device and charges modeled time per request, with a head position: a request starting
 * at the page where the previous one ended costs transfer time only; any other pays seek + half a
 * rotation + transfer; one request of k consecutive pages pays one positioning (plus the
 * profile's optional fixed `requestMs` per request). The data still
 * comes from (and goes to) the inner device, so figures are the same on any machine.
 *
 * @example
 * const disk = new SimulatedDevice(new MemoryDevice({ pageSize: 16384 }), 'hdd');
 */
export class SimulatedDevice implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  readonly inner: PageDevice;
  readonly profile: DiskProfile;
  /** Page after the last one transferred; -1 before the first request. */
  #head = -1;
  readonly #positionMs: number;
  readonly #pageMs: number;
  readonly #requestMs: number;
  #stats: SimulatedDeviceStats = SimulatedDevice.#zero();

  constructor(inner: PageDevice, profile: 'hdd' | 'ssd' | 'nvme' | DiskProfile) {
    const p = typeof profile === 'string' ? DISK_PROFILES[profile] : profile;
    if (p === undefined)
      throw new RangeError(`profile must be hdd, ssd, nvme or a DiskProfile, got ${String(profile)}`);
    this.profile = checkProfile(p);
    this.inner = inner;
    this.pageSize = inner.pageSize;
    this.name = inner.name;
    this.#positionMs = p.seekMs + (p.rpm > 0 ? 30000 / p.rpm : 0);
    this.#pageMs = (this.pageSize / (p.transferMBps * 1e6)) * 1000;
    this.#requestMs = p.requestMs ?? 0;
  }

  static #zero(): SimulatedDeviceStats {
    return {
      modeledMs: 0,
      readRequests: 0,
      writeRequests: 0,
      pagesRead: 0,
      pagesWritten: 0,
      bytesRead: 0,
      bytesWritten: 0,
      positionings: 0,
    };
  }

  /** Modeled milliseconds of one request of `count` pages starting at `first` (moves the head). */
  #charge(first: number, count: number): void {
    let ms = this.#requestMs + count * this.#pageMs;
    if (first !== this.#head) {
      ms += this.#positionMs;
      this.#stats.positionings++;
    }
    this.#head = first + count;
    this.#stats.modeledMs += ms;
  }

  size(): number {
    return this.inner.size();
  }

  readPages(first: number, count: number, dest: Uint8Array, destOffset: number): void {
    this.inner.readPages(first, count, dest, destOffset);
    this.#charge(first, count);
    this.#stats.readRequests++;
    this.#stats.pagesRead += count;
    this.#stats.bytesRead += count * this.pageSize;
  }

  writePage(pageNo: number, src: Uint8Array, srcOffset: number): void {
    this.inner.writePage(pageNo, src, srcOffset);
    this.#charge(pageNo, 1);
    this.#stats.writeRequests++;
    this.#stats.pagesWritten++;
    this.#stats.bytesWritten += this.pageSize;
  }

  sync(): void {
    this.inner.sync();
  }

  close(): void {
    this.inner.close();
  }

  /** A copy of the modeled figures. */
  stats(): SimulatedDeviceStats {
    return { ...this.#stats };
  }

  /** Zeroes the figures; the head position is kept. */
  resetStats(): void {
    this.#stats = SimulatedDevice.#zero();
  }

  descriptor(): DeviceDescriptor | null {
    const inner = this.inner.descriptor();
    return inner === null ? null : { kind: 'simulated', inner, profile: this.profile };
  }
}
