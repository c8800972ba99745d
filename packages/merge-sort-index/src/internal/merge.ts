import type { KeyComparator } from '../types.js';
import type { Counter, RecordCursor } from './cursor.js';

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
  readonly #compare: KeyComparator;
  readonly #counter: Counter;
  #aHas = false;
  #bHas = false;
  /** 0: not started, 1: last taken from a, 2: from b. */
  #last = 0;

  constructor(a: RecordCursor, b: RecordCursor, compare: KeyComparator, counter: Counter) {
    this.#a = a;
    this.#b = b;
    this.#compare = compare;
    this.#counter = counter;
    this.buf = a.buf;
  }

  next(): boolean {
    const a = this.#a;
    const b = this.#b;
    if (this.#last === 0) {
      this.#aHas = a.next();
      this.#bHas = b.next();
    } else if (this.#last === 1) {
      this.#aHas = a.next();
    } else {
      this.#bHas = b.next();
    }
    if (this.#aHas) {
      if (this.#bHas) {
        this.#counter.comparisons++;
        if (this.#compare(a.buf, a.keyStart, a.keyEnd, b.buf, b.keyStart, b.keyEnd) <= 0) {
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
  readonly #compare: KeyComparator;
  readonly #counter: Counter;
  #started = false;

  constructor(inputs: readonly RecordCursor[], compare: KeyComparator, counter: Counter) {
    if (inputs.length === 0) throw new RangeError('LoserTreeMerge needs at least one input');
    this.#inputs = inputs;
    this.#k = inputs.length;
    this.#tree = new Int32Array(Math.max(1, this.#k));
    this.#has = new Uint8Array(this.#k);
    this.#compare = compare;
    this.#counter = counter;
    this.buf = inputs[0]!.buf;
  }

  /** Does input i's head sort before input j's? */
  #less(i: number, j: number): boolean {
    const has = this.#has;
    if (has[i] === 0) return false;
    if (has[j] === 0) return true;
    const x = this.#inputs[i]!;
    const y = this.#inputs[j]!;
    this.#counter.comparisons++;
    const c = this.#compare(x.buf, x.keyStart, x.keyEnd, y.buf, y.keyStart, y.keyEnd);
    return c < 0 || (c === 0 && i < j);
  }

  #build(): void {
    const k = this.#k;
    for (let i = 0; i < k; i++) this.#has[i] = this.#inputs[i]!.next() ? 1 : 0;
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
      this.#has[w] = this.#inputs[w]!.next() ? 1 : 0;
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
