import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import {
  CorruptionError,
  FileDevice,
  getPageLsn,
  type PageDevice,
  readUint32BE,
  verifyPage,
} from '@enginekit/buffer-pool';
import { HDR_DATABASE_ID, HDR_IN_USE } from '../header.js';
import { type DirectorySyncOptions, fsyncParent } from '../dir-sync.js';
import { allocateFile } from '../file-extend.js';
import { DOUBLEWRITE_BATCH, DoublewriteBatches, type DoublewriteDescriptor } from './doublewrite-batches.js';
import { type DoublewriteRegion, DurableDevice, readDoublewrite } from './doublewrite.js';
import { RedoLogError } from './errors.js';
import { BLOCK, BLOCK_HDR, type Checkpoint, decodeFileHeader, LOG_START_LSN, readU64 } from './format.js';
import { LogFiles, MIN_LOG_FILE_SIZE } from './log-files.js';
import { scanLog } from './log-scan.js';
import { applyRedo, type RecoveryReport } from './recovery.js';
import { type FlushLogAtTrxCommit, RedoLog, type RedoLogDescriptor } from './redo-log.js';

/** What a file device is to the database: the data file, a redo log file, the doublewrite file. */
export type DeviceRole = 'data' | 'log' | 'doublewrite';

/**
 * The durability options of a database (all MySQL system variables except `redo` and the test
 * hooks `wrapDevice` and `onDirectorySync`).
 */
export interface DurabilityOptions extends DirectorySyncOptions {
  /** Keep a redo log (and crash recovery). Default true; off, a crash can lose anything since the last flush. */
  readonly redo?: boolean;
  /** 1 (default): write and fsync at commit; 2: write at commit, fsync once a second; 0: both once a second. */
  readonly innodb_flush_log_at_trx_commit?: FlushLogAtTrxCommit;
  /** Bytes per log file, a multiple of 512, at least 65536. Default 50331648 (48 MiB). */
  readonly innodb_log_file_size?: number;
  /** Log files in the group, 1–100. Default 2. */
  readonly innodb_log_files_in_group?: number;
  /** Bytes of the log buffer. Default 16777216 (16 MiB). */
  readonly innodb_log_buffer_size?: number;
  /** Write pages through a doublewrite file first, to repair torn pages. Default true. */
  readonly innodb_doublewrite?: boolean;
  /** Pages per second the page cleaner writes at its base rate. Default 200. */
  readonly innodb_io_capacity?: number;
  /** The most pages per second adaptive flushing may ask for. Default 2000. */
  readonly innodb_io_capacity_max?: number;
  /** Flush faster as the log fills (`af_get_pct_for_lsn`). Default true. */
  readonly innodb_adaptive_flushing?: boolean;
  /**
   * Test hook: wraps each raw file device (a `FaultDevice`, say) before the engine uses it;
   * `created` is true when this open made the file (its name is durable only once the engine
   * fsynced its directory, which `onDirectorySync` reports).
   */
  readonly wrapDevice?: (device: PageDevice, role: DeviceRole, created: boolean) => PageDevice;
}

/** The files of the redo log group and the doublewrite file of a database file. */
export function redoFiles(path: string, files: number): { logs: string[]; doublewrite: string } {
  return {
    logs: Array.from({ length: files }, (_, i) => `${path}.ib_logfile${i}`),
    doublewrite: `${path}.ib_doublewrite`,
  };
}

/**
 * Removes the redo log and doublewrite files beside `path` (after replacing the data file, or
 * before changing it without its log), then fsyncs the directory when it removed any: a removal
 * the disk forgot would bring back a log that no longer describes the pages.
 */
export function removeRedoFiles(path: string, o: DirectorySyncOptions = {}): void {
  const gone: string[] = [];
  for (let i = 0; existsSync(`${path}.ib_logfile${i}`); i++) gone.push(`${path}.ib_logfile${i}`);
  if (existsSync(`${path}.ib_doublewrite`)) gone.push(`${path}.ib_doublewrite`);
  for (const p of gone) rmSync(p, { force: true });
  if (gone.length > 0) fsyncParent(path, o);
}

/**
 * Before a database is opened without its redo log (`redo: false`): a log that still has redo to
 * apply is refused (a RedoLogError, nothing written); a clean one is removed, since the file will
 * change without it. Returns the removed log's end LSN (0n when there was none): the pool's LSN
 * must continue above it, so a log made later starts past every page.
 */
