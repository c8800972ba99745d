import { counterAdd, counterRead } from './internal/u64-counter.js';

/** The three latch classes InnoDB counts separately. */
export type LatchClass = 'mutex' | 'rw-shared' | 'rw-excl';

/**
 * Slot layout of a counters region (each counter is a 64-bit low/high pair of Int32 lanes):
 *
 * | slot | counter | InnoDB variable |
 * |---|---|---|
 * | 0  | mutex spin waits  | `mutex_spin_wait_count` |
 * | 2  | mutex spin rounds | `mutex_spin_round_count` |
 * | 4  | mutex OS waits    | `mutex_os_wait_count` |
 * | 6  | RW-shared spins   | `rw_s_spin_wait_count` |
 * | 8  | RW-shared rounds  | `rw_s_spin_round_count` |
 * | 10 | RW-shared OS waits| `rw_s_os_wait_count` |
 * | 12 | RW-excl spins     | `rw_x_spin_wait_count` |
 * | 14 | RW-excl rounds    | `rw_x_spin_round_count` |
 * | 16 | RW-excl OS waits  | `rw_x_os_wait_count` |
 * | 18 | wait-array reservations | `sync_array->res_count` |
 * | 20 | wait-array signals      | `sync_array->sg_count` |
 */
export const COUNTER_SLOTS = 22;
/** @internal slot offsets, per class base + field */
export const C_MUTEX = 0;
export const C_RW_S = 6;
export const C_RW_X = 12;
export const F_SPIN_WAITS = 0;
export const F_SPIN_ROUNDS = 2;
export const F_OS_WAITS = 4;
export const C_RESERVATIONS = 18;
export const C_SIGNALS = 20;

/** A snapshot of one class's counters. */
export interface LatchClassCounts {
  /** Calls that found the latch busy and began to spin (`*_spin_wait_count`). */
  spinWaits: number;
  /** Delay loops spun in total (`*_spin_round_count`). */
  spinRounds: number;
  /** Times a thread went to sleep in `Atomics.wait` (`*_os_wait_count`). */
  osWaits: number;
}

/** A snapshot of every counter. */
export interface LatchCountsSnapshot {
  mutex: LatchClassCounts;
  rwShared: LatchClassCounts;
  rwExcl: LatchClassCounts;
  /** Wait cells reserved: every time a thread set a waiters flag to go to sleep. */
  reservations: number;
  /** Wake-ups sent (`Atomics.notify` calls made by unlock). */
  signals: number;
}

/** The postMessage-able form of {@link LatchCounters}. */
export interface LatchCountersDescriptor {
  kind: 'LatchCounters';
  buffer: SharedArrayBuffer;
  byteOffset: number;
}

/**
 * Spin/OS-wait counters per latch class, kept in a `SharedArrayBuffer` so every worker adds to
 * the same numbers. Counters are bumped only on the slow (contended) path, never by an
 * uncontended lock/unlock, exactly as in InnoDB.
 */
export class LatchCounters {
  /** The counter slots (see the layout table above). */
  readonly int32: Int32Array;

  /**
   * @param buffer a shared buffer to keep the counters in (default: a new one)
   * @param byteOffset where the {@link COUNTER_SLOTS} Int32 slots start (multiple of 4)
   */
  constructor(buffer?: SharedArrayBuffer, byteOffset = 0) {
    if (buffer === undefined) {
      this.int32 = new Int32Array(new SharedArrayBuffer(COUNTER_SLOTS * 4));
      return;
    }
    if (!(buffer instanceof SharedArrayBuffer)) {
      throw new TypeError(`LatchCounters: buffer must be a SharedArrayBuffer, got ${String(buffer)}`);
    }
    if (!Number.isInteger(byteOffset) || byteOffset < 0 || byteOffset % 4 !== 0) {
      throw new RangeError(
        `LatchCounters: byteOffset must be a non-negative multiple of 4, got ${byteOffset}`,
      );
    }
    if (byteOffset + COUNTER_SLOTS * 4 > buffer.byteLength) {
      throw new RangeError(
        `LatchCounters: byteOffset ${byteOffset} + ${COUNTER_SLOTS * 4} bytes exceeds buffer size ${buffer.byteLength}`,
      );
    }
    this.int32 = new Int32Array(buffer, byteOffset, COUNTER_SLOTS);
  }

  /** Reattach to counters created in another thread. */
  static fromDescriptor(descriptor: LatchCountersDescriptor): LatchCounters {
    if (descriptor === null || typeof descriptor !== 'object' || descriptor.kind !== 'LatchCounters') {
      throw new TypeError(
        `LatchCounters.fromDescriptor: not a LatchCounters descriptor: ${String(descriptor)}`,
      );
    }
    return new LatchCounters(descriptor.buffer, descriptor.byteOffset);
  }

