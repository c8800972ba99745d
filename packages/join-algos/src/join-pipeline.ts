import type { RowCodec } from './codec.js';
import { HASH_ENTRY_BYTES, JOIN_BUFFER_SIZE_DEFAULT } from './block-nested-loop.js';
import { KeyHash } from './internal/key-hash.js';
import { offsetSize } from './internal/offset-size.js';
import { checkBufferSize, checkFunction, checkSource } from './internal/validate.js';
import { JoinBuffer } from './join-buffer.js';
import { createJoinStats, type JoinStats } from './stats.js';
import type { JoinKey, RowSource } from './types.js';

/** A table of a {@link blockJoinPipeline}: its rows and how they are packed. */
export interface PipelineTable<R = unknown> {
  source: RowSource<R>;
  codec: RowCodec<R>;
}

/** One join step: the next table, joined to the partial rows before it through a join buffer. */
export interface PipelineStep<R = unknown> extends PipelineTable<R> {
  /** Join key of a partial row (`rows[0..n)` are the rows of the tables before this one). */
  outerKey: (rows: readonly unknown[]) => JoinKey;
  innerKey: (row: R) => JoinKey;
  /** `join_buffer_size` of this step's buffer, bytes. Default {@link JOIN_BUFFER_SIZE_DEFAULT}. */
  join_buffer_size?: number;
  /** BNLH (hash table over the buffer) instead of BNL. Default false. */
  hashed?: boolean;
  /**
   * Incremental buffer (MariaDB even `join_cache_level`): a record holds only the newest table's
   * row and a link to its partial row's record in the previous step's buffer, instead of
   * copying every earlier table's row (flat). The first buffered step is always flat: it has no
   * previous buffer. Default false.
   */
  incremental?: boolean;
}

/**
 * Bytes of an incremental record's link: an offset into the previous step's buffer, as wide as
 * that buffer needs (MariaDB's `size_of_rec_ofs = offset_size(buff_size)`): 1, 2 or 4.
 */
export function linkBytes(previousBufferSize: number): number {
  return offsetSize(previousBufferSize);
}

/** What a step's buffer stores: the link (incremental) and the rows it copies. */
interface StageRecord {
  link: number;
  rows: unknown[];
}

/**
 * A chain of block nested loop (or BNLH) joins, `t0 ⋈ t1 ⋈ … ⋈ tn`, INNER joins on equality keys,
 * each step with its own join buffer, as MariaDB chains its join caches (`sub_select_cache`,
 * `JOIN_CACHE::join_records` → `next_cache->join_records`). A step's buffer holds partial rows
 * (t0 … t_{k−1}); when it is full its table t_k is scanned once and every match becomes a record
 * of the next step's buffer. Before a buffer is reset, the next step's buffer is joined, so an
 * incremental record's link always points at a live record.
 *
 * `emit` receives the full row as an array (one element per table; reused: copy it to keep it).
 * Returns one {@link JoinStats} per step.
 */
export function blockJoinPipeline(
  first: PipelineTable,
  steps: readonly PipelineStep[],
  emit: (rows: readonly unknown[]) => void,
): JoinStats[] {
  checkSource('first.source', first?.source);
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new RangeError(`steps must be a non-empty array, got ${String(steps)}`);
  }
  checkFunction('emit', emit);
  const stages: Stage[] = [];
  const codecs: RowCodec<unknown>[] = [first.codec, ...steps.map((s) => s.codec)];
  steps.forEach((s, j) => {
    checkSource(`steps[${j}].source`, s.source);
    checkFunction(`steps[${j}].outerKey`, s.outerKey);
    checkFunction(`steps[${j}].innerKey`, s.innerKey);
    if (s.join_buffer_size !== undefined) {
      checkBufferSize(`steps[${j}].join_buffer_size`, s.join_buffer_size, 1);
    }
    const prevSize = j > 0 ? (steps[j - 1]!.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT) : 0;
    stages.push(new Stage(j, s, codecs, s.incremental === true && j > 0 ? linkBytes(prevSize) : 0));
  });
  for (let j = 0; j < stages.length; j++) {
    stages[j]!.prev = stages[j - 1] ?? null;
    stages[j]!.next = stages[j + 1] ?? null;
    stages[j]!.emit = emit;
  }
  const head = stages[0]!;
  const src = first.source;
  src.rewind();
  for (;;) {
    head.stats.Handler_read_rnd_next++;
    const row = src.next();
    if (row === undefined) break;
    head.put(-1, [row]);
  }
  if (head.buffer.count > 0) head.flush();
  for (const s of stages) s.stats.joinBufferGrows = s.buffer.grows;
  return stages.map((s) => s.stats);
}

/** One step's buffer and its join. */
class Stage {
  readonly stats: JoinStats = createJoinStats();
  readonly buffer: JoinBuffer<StageRecord>;
  prev: Stage | null = null;
  next: Stage | null = null;
  emit: (rows: readonly unknown[]) => void = () => {};
  readonly #step: PipelineStep;
  readonly #incremental: boolean;
  readonly #hash: KeyHash | null;
  readonly #index: number;
  readonly #out: unknown[];

