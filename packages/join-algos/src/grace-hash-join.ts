import { SpillDirectory, type SpillFileSystem } from '@enginekit/common';
import type { RowCodec } from './codec.js';
import { BuildTable, probe } from './hash-join.js';
import { hashKey } from './internal/key-hash-code.js';
import { checkSpec, countingEmit } from './internal/spec.js';
import { readSpill, SpillWriter } from './internal/spill-records.js';
import { checkBufferSize, checkSource } from './internal/validate.js';
import type { ScanJoinSpec } from './nested-loop.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { Emit } from './types.js';

/** Bytes charged per build row beyond its encoded size (array slot, chain link, hash entry). */
export const BUILD_ROW_OVERHEAD = 16;

/** A grace hash join: an in-memory hash join whose build side may spill to temp files. */
export interface GraceHashJoinSpec<O, I> extends ScanJoinSpec<O, I> {
  outerCodec: RowCodec<O>;
  innerCodec: RowCodec<I>;
  /** Bytes the build side may hold in memory: encoded size + {@link BUILD_ROW_OVERHEAD} per row. */
  memoryBudget: number;
  /** Partitions to split both sides into once the budget is exceeded. Default 16, in [2, 1024]. */
  partitions?: number;
  /** `tmpdir`: where the private temp directory (`enginekit-join-<pid>-XXXXXX`) is made. Default `os.tmpdir()`. */
  tmpdir?: string;
  /** File-system calls for the spill files (tests inject failures); `node:fs` by default. */
  fs?: SpillFileSystem;
}

/** Name prefix of a grace hash join's private temp directory. */
export const SPILL_PREFIX = 'enginekit-join-';

/**
 * Grace hash join. The inner (build) input is read into a hash table; while it fits
 * `memoryBudget` this is {@link hashJoin}. Once it does not, every build row (those already read
 * and the rest) is written to one of `partitions` temp files by the hash of its key, the outer
 * (probe) input is partitioned the same way, and each pair of files is joined on its own: build
 * the partition's hash table, stream its probe file through it. A partition whose build side
 * still exceeds the budget (skewed keys) is joined chunk by chunk: one budget's worth of build
 * rows at a time, the probe file re-read per chunk, outer match flags kept in a byte per row.
 *
 * Spill files live in a `@enginekit/common` {@link SpillDirectory} (`enginekit-join-<pid>-XXXXXX` under
 * `tmpdir`, files 0600); it is removed when the join ends, also when it throws (a full disk is
 * a `DiskFullError`, any other file failure a `TempFileError`).
 */
