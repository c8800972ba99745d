import { LatchCounters } from './counters.js';
import { THREAD_ID } from './thread-id.js';

/**
 * How a latch waits once its first compare-and-swap fails. One object is shared by every call
 * that does not pass its own; {@link configureLatches} changes it for the calling thread.
 */
export interface LatchConfig {
  /** `innodb_sync_spin_loops`: spin rounds before sleeping (default 30). */
  spinLoops: number;
  /** `innodb_spin_wait_delay`: upper bound of one round's random delay, in delay units (default 6). */
  spinDelay: number;
  /** Where slow-path events are counted; `null` counts nothing. */
  counters: LatchCounters | null;
}

/** Options in MySQL's names, as accepted by the classes and {@link configureLatches}. */
export interface LatchOptions {
  /** Spin rounds before the thread sleeps in `Atomics.wait`. Unit: rounds. Default 30. */
  innodb_sync_spin_loops?: number;
  /** Maximum random busy delay per round. Unit: one `ut_delay` unit (50 dummy-loop steps). Default 6. */
  innodb_spin_wait_delay?: number;
  /** Counters to add to; default: the thread's shared default counters; `null`: none. */
  counters?: LatchCounters | null;
}

/** InnoDB 5.5/5.6 default of `innodb_sync_spin_loops`. */
export const DEFAULT_SPIN_LOOPS = 30;
/** InnoDB 5.5/5.6 default of `innodb_spin_wait_delay`. */
export const DEFAULT_SPIN_WAIT_DELAY = 6;
/**
 * Built-in InnoDB of MySQL 5.1: `srv_n_spin_wait_rounds = 20` (`storage/innobase/srv/srv0srv.c`,
 * the global's initialiser; `innodb_sync_spin_loops`), the default of `LegacyRWLock`.
 */
export const DEFAULT_SPIN_LOOPS_51 = 20;
/**
 * Built-in InnoDB of MySQL 5.1: `srv_spin_wait_delay = 5` (`storage/innobase/srv/srv0srv.c`),
 * the default of `LegacyRWLock`. (The Plugin 1.0.4 raised the pair to 30/6.)
 */
export const DEFAULT_SPIN_WAIT_DELAY_51 = 5;

/** The calling thread's default configuration, used when a call passes none. */
export const defaultLatchConfig: LatchConfig = {
  spinLoops: DEFAULT_SPIN_LOOPS,
  spinDelay: DEFAULT_SPIN_WAIT_DELAY,
  counters: new LatchCounters(),
};