  /** `link`: bytes of the link to the previous buffer's record, 0 for a flat buffer. */
  constructor(index: number, step: PipelineStep, codecs: readonly RowCodec<unknown>[], link: number) {
    const incremental = link > 0;
    this.#index = index;
    this.#step = step;
    this.#incremental = incremental;
    this.#hash = step.hashed === true ? new KeyHash() : null;
    this.#out = new Array(index + 2);
    // Flat: rows t0..t_index, each as u32 length + bytes. Incremental: link + row t_index.
    const mine = incremental ? codecs.slice(index, index + 1) : codecs.slice(0, index + 1);
    const hashed = step.hashed === true;
    // INNER joins only: no match flag; a length for key access (BNLH), as set_constants decides.
    this.buffer = new JoinBuffer(recordCodec(mine, link), step.join_buffer_size ?? JOIN_BUFFER_SIZE_DEFAULT, {
      withLength: hashed,
      withMatchFlag: false,
      linkBytes: link,
      auxBytesPerRecord: hashed ? HASH_ENTRY_BYTES : 0,
    });
  }

  /** Buffer the partial row `rows` (t0 … t_index); `link` is its record in the previous buffer. */
  put(link: number, rows: unknown[]): void {
    const key = this.#step.outerKey(rows);
    if (key === null) return; // INNER join: a NULL key never matches
    const rec: StageRecord = this.#incremental ? { link, rows: [rows[rows.length - 1]] } : { link: -1, rows };
    let r = this.buffer.put(rec, key);
    if (r < 0) {
      this.flush();
      r = this.buffer.put(rec, key);
    }
    this.#hash?.add(key, r);
  }

  /** The partial row of record `r`: t0 … t_index. */
  rowsOf(r: number): unknown[] {
    const rec = this.buffer.row(r);
    if (!this.#incremental) return rec.rows;
    const before = this.prev!.rowsOf(rec.link);
    before.push(rec.rows[0]);
    return before;
  }

  /** Join the buffer against this step's table, pass matches on, then reset. */
  flush(): void {
    const { source, innerKey } = this.#step;
    const buf = this.buffer;
    const stats = this.stats;
    stats.joinBufferFills++;
    stats.innerScans++;
    source.rewind();
    for (;;) {
      stats.Handler_read_rnd_next++;
      const inner = source.next();
      if (inner === undefined) break;
      const k = innerKey(inner);
      if (k === null) continue;
      if (this.#hash !== null) {
        for (let r = this.#hash.head(k); r >= 0; r = this.#hash.next(r)) this.#match(r, inner);
      } else {
        for (let r = 0; r < buf.count; r++) if (buf.key(r) === k) this.#match(r, inner);
      }
    }
    // MariaDB: join_records() ends by joining the next cache, so links stay valid.
    if (this.next !== null && this.next.buffer.count > 0) this.next.flush();
    buf.reset();
    this.#hash?.clear();
  }

  #match(r: number, inner: unknown): void {
    const rows = this.rowsOf(r);
    rows.push(inner);
    this.stats.rowsOut++;
    if (this.next !== null) {
      this.next.put(r, rows);
      return;
    }
    const out = this.#out;
    for (let t = 0; t < rows.length; t++) out[t] = rows[t];
    this.emit(out);
  }

  get index(): number {
    return this.#index;
  }
}

/** Pack a {@link StageRecord}: a `link`-byte link if incremental, then each row as u32 length + codec bytes. */
function recordCodec(codecs: readonly RowCodec<unknown>[], link: number): RowCodec<StageRecord> {
  const n = codecs.length;
  let max = link;
  for (const c of codecs)
    max = c.maxByteLength === undefined ? Number.POSITIVE_INFINITY : max + 4 + c.maxByteLength;
  let fields = 0;
  for (const c of codecs) fields += c.fieldCount ?? 1;
  return {
    ...(Number.isFinite(max) ? { maxByteLength: max } : {}),
    fieldCount: fields,
    byteLength(rec: StageRecord): number {
      let len = link;
      for (let t = 0; t < n; t++) len += 4 + codecs[t]!.byteLength(rec.rows[t]);
      return len;
    },
    write(rec: StageRecord, bytes: Uint8Array, view: DataView, offset: number): number {
      if (link > 0) {
        writeLink(view, offset, link, rec.link);
        offset += link;
      }
      for (let t = 0; t < n; t++) {
        const end = codecs[t]!.write(rec.rows[t], bytes, view, offset + 4);
        view.setUint32(offset, end - offset - 4, true);
        offset = end;
      }
      return offset;
    },
    read(bytes: Uint8Array, view: DataView, offset: number): StageRecord {
      let at = -1;
      if (link > 0) {
        at = readLink(view, offset, link);
        offset += link;
      }
      const rows: unknown[] = [];
      for (let t = 0; t < n; t++) {
        const len = view.getUint32(offset, true);
        rows.push(codecs[t]!.read(bytes, view, offset + 4, len));
        offset += 4 + len;
      }
      return { link: at, rows };
    },
  };
}

function writeLink(view: DataView, offset: number, width: number, value: number): void {
  if (width === 1) view.setUint8(offset, value);
  else if (width === 2) view.setUint16(offset, value, true);
  else view.setUint32(offset, value, true);
}

function readLink(view: DataView, offset: number, width: number): number {
  if (width === 1) return view.getUint8(offset);
  if (width === 2) return view.getUint16(offset, true);
  return view.getUint32(offset, true);
}