export function graceHashJoin<O, I>(spec: GraceHashJoinSpec<O, I>, emit: Emit<O, I>): JoinStats {
  checkSpec(spec, emit);
  checkSource('spec.inner', spec.inner);
  const budget = checkBufferSize('memoryBudget', spec.memoryBudget, 1);
  const nParts = spec.partitions ?? 16;
  if (!Number.isInteger(nParts) || nParts < 2 || nParts > 1024) {
    throw new RangeError(`partitions must be an integer in [2, 1024], got ${String(nParts)}`);
  }
  const stats = createJoinStats();
  const out = countingEmit(emit, stats);
  const { type, inner, innerKey, outer, outerKey, innerCodec, outerCodec } = spec;
  const table = new BuildTable<I>();
  let used = 0;
  if (spec.tmpdir !== undefined && (typeof spec.tmpdir !== 'string' || spec.tmpdir === '')) {
    throw new TypeError(`tmpdir must be a non-empty string, got ${String(spec.tmpdir)}`);
  }
  const spill = new SpillDirectory({
    prefix: SPILL_PREFIX,
    ...(spec.tmpdir !== undefined ? { parent: spec.tmpdir } : {}),
    ...(spec.fs !== undefined ? { fs: spec.fs } : {}),
  });
  let spilled = false;
  const innerParts: SpillWriter<I>[] = [];
  const outerParts: SpillWriter<O>[] = [];
  const SEED = 0x9e3779b9;
  try {
    inner.rewind();
    stats.innerScans++;
    for (;;) {
      stats.Handler_read_rnd_next++;
      const i = inner.next();
      if (i === undefined) break;
      const k = innerKey(i);
      if (k === null) continue;
      if (spilled) {
        innerParts[hashKey(k, SEED) % nParts]!.write(i);
        continue;
      }
      table.add(k, i);
      used += innerCodec.byteLength(i) + BUILD_ROW_OVERHEAD;
      if (used > budget) {
        // Spill: from now on both sides go to partition files.
        stats.spills++;
        stats.partitions += nParts;
        spilled = true;
        for (let p = 0; p < nParts; p++) {
          innerParts.push(new SpillWriter(spill, innerCodec));
          outerParts.push(new SpillWriter(spill, outerCodec));
        }
        for (const row of table.rows) innerParts[hashKey(innerKey(row)!, SEED) % nParts]!.write(row);
        table.clear();
        used = 0;
      }
    }
    outer.rewind();
    if (!spilled) {
      for (;;) {
        stats.Handler_read_rnd_next++;
        const o = outer.next();
        if (o === undefined) break;
        probe(spec, table, o, outerKey(o), out);
      }
      return stats;
    }
    const complement = type === 'left' || type === 'anti';
    for (;;) {
      stats.Handler_read_rnd_next++;
      const o = outer.next();
      if (o === undefined) break;
      const k = outerKey(o);
      if (k === null) {
        if (complement) out(o, null);
      } else outerParts[hashKey(k, SEED) % nParts]!.write(o);
    }
    for (let p = 0; p < nParts; p++) {
      const b = innerParts[p]!;
      const pr = outerParts[p]!;
      b.flush();
      pr.flush();
      stats.spilledBytes += b.bytes + pr.bytes;
    }
    for (let p = 0; p < nParts; p++) {
      joinPartition(spec, spill, innerParts[p]!, outerParts[p]!, budget, table, out);
    }
    return stats;
  } finally {
    spill.remove();
  }
}

/** Join one pair of partition files, chunking the build side by the budget. */
function joinPartition<O, I>(
  spec: GraceHashJoinSpec<O, I>,
  dir: SpillDirectory,
  build: SpillWriter<I>,
  probeFile: SpillWriter<O>,
  budget: number,
  table: BuildTable<I>,
  out: Emit<O, I>,
): void {
  const { type, innerKey, outerKey, innerCodec, outerCodec } = spec;
  if (probeFile.count === 0) return;
  if (build.count === 0) {
    if (type === 'left' || type === 'anti') readSpill(dir, probeFile, outerCodec, (o) => out(o, null));
    return;
  }
  table.clear();
  let used = 0;
  let chunks = 0;
  let flags: Uint8Array | null = null; // outer match flags, once there is more than one chunk
  const probeChunk = (last: boolean): void => {
    chunks++;
    if (last && chunks === 1) {
      readSpill(dir, probeFile, outerCodec, (o) => {
        probe(spec, table, o, outerKey(o), out);
      });
      return;
    }
    flags ??= new Uint8Array(probeFile.count);
    const f = flags;
    readSpill(dir, probeFile, outerCodec, (o, n) => {
      if (probe(spec, table, o, outerKey(o), out, false, f[n] === 1)) f[n] = 1;
    });
  };
  readSpill(dir, build, innerCodec, (i) => {
    table.add(innerKey(i), i);
    used += innerCodec.byteLength(i) + BUILD_ROW_OVERHEAD;
    if (used > budget) {
      probeChunk(false);
      table.clear();
      used = 0;
    }
  });
  if (table.rows.length > 0 || chunks === 0) probeChunk(true);
  table.clear();
  if (flags !== null && (type === 'left' || type === 'anti')) {
    const f: Uint8Array = flags;
    readSpill(dir, probeFile, outerCodec, (o, n) => {
      if (f[n] === 0) out(o, null);
    });
  }
}
