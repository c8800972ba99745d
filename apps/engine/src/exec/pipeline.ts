import type { RowBuffer } from '../storage/row.js';
import { K_DATE, K_DECIMAL, K_INT, K_TEXT, K_UBIGINT } from '../storage/row.js';
import { weightBytes } from '../storage/collation.js';
import { unsignedKey } from '../storage/row-key.js';
import { coerce } from './convert.js';
import { dateTimeType, T_STR, timeType } from './types.js';
import type { FieldValue } from '../storage/types.js';
import {
  arraySource,
  blockNestedLoopHashJoin,
  blockNestedLoopJoin,
  type JoinKey,
  type RowCodec,
  sortMergeJoin,
} from '@enginekit/join-algos';
import type { Bound } from './bound.js';
import type { PlannedStage } from './planned-stage.js';
import type { Frame, RunState, Source } from './scope.js';
import { comparisonType, converter, hashKey } from './compare.js';
import { rescale } from './decimal.js';
import type { StatusCounters } from './status.js';
import { batchedKeyStage } from './batched-key-access.js';
import { graceHashStage } from './grace-hash-stage.js';
import { coveringScan, indexReadStep } from './index-read.js';
import { boundsRange } from './key-range.js';
import { EqRefMemory } from './eq-ref-memory.js';
import { RowidOrderedScan } from '../handler/multi-range.js';
import { TableHandler } from '../handler/table-handler.js';
import { StageTimer } from './stage-timer.js';
import { truthOf } from './truth.js';

const DECODER = new TextDecoder();

/**
 * A short string from bytes, ASCII built directly (no decoder call, one-byte strings shared) and
 * remembered in `cache` by a hash of its bytes: a column of few distinct values (a market
 * segment, a ship mode) then makes no new string per row, only a comparison of its bytes.
 */
function shortText(b: Uint8Array, o: number, len: number, cache: string[]): string {
  if (len === 1 && b[o]! < 0x80) return ASCII[b[o]!]!;
  let h = len;
  for (let i = 0; i < len; i++) {
    const x = b[o + i]!;
    if (x >= 0x80) return DECODER.decode(b.subarray(o, o + len));
    h = (Math.imul(h, 31) + x) | 0;
  }
  const slot = (h ^ (h >>> 9)) & (TEXT_CACHE - 1);
  const c = cache[slot];
  if (c !== undefined && c.length === len) {
    let i = 0;
    while (i < len && c.charCodeAt(i) === b[o + i]) i++;
    if (i === len) return c;
  }
  let s = '';
  for (let i = 0; i < len; i++) s += ASCII[b[o + i]!]!;
  cache[slot] = s;
  return s;
}

/** Entries of a text column's cache in {@link rowDecoder} (a power of two). */
const TEXT_CACHE = 256;

const ASCII: string[] = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

/** Frame slots of the sources before stage k that anything reads (what a join buffer record holds). */
function usedSlotsBefore(stages: readonly PlannedStage[], k: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < k; j++) {
    const src = stages[j]!.src;
    for (const c of src.used) out.push(src.offset + c);
  }
  return out;
}

/**
 * Decodes the used columns of a stored row into a frame at a source's offset. A DECIMAL that is a
 * safe integer lands as its scaled integer in a number (the column's `ev` makes the bigint when
 * asked, its `num` reads the number as it is), so decoding allocates nothing for it.
 */
/** Copies a row's used columns into the frame; `mask`: those columns, for the read to decode only them. */
export type RowDecode = ((row: RowBuffer) => void) & { readonly mask: Uint8Array };

