import { compareBytes } from '@enginekit/common';
import type { KeyComparator } from '../types.js';
import type { Counter, RecordCursor } from './cursor.js';

/**
 * Abbreviated keys for memcmp order (`compare` undefined): the first 8 key bytes of input i's
 * head as two big-endian words, zero-padded, in `hi[i]`, `lo[i]`. Heads whose words differ are
 * ordered by the words alone (what memcmp of the keys would say); equal words fall back to the
 * whole keys. The merge's inputs are runs of similar keys, so 8 bytes decide almost every match.
 */
function loadPrefix(c: RecordCursor, hi: Uint32Array, lo: Uint32Array, i: number): void {
  const b = c.buf;
  const s = c.keyStart;
  const n = c.keyEnd - s;
  if (n >= 8) {
    hi[i] = ((b[s]! << 24) | (b[s + 1]! << 16) | (b[s + 2]! << 8) | b[s + 3]!) >>> 0;
    lo[i] = ((b[s + 4]! << 24) | (b[s + 5]! << 16) | (b[s + 6]! << 8) | b[s + 7]!) >>> 0;
    return;
  }
  let h = 0;
  let l = 0;
  for (let k = 0; k < n; k++) {
    if (k < 4) h |= b[s + k]! << (24 - 8 * k);
    else l |= b[s + k]! << (24 - 8 * (k - 4));
  }
  hi[i] = h >>> 0;
  lo[i] = l >>> 0;
}

/** Copy the current record's position from `from` into `to`. */
function take(to: RecordCursor, from: RecordCursor): void {
  to.buf = from.buf;
  to.recordStart = from.recordStart;
  to.keyStart = from.keyStart;
  to.keyEnd = from.keyEnd;
  to.valueStart = from.valueStart;
  to.valueEnd = from.valueEnd;
}

/**
 * Two-way merge of two sorted cursors, as InnoDB's `row_merge_blocks`: compare the heads, emit
 * the smaller; on equal keys the first input goes first, which keeps the merge stable when the
 * first input holds the earlier records.
 */
export class TwoWayMerge implements RecordCursor {
  buf: Buffer;
  recordStart = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  readonly #a: RecordCursor;
  readonly #b: RecordCursor;
  readonly #compare: KeyComparator | undefined;
  readonly #counter: Counter;
  /** Abbreviated keys of the two heads (memcmp order only): [a, b]. */
  readonly #hi = new Uint32Array(2);
  readonly #lo = new Uint32Array(2);
  #aHas = false;
  #bHas = false;
  /** 0: not started, 1: last taken from a, 2: from b. */
  #last = 0;

  /** `compare` undefined: memcmp order, with abbreviated keys. */
  constructor(a: RecordCursor, b: RecordCursor, compare: KeyComparator | undefined, counter: Counter) {
    this.#a = a;
    this.#b = b;
    this.#compare = compare;
    this.#counter = counter;
    this.buf = a.buf;
  }

