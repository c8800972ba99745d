import type { RowCodec } from '../codec.js';
import { JoinBuffer, type JoinBufferLayout } from '../join-buffer.js';
import type { JoinStats } from '../stats.js';
import type { Emit, JoinKey, JoinSpec, JoinType } from '../types.js';
import { checkBufferSize } from './validate.js';

/**
 * The part of a block join every algorithm shares (MariaDB `sub_select_cache` +
 * `JOIN_CACHE::join_records`): scan the outer input into the join buffer; when a record does not
 * fit, join the buffer against the inner side, emit NULL-complements for LEFT/ANTI, reset, go on.
 *
 * Outer rows with a NULL key cannot match: they are never buffered (MariaDB marks them
 * MATCH_IMPOSSIBLE); LEFT and ANTI emit them null-complemented at once, INNER and SEMI drop them.
 */
export class BufferedJoin<O, I> {
  readonly buffer: JoinBuffer<O>;
  readonly type: JoinType;
  readonly #spec: JoinSpec<O, I>;
  readonly #out: Emit<O, I>;
  readonly #stats: JoinStats;
  readonly #firstMatchOnly: boolean;

  /**
   * `keyAccess`: BNLH / BKA / BKAH (records carry their length); `aux`: bytes charged outside
   * the records (hash entries, MRR space).
   */
  constructor(
    spec: JoinSpec<O, I>,
    codec: RowCodec<O>,
    joinBufferSize: number,
    keyAccess: boolean,
    aux: { perRecord?: number; first?: number },
    out: Emit<O, I>,
    stats: JoinStats,
  ) {
    checkBufferSize('join_buffer_size', joinBufferSize, 1);
    const c = codec as Partial<RowCodec<O>> | null;
    if (
      typeof c !== 'object' ||
      c === null ||
      typeof c.write !== 'function' ||
      typeof c.read !== 'function'
    ) {
      throw new TypeError(`outerCodec must be a RowCodec, got ${String(codec)}`);
    }
    this.buffer = new JoinBuffer(codec, joinBufferSize, joinLayout(spec.type, keyAccess, aux));
    this.type = spec.type;
    this.#spec = spec;
    this.#out = out;
    this.#stats = stats;
    this.#firstMatchOnly = spec.type === 'semi' || spec.type === 'anti';
  }

  /**
   * Scan the outer input. `onPut(r, key)` sees each buffered record; `joinRecords()` joins a
   * full buffer (calling {@link match}); `onReset()` clears per-fill state (hash tables).
   */
  run(onPut: (record: number, key: JoinKey) => void, joinRecords: () => void, onReset: () => void): void {
    const { outer, outerKey } = this.#spec;
    const buf = this.buffer;
    const stats = this.#stats;
    const complementNull = this.type === 'left' || this.type === 'anti';
    const flush = (): void => {
      stats.joinBufferFills++;
      joinRecords();
      if (complementNull) {
        for (let r = 0; r < buf.count; r++) if (!buf.matched(r)) this.#out(buf.row(r), null);
      }
      buf.reset();
      onReset();
    };
    outer.rewind();
    for (;;) {
      stats.Handler_read_rnd_next++;
      const o = outer.next();
      if (o === undefined) break;
      const k = outerKey(o);
      if (k === null) {
        if (complementNull) this.#out(o, null);
        continue;
      }
      let r = buf.put(o, k);
      if (r < 0) {
        flush();
        r = buf.put(o, k);
      }
      onPut(r, k);
    }
    if (buf.count > 0) flush();
    stats.joinBufferGrows += buf.grows;
  }

  /**
   * Inner row `inner` has the key of buffered record `r`: check the condition, set the match
   * flag, emit. SEMI/ANTI skip a record already matched (MariaDB skips MATCH_FOUND records).
   * Returns whether it matched.
   */
  match(r: number, inner: I): boolean {
    const buf = this.buffer;
    if (this.#firstMatchOnly && buf.matched(r)) return false;
    const cond = this.#spec.condition;
    const needRow =
      cond !== undefined || this.type === 'inner' || this.type === 'left' || this.type === 'semi';
    const o = needRow ? buf.row(r) : (undefined as O);
    if (cond !== undefined && !cond(o, inner)) return false;
    buf.setMatched(r);
    if (this.type === 'semi') this.#out(o, null);
    else if (this.type !== 'anti') this.#out(o, inner);
    return true;
  }
}

/**
 * The record layout MariaDB picks for a two-table join: a match flag for the inner table of an
 * outer join or a semi-join (LEFT, SEMI, ANTI); a length for key access or whenever there is a
 * flag (`JOIN_CACHE::set_constants`, `JOIN_TAB::use_match_flag`).
 */
export function joinLayout(
  type: JoinType,
  keyAccess: boolean,
  aux: { perRecord?: number; first?: number } = {},
): JoinBufferLayout {
  const flag = type !== 'inner';
  return {
    withLength: keyAccess || flag,
    withMatchFlag: flag,
    auxBytesPerRecord: aux.perRecord ?? 0,
    auxBytesFirst: aux.first ?? 0,
  };
}