function checkNonNegInt(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${String(value)}`);
  }
  if (value < 0 || value > max) throw new RangeError(`${name} must be in 0..${max}, got ${value}`);
  return value;
}

/** Build a {@link LatchConfig} from MySQL-named options, filling gaps from `base`. */
export function resolveLatchConfig(
  options: LatchOptions = {},
  base: LatchConfig = defaultLatchConfig,
): LatchConfig {
  const counters = options.counters === undefined ? base.counters : options.counters;
  if (counters !== null && !(counters instanceof LatchCounters)) {
    throw new TypeError(`counters must be a LatchCounters or null, got ${String(counters)}`);
  }
  return {
    spinLoops:
      options.innodb_sync_spin_loops === undefined
        ? base.spinLoops
        : checkNonNegInt('innodb_sync_spin_loops', options.innodb_sync_spin_loops, 2 ** 30),
    spinDelay:
      options.innodb_spin_wait_delay === undefined
        ? base.spinDelay
        : checkNonNegInt('innodb_spin_wait_delay', options.innodb_spin_wait_delay, 6000),
    counters,
  };
}

/**
 * Change the calling thread's defaults (like `SET GLOBAL innodb_sync_spin_loops = …`). In a
 * worker, pass the main thread's counters (`LatchCounters.fromDescriptor`) so all threads count
 * into one place.
 */
export function configureLatches(options: LatchOptions): void {
  const next = resolveLatchConfig(options);
  defaultLatchConfig.spinLoops = next.spinLoops;
  defaultLatchConfig.spinDelay = next.spinDelay;
  defaultLatchConfig.counters = next.counters;
}

// ut_rnd: the random delay uses the counter step of InnoDB's ut_rnd_gen_ulint (151117737·c +
// 119785373) without the further ut_rnd_gen_next_ulint scrambling; one state per thread, seeded
// by the thread id so workers do not spin in lockstep.
let rndState = Math.imul(THREAD_ID, 0x9e3779b1) | 0;
let sink = 0;

/**
 * `ut_rnd_interval(0, delay)` with the 5.5/5.6/MariaDB 10.0 bound: a value in 0..delay−1
 * (so the default 6 gives 0..5).
 */
export function randomDelayUnits(delay: number): number {
  rndState = (Math.imul(rndState, 151117737) + 119785373) | 0;
  return ((rndState >>> 8) % delay) | 0;
}

/**
 * `ut_rnd_interval(0, delay)` of the built-in InnoDB of MySQL 5.1 (`include/ut0rnd.ic`:
 * `low + rnd % (high - low + 1)`): a value in 0..delay inclusive (so its default 5 gives 0..5).
 */
export function randomDelayUnits51(delay: number): number {
  rndState = (Math.imul(rndState, 151117737) + 119785373) | 0;
  return ((rndState >>> 8) % (delay + 1)) | 0;
}

/** Dummy-loop steps per `ut_delay` unit: 50 as in InnoDB, or what {@link calibrateUtDelay} set. */
let loopsPerUnit = 50;

/**
 * `ut_delay(units)`: a dummy loop of `units × 50` iterations of `j += i` (`ut/ut0ut.c`). The
 * built-in InnoDB of MySQL 5.1 ran exactly this loop, so the default is faithful to it; the
 * Plugin, 5.5 and 5.6 add a PAUSE (`UT_RELAX_CPU`) to every iteration, which JavaScript cannot
 * execute, making their unit 10–100× longer: {@link calibrateUtDelay} scales the loop to a given
 * unit length. The result is folded into a module variable so the loop is not elided.
 */
export function utDelay(units: number): void {
  let j = 0;
  const n = units * loopsPerUnit;
  for (let i = 0; i < n; i++) j = (j + i) | 0;
  sink ^= j;
}

/** What {@link calibrateUtDelay} measured and chose. */
export interface UtDelayCalibration {
  /** Nanoseconds one step of the dummy loop took on this thread. */
  nsPerLoop: number;
  /** Steps per `ut_delay` unit now in use (50: InnoDB's uncalibrated count). */
  loopsPerUnit: number;
  /** Nanoseconds one unit now takes (≈ loopsPerUnit × nsPerLoop). */
  nsPerUnit: number;
}

/** Times the dummy loop: nanoseconds per step, from the fastest of a few 200k-step runs. */
function measureNsPerLoop(): number {
  let best = Infinity;
  const steps = 200_000;
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    let j = 0;
    for (let i = 0; i < steps; i++) j = (j + i) | 0;
    const dt = performance.now() - t0;
    sink ^= j;
    if (dt > 0 && dt < best) best = dt;
  }
  return best === Infinity ? 0.5 : (best * 1e6) / steps;
}

/**
 * Calibrated mode for the calling thread: make one `ut_delay` unit last about `nsPerUnit`
 * nanoseconds, measured on this machine, instead of 50 loop steps. InnoDB's PAUSE-based unit is
 * 50 × PAUSE: about 0.5 µs where PAUSE takes ~10 cycles (before Skylake), 2–7 µs where it takes
 * ~140 cycles (Skylake and later). Pass `null` to go back to InnoDB's 50 steps (the 5.1 unit,
 * 15–40 ns here). Returns the measurement and the setting now in force.
 */
export function calibrateUtDelay(nsPerUnit: number | null): UtDelayCalibration {
  const nsPerLoop = measureNsPerLoop();
  if (nsPerUnit === null) {
    loopsPerUnit = 50;
  } else {
    if (typeof nsPerUnit !== 'number' || !(nsPerUnit > 0) || nsPerUnit > 1e9) {
      throw new RangeError(`nsPerUnit must be a number in (0, 1e9], got ${String(nsPerUnit)}`);
    }
    loopsPerUnit = Math.max(1, Math.round(nsPerUnit / nsPerLoop));
  }
  return { nsPerLoop, loopsPerUnit, nsPerUnit: loopsPerUnit * nsPerLoop };
}

/** The running XOR of every `ut_delay` loop result; exported so the bundler cannot drop the loop as dead code. */
export function delaySink(): number {
  return sink;
}
