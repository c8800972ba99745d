import { DuplicateKeyError } from '@enginekit/common';
import type { KeyComparator } from '../types.js';
import { copyOut, hexKey } from './bytes.js';
import type { RecordCursor } from './cursor.js';

/**
 * The duplicate check of a unique sort. The output is in key order, so a duplicate always
 * follows its twin: keep a copy of the previous key and compare once per record. InnoDB checks
 * while sorting and merging instead (`row_merge_buf_sort`, `row_merge_blocks`, row0merge.cc)
 * and fails the build with `DB_DUPLICATE_KEY`; the outcome is the same error, found in the
 * last pass here.
 */
export class UniqueCheck {
  readonly #compare: KeyComparator;
  #prev: Uint8Array = new Uint8Array(64);
  #prevLen = 0;

  constructor(compare: KeyComparator) {
    this.#compare = compare;
  }

  /** Check the cursor's record, the `n`-th (0-based) of the output. */
  check(c: RecordCursor, n: number): void {
    const len = c.keyEnd - c.keyStart;
    let prev = this.#prev;
    if (n > 0 && this.#compare(prev, 0, this.#prevLen, c.buf, c.keyStart, c.keyEnd) === 0) {
      throw new DuplicateKeyError(
        `duplicate key ${hexKey(c.buf, c.keyStart, c.keyEnd)} in a unique sort (records ${n} and ${n + 1} in key order)`,
        copyOut(c.buf, c.keyStart, c.keyEnd),
      );
    }
    if (prev.length < len) prev = this.#prev = new Uint8Array(Math.max(len, 2 * prev.length));
    for (let i = 0; i < len; i++) prev[i] = c.buf[c.keyStart + i]!;
    this.#prevLen = len;
  }
}