  /** a's head ≤ b's head (both present). */
  #aFirst(a: RecordCursor, b: RecordCursor): boolean {
    this.#counter.comparisons++;
    const compare = this.#compare;
    if (compare !== undefined) return compare(a.buf, a.keyStart, a.keyEnd, b.buf, b.keyStart, b.keyEnd) <= 0;
    const hi = this.#hi;
    const lo = this.#lo;
    if (hi[0] !== hi[1]) return hi[0]! < hi[1]!;
    if (lo[0] !== lo[1]) return lo[0]! < lo[1]!;
    return compareBytes(a.buf, a.keyStart, a.keyEnd, b.buf, b.keyStart, b.keyEnd) <= 0;
  }

  next(): boolean {
    const a = this.#a;
    const b = this.#b;
    const abbreviate = this.#compare === undefined;
    if (this.#last !== 2) {
      this.#aHas = a.next();
      if (abbreviate && this.#aHas) loadPrefix(a, this.#hi, this.#lo, 0);
    }
    if (this.#last !== 1) {
      this.#bHas = b.next();
      if (abbreviate && this.#bHas) loadPrefix(b, this.#hi, this.#lo, 1);
    }
    if (this.#aHas) {
      if (this.#bHas) {
        if (this.#aFirst(a, b)) {
          this.#last = 1;
          take(this, a);
        } else {
          this.#last = 2;
          take(this, b);
        }
      } else {
        this.#last = 1;
        take(this, a);
      }
      return true;
    }
    if (this.#bHas) {
      this.#last = 2;
      take(this, b);
      return true;
    }
    return false;
  }
}

/**
 * k-way merge with a loser tree (Knuth, TAOCP vol. 3, 5.4.1): `k − 1` internal nodes each hold
 * the loser of the match played there, node 0 holds the overall winner. Replacing the winner
 * replays only its leaf-to-root path: ⌈log2 k⌉ comparisons per record. Ties go to the input
 * with the lower index, so merging runs in input order is stable. An exhausted input counts
 * as +∞.
 */
export class LoserTreeMerge implements RecordCursor {
  buf: Buffer;
  recordStart = 0;
  keyStart = 0;
  keyEnd = 0;
  valueStart = 0;
  valueEnd = 0;
  readonly #inputs: readonly RecordCursor[];
  readonly #k: number;
  /** tree[t] for t ≥ 1: loser at internal node t; tree[0]: the winner. */
  readonly #tree: Int32Array;
  readonly #has: Uint8Array;
  readonly #compare: KeyComparator | undefined;
  readonly #counter: Counter;
  /** Abbreviated keys of the heads (memcmp order only). */
  readonly #hi: Uint32Array;
  readonly #lo: Uint32Array;
  #started = false;

  /** `compare` undefined: memcmp order, with abbreviated keys. */
  constructor(inputs: readonly RecordCursor[], compare: KeyComparator | undefined, counter: Counter) {
    if (inputs.length === 0) throw new RangeError('LoserTreeMerge needs at least one input');
    this.#inputs = inputs;
    this.#k = inputs.length;
    this.#tree = new Int32Array(Math.max(1, this.#k));
    this.#has = new Uint8Array(this.#k);
    this.#compare = compare;
    this.#counter = counter;
    this.#hi = new Uint32Array(this.#k);
    this.#lo = new Uint32Array(this.#k);
    this.buf = inputs[0]!.buf;
  }

  /** Advance input i and note whether it has a head. */
  #advance(i: number): void {
    const c = this.#inputs[i]!;
    const has = c.next();
    this.#has[i] = has ? 1 : 0;
    if (has && this.#compare === undefined) loadPrefix(c, this.#hi, this.#lo, i);
  }

  /** Does input i's head sort before input j's? */
  #less(i: number, j: number): boolean {
    const has = this.#has;
    if (has[i] === 0) return false;
    if (has[j] === 0) return true;
    this.#counter.comparisons++;
    const compare = this.#compare;
    if (compare === undefined) {
      const hi = this.#hi;
      const lo = this.#lo;
      if (hi[i] !== hi[j]) return hi[i]! < hi[j]!;
      if (lo[i] !== lo[j]) return lo[i]! < lo[j]!;
    }
    const x = this.#inputs[i]!;
    const y = this.#inputs[j]!;
    const c = (compare ?? compareBytes)(x.buf, x.keyStart, x.keyEnd, y.buf, y.keyStart, y.keyEnd);
    return c < 0 || (c === 0 && i < j);
  }

  #build(): void {
    const k = this.#k;
    for (let i = 0; i < k; i++) this.#advance(i);
    if (k === 1) {
      this.#tree[0] = 0;
      return;
    }
    // winners of the sub-tournaments, leaves at k..2k−1 (a heap-shaped tree works for any k)
    const win = new Int32Array(2 * k);
    for (let i = 0; i < k; i++) win[k + i] = i;
    for (let t = k - 1; t >= 1; t--) {
      const l = win[2 * t]!;
      const r = win[2 * t + 1]!;
      if (this.#less(r, l)) {
        win[t] = r;
        this.#tree[t] = l;
      } else {
        win[t] = l;
        this.#tree[t] = r;
      }
    }
    this.#tree[0] = win[1]!;
  }

  next(): boolean {
    const tree = this.#tree;
    let w: number;
    if (!this.#started) {
      this.#started = true;
      this.#build();
      w = tree[0]!;
    } else {
      w = tree[0]!;
      this.#advance(w);
      for (let t = (w + this.#k) >> 1; t >= 1; t >>= 1) {
        const l = tree[t]!;
        if (this.#less(l, w)) {
          tree[t] = w;
          w = l;
        }
      }
      tree[0] = w;
    }
    if (this.#has[w] === 0) return false;
    take(this, this.#inputs[w]!);
    return true;
  }
}