export function dropCleanRedo(path: string, pageSize: number, o: DirectorySyncOptions = {}): bigint {
  const log0 = redoFiles(path, 1).logs[0]!;
  if (!existsSync(log0)) return 0n;
  const head = new FileDevice(log0, { pageSize: BLOCK, create: false });
  const hb = new Uint8Array(BLOCK);
  let h: ReturnType<typeof decodeFileHeader>;
  try {
    head.readPages(0, 1, hb, 0);
    h = decodeFileHeader(hb);
  } finally {
    head.close();
  }
  if (typeof h === 'string') throw new RedoLogError(log0, h);
  const files = new LogFiles(
    redoFiles(path, h.files).logs.map((p) => new FileDevice(p, { pageSize: BLOCK, create: false })),
    h.fileSize,
  );
  let pending: number;
  let end: bigint;
  try {
    files.readHeaders();
    const scan = scanLog(files, pageSize);
    pending = scan.mtrs.length;
    end = scan.end;
  } finally {
    files.close();
  }
  if (pending > 0)
    throw new RedoLogError(
      log0,
      `has ${pending} mini-transaction(s) to apply after its checkpoint: open the database with the redo log on first`,
    );
  removeRedoFiles(path, o);
  return end;
}

/** What opening the durable side of a database produced. */
export interface DurableOpen {
  /** The device the buffer pool writes through (WAL + doublewrite). */
  readonly device: DurableDevice;
  readonly redo: RedoLog;
  /** Set when the log had redo after its checkpoint (or torn pages were repaired). */
  readonly report: RecoveryReport | null;
  /** The last shutdown was clean (its checkpoint says so, and no redo follows it). */
  readonly clean: boolean;
  /** The identity the log carries (page 0 must carry it too). */
  readonly databaseId: bigint;
}

function checkInt(name: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
    throw new RangeError(`${name} must be an integer in [${lo}, ${hi}], got ${String(v)}`);
  return v;
}

/** Checked durability options with defaults. */
export function durabilitySettings(o: DurabilityOptions): {
  fileSize: number;
  files: number;
  bufferSize: number;
  flush: FlushLogAtTrxCommit;
  doublewrite: boolean;
} {
  const fileSize = checkInt(
    'innodb_log_file_size',
    o.innodb_log_file_size ?? 50331648,
    MIN_LOG_FILE_SIZE,
    2 ** 40,
  );
  if (fileSize % BLOCK !== 0)
    throw new RangeError(`innodb_log_file_size must be a multiple of 512, got ${fileSize}`);
  const files = checkInt('innodb_log_files_in_group', o.innodb_log_files_in_group ?? 2, 1, 100);
  const bufferSize = checkInt('innodb_log_buffer_size', o.innodb_log_buffer_size ?? 16777216, 4096, 2 ** 32);
  const flush = o.innodb_flush_log_at_trx_commit ?? 1;
  if (flush !== 0 && flush !== 1 && flush !== 2)
    throw new RangeError(`innodb_flush_log_at_trx_commit must be 0, 1 or 2, got ${String(flush)}`);
  return { fileSize, files, bufferSize, flush, doublewrite: o.innodb_doublewrite ?? true };
}

function wrap(o: DurabilityOptions, d: PageDevice, role: DeviceRole, created: boolean): PageDevice {
  return o.wrapDevice === undefined ? d : o.wrapDevice(d, role, created);
}

function openLogDevices(o: DurabilityOptions, paths: string[], create: boolean): PageDevice[] {
  return paths.map((p) =>
    wrap(o, new FileDevice(p, { pageSize: BLOCK, create, truncate: create }), 'log', create),
  );
}

/** A new 64-bit database identity (never 0). */
export function newDatabaseId(): bigint {
  const id = randomBytes(8).readBigUInt64BE(0);
  return id === 0n ? 1n : id;
}

/** The opening thread's doublewrite batches: one region until workers attach. */
function ownRegion(file: PageDevice | null, pageSize: number): DoublewriteRegion | null {
  return file === null ? null : { batches: DoublewriteBatches.create(1, pageSize), file, region: 0 };
}