export function rowDecoder(src: Source, frame: Frame): RowDecode {
  const used = [...src.used].filter((c) => c < src.columns.length).sort((a, b) => a - b);
  const off = src.offset;
  const kinds = src.table!.codec.kinds;
  const cols = Int32Array.from(used);
  const n = cols.length;
  // the rows of a source are read for its used columns only: the codec skips the others
  const mask = new Uint8Array(src.columns.length);
  for (const c of used) mask[c] = 1;
  const caches: string[][] = used.map((c) => (kinds[c] === K_TEXT ? new Array<string>(TEXT_CACHE) : []));
  // a binary string's value holds one byte per character
  const bytes = Uint8Array.from(used, (c) => (src.columns[c]!.t.binary === true ? 1 : 0));
  const decode = (row: RowBuffer): void => {
    if (row.want !== mask) row.wantOnly(mask);
    const v = frame.v;
    const nulls = row.nulls;
    for (let i = 0; i < n; i++) {
      const c = cols[i]!;
      if (nulls[c] === 1) {
        v[off + c] = null;
        continue;
      }
      const k = kinds[c]!;
      if (k === K_TEXT) {
        const o = row.off[c]!;
        const len = row.len[c]!;
        const b = row.src[c]!;
        if (bytes[i] === 1) v[off + c] = Buffer.from(b.buffer, b.byteOffset + o, len).toString('latin1');
        else
          v[off + c] = len <= 24 ? shortText(b, o, len, caches[i]!) : DECODER.decode(b.subarray(o, o + len));
      } else if (row.isWide[c] === 1) v[off + c] = row.wide[c]!;
      else v[off + c] = row.nums[c]!; // DECIMAL too: its scaled integer, made a bigint only when read so
    }
  };
  return Object.assign(decode, { mask });
}

/** A lookup key value for a stored column from a probe value, or undefined when nothing can match. */
export function keyValue(src: Source, c: number, b: Bound, v: unknown): FieldValue | undefined {
  if (v === null) return undefined;
  const kind = src.table!.codec.kinds[c]!;
  const ct = src.columns[c]!.t;
  const t = b.t;
  if (kind === K_TEXT) {
    // collated text is found by its weight string; a binary string by its bytes
    const coll = ct.collation;
    if (ct.binary === true)
      return new Uint8Array(Buffer.from(String(coerce(v, t, T_STR)), t.binary === true ? 'latin1' : 'utf8'));
    const s = t.kind === 'str' ? (v as string) : (coerce(v, t, T_STR) as string);
    return coll === undefined || coll === 'bytes' ? s : weightBytes(s, coll);
  }
  if (kind === K_DATE) return v as number;
  if (ct.kind === 'datetime' || ct.kind === 'time') {
    const x = coerce(v, t, ct.kind === 'time' ? timeType(6) : dateTimeType(6));
    return x === null ? undefined : (x as number | bigint);
  }
  if (kind === K_UBIGINT) {
    const x = t.kind === 'dec' ? undefined : BigInt(v as number | bigint);
    return x === undefined || x < 0n || x > 18446744073709551615n ? undefined : unsignedKey(x);
  }
  if (ct.kind === 'dbl')
    return t.kind === 'dec' ? Number(rescale(v as bigint, t.iscale, t.iscale)) / 10 ** t.iscale : Number(v);
  if (kind === K_DECIMAL) {
    const from = t.kind === 'dec' ? t.iscale : 0;
    const x = BigInt(v as bigint | number);
    const scaled = from <= ct.scale ? x * 10n ** BigInt(ct.scale - from) : x;
    if (from > ct.scale) {
      const d = 10n ** BigInt(from - ct.scale);
      if (x % d !== 0n) return undefined;
      return exactInt(x / d);
    }
    return exactInt(scaled);
  }
  // integer column: a value beyond what it stores matches nothing (and bounds no range)
  let q: number | bigint = v as number | bigint;
  if (t.kind === 'dec') {
    const d = 10n ** BigInt(t.iscale);
    const x = v as bigint;
    if (x % d !== 0n) return undefined;
    q = exactInt(x / d);
  }
  if (kind === K_INT) return typeof q === 'number' && (q | 0) === q ? q : undefined;
  if (typeof q === 'number') return Number.isSafeInteger(q) ? q : undefined;
  return q < -(2n ** 63n) || q >= 2n ** 63n ? undefined : q;
}

/** An exact integer as a number when safe, else as a bigint. */
function exactInt(x: bigint): number | bigint {
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x;
}

export type Sink = () => boolean;

/**
 * Runs a nested-loop pipeline over planned stages: stage k, for each row that reaches it, produces
 * its own matching rows into the frame and calls stage k + 1; the last calls `sink`. Returns a
 * function that runs one execution.
 */