  /** A plain object to `postMessage` to a worker. */
  descriptor(): LatchCountersDescriptor {
    return {
      kind: 'LatchCounters',
      buffer: this.int32.buffer as SharedArrayBuffer,
      byteOffset: this.int32.byteOffset,
    };
  }

  /** Read every counter. */
  snapshot(): LatchCountsSnapshot {
    const c = this.int32;
    const cls = (base: number): LatchClassCounts => ({
      spinWaits: counterRead(c, base + F_SPIN_WAITS),
      spinRounds: counterRead(c, base + F_SPIN_ROUNDS),
      osWaits: counterRead(c, base + F_OS_WAITS),
    });
    return {
      mutex: cls(C_MUTEX),
      rwShared: cls(C_RW_S),
      rwExcl: cls(C_RW_X),
      reservations: counterRead(c, C_RESERVATIONS),
      signals: counterRead(c, C_SIGNALS),
    };
  }

  /**
   * The counters under the status-variable names XtraDB / MariaDB 10.0 (`SHOW STATUS LIKE
   * 'Innodb_%lock%'`) give them, for an engine's SHOW STATUS.
   */
  statusVariables(): Record<string, number> {
    const s = this.snapshot();
    return {
      Innodb_mutex_spin_waits: s.mutex.spinWaits,
      Innodb_mutex_spin_rounds: s.mutex.spinRounds,
      Innodb_mutex_os_waits: s.mutex.osWaits,
      Innodb_s_lock_spin_waits: s.rwShared.spinWaits,
      Innodb_s_lock_spin_rounds: s.rwShared.spinRounds,
      Innodb_s_lock_os_waits: s.rwShared.osWaits,
      Innodb_x_lock_spin_waits: s.rwExcl.spinWaits,
      Innodb_x_lock_spin_rounds: s.rwExcl.spinRounds,
      Innodb_x_lock_os_waits: s.rwExcl.osWaits,
    };
  }

  /** Zero every counter (not atomic as a whole; do it while no thread is contending). */
  reset(): void {
    for (let i = 0; i < COUNTER_SLOTS; i++) Atomics.store(this.int32, i, 0);
  }

  /** @internal add `n` to the counter at `slot`. */
  add(slot: number, n: number): void {
    counterAdd(this.int32, slot, n);
  }
}

function perWait(rounds: number, spins: number): string {
  return (rounds / Math.max(spins, 1)).toFixed(2);
}

/**
 * The SEMAPHORES section of `SHOW ENGINE INNODB STATUS` as InnoDB 5.5 prints it
 * (`sync_print_wait_info`, `sync_array_print_info`).
 *
 * @example
 * ```
 * ----------
 * SEMAPHORES
 * ----------
 * OS WAIT ARRAY INFO: reservation count 12, signal count 9
 * Mutex spin waits 310, rounds 4120, OS waits 12
 * RW-shared spins 0, rounds 0, OS waits 0
 * RW-excl spins 0, rounds 0, OS waits 0
 * Spin rounds per wait: 13.29 mutex, 0.00 RW-shared, 0.00 RW-excl
 * ```
 */
export function formatInnodbStatus(counters: LatchCounters): string {
  return ['----------', 'SEMAPHORES', '----------', ...semaphoreLines(counters.snapshot()), ''].join('\n');
}

/**
 * The body of SHOW ENGINE INNODB STATUS's SEMAPHORES section for a snapshot (what
 * {@link formatInnodbStatus} prints under the banner), one string per line.
 */
export function semaphoreLines(s: LatchCountsSnapshot): string[] {
  const line = (label: string, spinsWord: string, k: LatchClassCounts): string =>
    `${label} ${spinsWord} ${k.spinWaits}, rounds ${k.spinRounds}, OS waits ${k.osWaits}`;
  return [
    `OS WAIT ARRAY INFO: reservation count ${s.reservations}, signal count ${s.signals}`,
    line('Mutex', 'spin waits', s.mutex),
    line('RW-shared', 'spins', s.rwShared),
    line('RW-excl', 'spins', s.rwExcl),
    `Spin rounds per wait: ${perWait(s.mutex.spinRounds, s.mutex.spinWaits)} mutex, ` +
      `${perWait(s.rwShared.spinRounds, s.rwShared.spinWaits)} RW-shared, ` +
      `${perWait(s.rwExcl.spinRounds, s.rwExcl.spinWaits)} RW-excl`,
  ];
}