/** What a thread needs to join the durable side another thread opened. */
export interface DurableAttachDescriptor {
  readonly redo: RedoLogDescriptor;
  /** The shared doublewrite batches (null with `innodb_doublewrite=OFF`). */
  readonly doublewrite: DoublewriteDescriptor | null;
  /** This thread's doublewrite region (the opener is 0). */
  readonly region: number;
}

/**
 * The durable side in a thread that did not open the database: its own handles on the log files
 * and the doublewrite file, the shared log and batches, and a DurableDevice over `data` (its own
 * handle on the data file) with the WAL rule on the shared log.
 */
export function attachDurable(
  data: PageDevice,
  d: DurableAttachDescriptor,
  o: Pick<DurabilityOptions, 'wrapDevice'> = {},
): { device: DurableDevice; redo: RedoLog } {
  const files = new LogFiles(openLogDevices(o, [...d.redo.paths], false), d.redo.fileSize);
  let dblwr: PageDevice | null = null;
  try {
    const redo = RedoLog.attach(d.redo, files);
    if (d.doublewrite !== null) {
      const batches = new DoublewriteBatches(d.doublewrite.buffer);
      dblwr = wrap(
        o,
        new FileDevice(d.doublewrite.path, { pageSize: batches.pageSize, create: false }),
        'doublewrite',
        false,
      );
      const device = new DurableDevice(data, { batches, file: dblwr, region: d.region }, (l) =>
        redo.flushSync(l + 1n),
      );
      return { device, redo };
    }
    return { device: new DurableDevice(data, null, (l) => redo.flushSync(l + 1n)), redo };
  } catch (e) {
    dblwr?.close();
    files.close();
    throw e;
  }
}

/**
 * Creates the log group (and doublewrite file) for a database file whose pages are all at LSN
 * below `afterLsn`. The log starts at the block after it.
 */
export function createDurable(
  path: string,
  data: PageDevice,
  pageSize: number,
  databaseId: bigint,
  afterLsn: bigint,
  o: DurabilityOptions,
): DurableOpen {
  const s = durabilitySettings(o);
  const names = redoFiles(path, s.files);
  let start = LOG_START_LSN;
  if (afterLsn + 1n > start) start = afterLsn + 1n + 512n - ((afterLsn + 1n) % 512n);
  const lsn = start + BigInt(BLOCK_HDR);
  const cp: Checkpoint = { no: 0n, lsn, endLsn: lsn, nextTrxId: 1n, clean: true };
  const files = new LogFiles(openLogDevices(o, names.logs, true), s.fileSize);
  let dblwr: PageDevice | null = null;
  try {
    // Every byte of the log (and of the doublewrite area) owns its blocks from the start: a full
    // disk shows here, not at a COMMIT that must write into a hole.
    for (const p of names.logs) allocateFile(p, s.fileSize);
    files.format({ databaseId, pageSize, startLsn: start }, cp);
    if (s.doublewrite) {
      dblwr = wrap(
        o,
        new FileDevice(names.doublewrite, { pageSize, create: true, truncate: true }),
        'doublewrite',
        true,
      );
      allocateFile(names.doublewrite, DOUBLEWRITE_BATCH * pageSize);
    }
    // The new files' names, not only their bytes, must survive a power cut before anything
    // (a commit) relies on them.
    fsyncParent(path, o);
  } catch (e) {
    files.close();
    dblwr?.close();
    for (const p of [...names.logs, names.doublewrite]) rmSync(p, { force: true });
    throw e;
  }
  const redo = RedoLog.create(files, { lsn, lastBlock: null, checkpoint: cp }, s.bufferSize, s.flush);
  const device = new DurableDevice(data, ownRegion(dblwr, pageSize), (l) => redo.flushSync(l + 1n));
  return { device, redo, report: null, databaseId, clean: true };
}

/**
 * Opens the durable side of an existing database and recovers it (docs/durability.md,
 * "Recovery", steps 1–5): validates the log files against page 0, scans from the checkpoint,
 * computes every page in memory, and only then writes them (through the doublewrite file) and
 * syncs. Any RedoLogError or CorruptionError is thrown before the data file is written.
 */