export function buildPipeline(
  stages: readonly PlannedStage[],
  frame: Frame,
  run: RunState,
  status: StatusCounters,
  sink: Sink,
  joinBufferSize = 262144,
): () => void {
  const n = stages.length;
  const steps: Array<() => boolean> = new Array(n);
  const flushes: Array<(() => boolean) | undefined> = new Array(n);
  const resets: Array<() => void> = [];
  const timer = stages.some((st) => st.actual !== undefined) ? new StageTimer() : undefined;
  for (let k = n - 1; k >= 0; k--) {
    const st = stages[k]!;
    const nextStep: () => boolean = k === n - 1 ? sink : steps[k + 1]!;
    const nextActual = k === n - 1 ? undefined : stages[k + 1]!.actual;
    // ANALYZE: the clock goes to the next stage while it runs (to nobody for the sink)
    const timedNext =
      timer === undefined ? nextStep : timer.wrap(k === n - 1 ? null : (nextActual ?? null), nextStep);
    const next: () => boolean =
      nextActual === undefined
        ? timedNext
        : () => {
            nextActual.loops++;
            return timedNext();
          };
    const src = st.src;
    const off = src.offset;
    const width = src.columns.length;
    const stageBuffer =
      st.join !== undefined && st.join.bufferBytes > 0 ? st.join.bufferBytes : joinBufferSize;
    const match = st.match.map(truthOf);
    const post = st.post.map(truthOf);
    const nm = match.length;
    const np = post.length;
    const left = src.joinType === 'left';
    const passes = (): boolean => {
      for (let i = 0; i < nm; i++) if (match[i]!() !== true) return false;
      return true;
    };
    const postOk = (): boolean => {
      for (let i = 0; i < np; i++) if (post[i]!() !== true) return false;
      return true;
    };
    const nullExtend = (): void => {
      const v = frame.v;
      for (let c = 0; c < width; c++) v[off + c] = null;
    };
    // emit(): one candidate row is in the frame; checks and goes on. Returns false to stop. The
    // table read it tells the verdict (MariaDB's evaluate_join_record): a rejected row's lock may
    // go (READ COMMITTED), a matched row read semi-consistently is locked and read again.
    let matched = false;
    const actual = st.actual;
    const base = src.derived === undefined ? (src.table ?? null) : null;
    // `read`: the row was just read from the table (not a remembered eq_ref row, whose lock a
    // row of an earlier outer row may still need)
    const verdict = (read: boolean): boolean => {
      run.interrupt.poll();
      if (actual !== undefined) actual.rows++;
      if (!passes()) {
        if (read) base?.unlockRow();
        return true;
      }
      if (actual !== undefined) actual.passed++;
      matched = true;
      if (!postOk()) {
        if (read) base?.unlockRow();
        return true;
      }
      if (read) base?.rowMatched();
      return next();
    };
    const emit = (): boolean => verdict(true);
    const finishLeft = (): boolean => {
      if (left && !matched) {
        nullExtend();
        if (postOk()) return next();
      }
      return true;
    };
    // a full scan planned as a covering index scan reads the index instead of the table
    const cover = coveringScan(st, frame, status);
    // materialized rows of this source (for inner scans, hash builds, derived tables)
    let cache: unknown[][] | null = null;
    resets.push(() => {
      cache = null;
      hash = null;
    });
    const copyIn = (row: unknown[]): void => {
      const v = frame.v;
      for (let c = 0; c < width; c++) v[off + c] = row[c];
    };
    const materialize = (): unknown[][] => {
      if (cache !== null) return cache;
      const rows: unknown[][] = [];
      if (src.derived !== undefined) {
        src.derived.run((r) => {
          run.interrupt.poll();
          rows.push(r);
          return true;
        });
      } else {
        const dec = rowDecoder(src, frame);
        const saved = frame.v.slice(off, off + width);
        if (cover !== undefined)
          cover(() => {
            run.interrupt.poll();
            rows.push(frame.v.slice(off, off + width));
            return true;
          });
        else
          new TableHandler(src.table!).rndScan((r) => {
            run.interrupt.poll();
            dec(r);
            rows.push(frame.v.slice(off, off + width));
            return true;
          }, dec.mask);
        for (let c = 0; c < width; c++) frame.v[off + c] = saved[c];
      }
      cache = rows;
      return rows;
    };
    let hash: Map<unknown, unknown[][]> | null = null;
    /**
     * Stage k as a join-buffer join from join-algos: outer rows (snapshots of the frame) are
     * collected until they would fill `join_buffer_size`, then joined against the buffered inner
     * rows by BNLH (keys) or BNL (no keys), as MariaDB's join cache levels 1 and 3.
     */
    const blockStage = (kk: number, ikeys: unknown[]) => {
      let pending: unknown[][] = [];
      let pkeys: unknown[] = [];
      const wholeOuter = st.access.kind === 'hash' && st.join?.hashAlgorithm !== undefined;
      let bytes = 0;
      const outerSlots = usedSlotsBefore(stages, kk);
      const sizeOf = (snap: unknown[]): number => {
        let b = 4;
        for (const sl of outerSlots) {
          const v = snap[sl];
          b += v === null ? 0 : typeof v === 'string' ? 2 + v.length : 8;
        }
        return b;
      };
      const STOP = {};
      const flush = (): boolean => {
        if (pending.length === 0) return true;
        const batch = pending;
        const keys = pkeys;
        pending = [];
        pkeys = [];
        bytes = 0;
        const inner = materialize();
        const saved = frame.v;
        const put = (o: number, i: number | null): void => {
          frame.v = batch[o]!;
          if (i === null) nullExtend();
          else copyIn(inner[i]!);
        };
        const codec: RowCodec<number> = {
          byteLength: (o) => sizeOf(batch[o]!),
          write: (o, _b, view, at) => {
            view.setInt32(at, o);
            return at + sizeOf(batch[o]!);
          },
          read: (_b, view, at) => view.getInt32(at),
        };
        const spec = {
          type: (left ? 'left' : 'inner') as 'left' | 'inner',
          outer: arraySource(batch.map((_, o) => o)),
          inner: arraySource(inner.map((_, i) => i)),
          outerKey: (o: number) => keys[o] as JoinKey,
          innerKey: (i: number) => ikeys[i] as JoinKey,
          condition: (o: number, i: number) => {
            run.interrupt.poll();
            put(o, i);
            if (actual === undefined) return passes();
            actual.rows++;
            const ok = passes();
            if (ok) actual.passed++;
            return ok;
          },
          outerCodec: codec,
          joinBufferSize: stageBuffer,
        };
        const out = (o: number, i: number | null): void => {
          run.interrupt.poll();
          put(o, i);
          if (!postOk()) return;
          if (!next()) throw STOP;
        };
        const hashAlgorithm = st.join?.hashAlgorithm;
        try {
          if (st.access.kind !== 'hash') blockNestedLoopJoin(spec, out);
          else if (hashAlgorithm === 'sort_merge') sortMergeJoin(spec, out);
          else if (hashAlgorithm === 'grace_hash') {
            const putRows = (o: unknown[], i: unknown[] | null): void => {
              frame.v = o;
              if (i === null) nullExtend();
              else copyIn(i);
            };
            graceHashStage({
              type: spec.type,
              outer: batch,
              outerKeys: keys,
              inner,
              innerKeys: ikeys,
              memoryBudget: stageBuffer,
              condition: (o, i) => {
                run.interrupt.poll();
                putRows(o, i);
                if (actual === undefined) return passes();
                actual.rows++;
                const ok = passes();
                if (ok) actual.passed++;
                return ok;
              },
              emit: (o, i) => {
                run.interrupt.poll();
                putRows(o, i);
                if (!postOk()) return;
                if (!next()) throw STOP;
              },
            });
          } else blockNestedLoopHashJoin(spec, out);
        } catch (e) {
          if (e === STOP) return false;
          throw e;
        } finally {
          frame.v = saved;
        }
        return true;
      };
      return {
        push: (key: unknown): boolean => {
          const snap = frame.v.slice();
          pending.push(snap);
          pkeys.push(key === undefined ? null : key);
          bytes += sizeOf(snap);
          // grace hash and sort-merge join all outer rows at once (grace hash bounds its build side)
          if (bytes >= stageBuffer && !wholeOuter) return flush();
          return true;
        },
        flush,
      };
    };
    const access = st.access;
    if (access.kind === 'hash') {
      const cts = access.build.map((b, i) => comparisonType(b.t, access.probe[i]!.t));
      const bconv = access.build.map((b, i) => converter(b.t, cts[i]!));
      const pconv = access.probe.map((p, i) => converter(p.t, cts[i]!));
      const bev = access.build.map((b) => b.ev);
      const pev = access.probe.map((p) => p.ev);
      const nk = bev.length;
      const keyOf = (evs: Array<() => unknown>, convs: Array<((v: unknown) => unknown) | null>): unknown => {
        if (nk === 1) {
          const x = evs[0]!();
          if (x === null) return null;
          const c = convs[0];
          const y = c ? c(x) : x;
          return y === null ? null : hashKey(y);
        }
        let s = '';
        for (let i = 0; i < nk; i++) {
          const x = evs[i]!();
          if (x === null) return null;
          const c = convs[i];
          const y = c ? c(x) : x;
          if (y === null) return null;
          s += `${String(hashKey(y))}\u0000`;
        }
        return s;
      };
      const ikeys: unknown[] = [];
      steps[k] = () => {
        if (hash === null) {
          // the inner side once per execution: its rows and their keys
          const rows = materialize();
          const saved = frame.v.slice(off, off + width);
          ikeys.length = 0;
          for (const r of rows) {
            copyIn(r);
            ikeys.push(keyOf(bev, bconv));
          }
          copyIn(saved);
          hash = new Map();
        }
        return block.push(keyOf(pev, pconv));
      };
      const block = blockStage(k, ikeys);
      flushes[k] = () => block.flush();
      continue;
    }
    const batched = st.join?.algorithm === 'BKA' || st.join?.algorithm === 'BKAH';
    if (
      st.indexRead !== undefined &&
      !batched &&
      (access.kind === 'ref' || access.kind === 'range' || (access.kind === 'scan' && k === 0))
    ) {
      steps[k] = indexReadStep(st, k, frame, status, {
        begin: () => {
          matched = false;
        },
        emit,
        finish: finishLeft,
        outer: left,
        onReset: (fn) => resets.push(fn),
      });
      continue;
    }
    if (access.kind === 'ref' && batched) {
      const bka = batchedKeyStage(st, k, stages, frame, run, status, next, {
        bufferBytes: stageBuffer,
        joinBufferSize,
        joinNext: () =>
          stages[k + 1]?.join?.incremental === true && flushes[k + 1] !== undefined
            ? flushes[k + 1]!()
            : true,
      });
      steps[k] = bka.push;
      flushes[k] = bka.flush;
      continue;
    }
    if (access.kind === 'ref') {
      const table = src.table!;
      const handler = new TableHandler(table);
      const dec = rowDecoder(src, frame);
      const keys = access.keys;
      const kev = keys.map((p) => p.expr.ev);
      const prefix: FieldValue[] = new Array(keys.length);
      // eq_ref remembers its last key and whether it found a row (MariaDB's join_read_key): the
      // same key again reads nothing, the row is still in this table's slots. Not under an outer
      // join, whose NULL-extension overwrites the slots.
      const ix = table.index(access.index);
      const memory =
        ix.unique && keys.length >= ix.columns.length && !left ? new EqRefMemory(keys.length) : null;
      if (memory !== null) resets.push(() => memory.forget());
      let stop = false;
      let found = false;
      const onRow = (r: RowBuffer): boolean => {
        found = true;
        dec(r);
        if (!emit()) {
          stop = true;
          return false;
        }
        return true;
      };
      steps[k] = () => {
        matched = false;
        for (let i = 0; i < keys.length; i++) {
          const kv = keyValue(src, keys[i]!.column, keys[i]!.expr, kev[i]!());
          if (kv === undefined) {
            memory?.forget();
            return finishLeft();
          }
          prefix[i] = kv;
        }
        if (memory?.same(prefix)) {
          if (memory.found) {
            memory.restore(frame.v, off, src.columns.length);
            if (!verdict(false)) return false;
          }
          return finishLeft();
        }
        stop = false;
        found = false;
        handler.lookup(access.index, prefix, onRow, dec.mask);
        memory?.remember(prefix, found, frame.v);
        if (stop) return false;
        return finishLeft();
      };
      continue;
    }
    if (access.kind === 'range') {
      const table = src.table!;
      const handler = new TableHandler(table);
      const dec = rowDecoder(src, frame);
      const loEv = access.lo?.expr.ev;
      const hiEv = access.hi?.expr.ev;
      // DS-MRR (a secondary index only: a clustered range is already in row order)
      const mrrBytes = table.index(access.index).primary ? undefined : st.mrrBufferBytes;
      const mrr = mrrBytes === undefined ? null : new RowidOrderedScan(table, access.index);
      let stop = false;
      const onRow = (r: RowBuffer): boolean => {
        dec(r);
        if (!emit()) {
          stop = true;
          return false;
        }
        return true;
      };
      steps[k] = () => {
        matched = false;
        let lo: FieldValue | undefined;
        let hi: FieldValue | undefined;
        if (loEv !== undefined) {
          const v = loEv();
          if (v === null) return finishLeft();
          lo = keyValue(src, access.column, access.lo!.expr, v);
        }
        if (hiEv !== undefined) {
          const v = hiEv();
          if (v === null) return finishLeft();
          hi = keyValue(src, access.column, access.hi!.expr, v);
        }
        if (k === 0) status.add('Select_range', 1);
        stop = false;
        const range = boundsRange(
          table,
          access.index,
          lo,
          access.lo?.inclusive ?? true,
          hi,
          access.hi?.inclusive ?? true,
        );
        if (mrr !== null) mrr.run([range], null, mrrBytes!, status, onRow);
        else
          handler.readRanges(
            access.index,
            [range],
            null,
            false,
            onRow as (r: RowBuffer | null) => boolean,
            false,
            false,
            dec.mask,
          );
        if (stop) return false;
        return finishLeft();
      };
      continue;
    }
    if (k === 0 && src.derived === undefined) {
      const handler = new TableHandler(src.table!);
      const dec = rowDecoder(src, frame);
      let stop = false;
      steps[k] = () => {
        matched = false;
        stop = false;
        status.add('Select_scan', 1);
        handler.rndScan((r) => {
          dec(r);
          if (!emit()) {
            stop = true;
            return false;
          }
          return true;
        }, dec.mask);
        if (stop) return false;
        return finishLeft();
      };
      continue;
    }
    if (k > 0 && st.join !== undefined && st.join.algorithm === 'none' && src.derived === undefined) {
      // no join buffer (join_cache_level 0, or no room left): the table is scanned per outer row
      const handler = new TableHandler(src.table!);
      const dec = rowDecoder(src, frame);
      let stop = false;
      const onRow = (r: RowBuffer | null): boolean => {
        if (r !== null) dec(r);
        if (!emit()) {
          stop = true;
          return false;
        }
        return true;
      };
      let counted = false;
      resets.push(() => {
        counted = false;
      });
      steps[k] = () => {
        matched = false;
        stop = false;
        if (!counted) status.add('Select_full_join', 1);
        counted = true;
        if (cover !== undefined) cover(() => onRow(null));
        else handler.rndScan(onRow, dec.mask);
        if (stop) return false;
        return finishLeft();
      };
      continue;
    }
    if (k > 0) {
      // no equality to drive a lookup: a block nested loop over the buffered inner rows
      const ikeys: unknown[] = [];
      steps[k] = () => {
        if (cache === null) {
          if (src.derived === undefined) status.add('Select_full_join', 1);
          const rows = materialize();
          ikeys.length = 0;
          for (let i = 0; i < rows.length; i++) ikeys.push(0);
        }
        return block.push(0);
      };
      const block = blockStage(k, ikeys);
      flushes[k] = () => block.flush();
      continue;
    }
    steps[k] = () => {
      matched = false;
      if (cache === null) status.add('Select_scan', 1);
      const rows = materialize();
      for (const r of rows) {
        copyIn(r);
        if (!emit()) return false;
      }
      return finishLeft();
    };
  }
  const first = stages[0]?.actual;
  if (first !== undefined) {
    const step = timer === undefined ? steps[0]! : timer.wrap(first, steps[0]!);
    steps[0] = () => {
      first.loops++;
      return step();
    };
  }
  if (timer !== undefined)
    for (let k = 1; k < n; k++) {
      const f = flushes[k];
      if (f !== undefined) flushes[k] = timer.wrap(stages[k]!.actual ?? null, f);
    }
  return () => {
    for (const r of resets) r();
    if (n === 0) {
      sink();
      return;
    }
    if (!steps[0]!()) return;
    // the rows still buffered at each join stage, in order (a flush feeds the next stage)
    for (let k = 1; k < n; k++) if (flushes[k] !== undefined && !flushes[k]!()) return;
  };
}
