/** When a {@link FaultPlan} crashes the devices it governs. */
export interface FaultPlanOptions {
  /** Crash at the N-th `writePage` (1-based) over every device of the plan. Default: never. */
  readonly crashAtWrite?: number;
  /**
   * Crash at the N-th sync (1-based) over every device of the plan: a device's `sync()` or a
   * {@link FaultPlan.syncDirectory}. Default: never.
   */
  readonly crashAtSync?: number;
  /**
   * Tear the write that crashes: its first half of sectors reaches the disk, the rest keeps what
   * the disk held. A device whose pages are one sector (a 512-byte log block) writes all or
   * nothing, as a disk does. Default false (the crashing write is lost whole).
   */
  readonly tear?: boolean;
}

/**
 * What a crash leaves of the writes since the last barrier, decided place by place: for each page
 * with unsynced writes, which of them (if any) the disk holds, in any order relative to every other
 * page and device; for each file created since its directory was last synced, whether its entry
 * survived.
 */
export interface CrashChooser {
  /**
   * The unsynced write of `pageNo` on `device` that reached the disk: an index into its `versions`
   * unsynced writes, oldest first, or -1 for none of them (the page as the last sync left it).
   */
  pickVersion(device: string, pageNo: number, versions: number): number;
  /** Whether `device`'s file, created since its directory was last synced, is still there. */
  keepEntry(device: string): boolean;
}

/**
 * What survives of the writes made since the last sync when `FaultDevice.crash` runs. `'lost'`:
 * none of them, and a file whose directory was not synced since it was created is gone; `'kept'`:
 * every page's latest write, and every file; a function: a page's latest write or nothing, as it
 * answers (files stay); a {@link CrashChooser}: anything a disk may do (see {@link seededFate}).
 */
export type UnsyncedFate = 'lost' | 'kept' | ((device: string, pageNo: number) => boolean) | CrashChooser;

/** The {@link CrashChooser} a fate stands for. */
export function chooserOf(fate: UnsyncedFate): CrashChooser {
  if (typeof fate === 'object') return fate;
  if (fate === 'lost') return { pickVersion: () => -1, keepEntry: () => false };
  if (fate === 'kept') return { pickVersion: (_d, _p, n) => n - 1, keepEntry: () => true };
  return { pickVersion: (d, p, n) => (fate(d, p) ? n - 1 : -1), keepEntry: () => true };
}

/**
 * A crash that reorders, drawn from `seed` (xorshift32): each page with unsynced writes keeps none
 * of them or any one of them (not only the latest: two writes to one place may land in either
 * order), independently of every other page, so a later write may be durable while an earlier one
 * to another place is lost; each new file whose directory was not synced survives with even odds.
 * The same seed and the same calls give the same disk.
 */
export function seededFate(seed: number): CrashChooser {
  let s = seed >>> 0 || 0x9e3779b9;
  const next = (n: number): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
  return {
    pickVersion: (_d, _p, versions) => next(versions + 1) - 1,
    keepEntry: () => next(2) === 0,
  };
}

/** Thrown by every call of a device whose plan has crashed (and by the call that crashed it). */
export class SimulatedCrashError extends Error {
  override readonly name = 'SimulatedCrashError' as const;
  constructor(what: string) {
    super(`simulated crash at ${what}`);
  }
}

/**
 * The page cache of one file: every write since the last sync, per page, oldest first, shared by
 * every handle on the file (an fsync through any handle makes them all durable, as on a real
 * system).
 */
export interface FileCache {
  readonly versions: Map<number, Uint8Array[]>;
  /** Pages the file holds, cached writes included. */
  size: number;
}

/**
 * The crash schedule shared by several `FaultDevice`s (a data file and its log files), so "the
 * N-th write" counts writes in the order they reached any of them; the page cache of each file
 * (devices of one plan with the same name are handles on one file); and the directory entries of
 * the files they created, durable only once their directory is synced ({@link syncDirectory}).
 */
export class FaultPlan {
  readonly crashAtWrite: number;
  readonly crashAtSync: number;
  readonly tear: boolean;
  /** Writes and syncs seen so far (the crashing one included). */
  writes = 0;
  syncs = 0;
  /** True once the crash point has passed: every further call throws. */
  crashed = false;
  /** Files created whose directory has not been synced since: file name → its directory. */
  readonly #newEntries = new Map<string, string>();
  readonly #caches = new Map<string, FileCache>();

  constructor(options: FaultPlanOptions = {}) {
    this.crashAtWrite = checkPoint(options.crashAtWrite, 'crashAtWrite');
    this.crashAtSync = checkPoint(options.crashAtSync, 'crashAtSync');
    this.tear = options.tear === true;
  }

  /** Counts a write; true if this write is the crash point. */
  noteWrite(): boolean {
    if (this.crashed) throw new SimulatedCrashError('a write after the crash');
    this.writes++;
    if (this.writes === this.crashAtWrite) this.crashed = true;
    return this.crashed;
  }

  /** Counts a sync; true if this sync is the crash point. */
  noteSync(): boolean {
    if (this.crashed) throw new SimulatedCrashError('a sync after the crash');
    this.syncs++;
    if (this.syncs === this.crashAtSync) this.crashed = true;
    return this.crashed;
  }

  /** The page cache of the file `name`, made on first use over a durable image of `size` pages. */
  cacheOf(name: string, size: number): FileCache {
    let c = this.#caches.get(name);
    if (c === undefined) {
      c = { versions: new Map(), size };
      this.#caches.set(name, c);
    } else if (size > c.size) c.size = size;
    return c;
  }

  /** Records that `file` was created in `directory`: its entry may vanish until the directory is synced. */
  noteCreated(file: string, directory: string): void {
    this.#newEntries.set(file, directory);
  }

  /**
   * An fsync of `directory`: counts as a sync (it may be the crash point, which throws
   * {@link SimulatedCrashError} and leaves the entries as they were), then makes the entries of
   * every file created in it durable.
   */
  syncDirectory(directory: string): void {
    if (this.noteSync()) throw new SimulatedCrashError(`sync ${this.syncs} (directory ${directory})`);
    for (const [file, dir] of this.#newEntries) if (dir === directory) this.#newEntries.delete(file);
  }

  /** Forgets that `file`'s entry is at risk (a crash has decided its fate). */
  settleEntry(file: string): void {
    this.#newEntries.delete(file);
  }

  /** True if `file` was created and its directory not synced since. */
  entryVolatile(file: string): boolean {
    return this.#newEntries.has(file);
  }
}

function checkPoint(v: number | undefined, name: string): number {
  if (v === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(v) || v < 1)
    throw new RangeError(`${name} must be a positive integer, got ${String(v)}`);
  return v;
}