export function openDurable(
  path: string,
  data: PageDevice,
  pageSize: number,
  o: DurabilityOptions,
): DurableOpen {
  const started = performance.now();
  const s = durabilitySettings(o);
  const names = redoFiles(path, 1);
  const dblwrPath = names.doublewrite;
  const dblwrExisted = existsSync(dblwrPath);
  const dblwr =
    s.doublewrite || dblwrExisted
      ? wrap(o, new FileDevice(dblwrPath, { pageSize, create: true }), 'doublewrite', !dblwrExisted)
      : null;
  try {
    if (dblwr !== null && !dblwrExisted) fsyncParent(dblwrPath, o);
    // Page 0, repaired from the doublewrite file if torn: its identity and LSN.
    const p0 = new Uint8Array(pageSize);
    data.readPages(0, 1, p0, 0);
    let bad = verifyPage(p0, 0, pageSize, 0, 0);
    if (bad !== null && dblwr !== null) {
      const copy = readDoublewrite(dblwr).get(0);
      if (copy !== undefined) {
        p0.set(copy);
        bad = null;
      }
    }
    if (bad !== null)
      throw new CorruptionError(data.name, 0, 0, `${bad} (the header page; no doublewrite copy)`);
    let dbId = readU64(p0, HDR_DATABASE_ID);
    if (!existsSync(names.logs[0]!)) {
      // A file its last process did not close cleanly needs that process's log: without it the
      // pages would be served as a crash left them (half-applied changes, lost commits).
      if (readUint32BE(p0, HDR_IN_USE) === 1)
        throw new RedoLogError(
          names.logs[0]!,
          'is missing, and the database was not closed cleanly: its last changes exist only in that ' +
            'log. Restore the log files beside the database (or open it read-only to look at it as it is)',
        );
      if (dbId === 0n) dbId = newDatabaseId();
      const out = createDurable(path, data, pageSize, dbId, getPageLsn(p0, 0), o);
      dblwr?.close();
      return out;
    }
    const head = new FileDevice(names.logs[0]!, { pageSize: BLOCK, create: false });
    const hb = new Uint8Array(BLOCK);
    try {
      if (head.size() < 1) throw new RedoLogError(names.logs[0]!, 'is empty');
      head.readPages(0, 1, hb, 0);
    } finally {
      head.close();
    }
    const h = decodeFileHeader(hb);
    if (typeof h === 'string') throw new RedoLogError(names.logs[0]!, h);
    if (h.databaseId !== dbId)
      throw new RedoLogError(
        names.logs[0]!,
        `belongs to another database (identity ${h.databaseId.toString(16)}, ${path} has ${dbId.toString(16)})`,
      );
    if (h.pageSize !== pageSize)
      throw new RedoLogError(
        names.logs[0]!,
        `was written for ${h.pageSize}-byte pages, ${path} has ${pageSize}`,
      );
    const logPaths = redoFiles(path, h.files).logs;
    for (const p of logPaths)
      if (!existsSync(p)) throw new RedoLogError(p, `is missing (the group has ${h.files} files)`);
    const files = new LogFiles(openLogDevices(o, logPaths, false), h.fileSize);
    try {
      files.readHeaders();
      const scan = scanLog(files, pageSize);
      // The doublewrite copies matter only after a crash (redo after the checkpoint): a page
      // corrupted after a clean shutdown is reported, not silently replaced.
      const applied = applyRedo(scan, data, scan.mtrs.length > 0 ? dblwr : null);
      const redo = RedoLog.create(
        files,
        { lsn: scan.end, lastBlock: scan.lastBlock, checkpoint: scan.checkpoint },
        s.bufferSize,
        s.flush,
      );
      const device = new DurableDevice(data, ownRegion(dblwr, pageSize), (l) => redo.flushSync(l + 1n));
      if (applied.pages.size > 0) {
        const order = [...applied.pages.keys()].sort((a, b) => a - b);
        for (const p of order) device.writePage(p, applied.pages.get(p)!, 0);
        device.sync();
      }
      const report: RecoveryReport | null =
        scan.mtrs.length === 0 && applied.repaired === 0
          ? null
          : {
              checkpointLsn: scan.checkpoint.lsn,
              endLsn: scan.end,
              redoBytes: scan.bytes.length,
              mtrs: scan.mtrs.length,
              pagesTouched: applied.touched,
              pagesApplied: applied.applied,
              pagesRepaired: applied.repaired,
              ms: performance.now() - started,
            };
      return {
        device,
        redo,
        report,
        databaseId: dbId,
        clean: scan.checkpoint.clean && scan.mtrs.length === 0,
      };
    } catch (e) {
      files.close();
      throw e;
    }
  } catch (e) {
    dblwr?.close();
    throw e;
  }
}
