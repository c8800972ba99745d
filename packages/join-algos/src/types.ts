/**
 * A join key. `null` is SQL NULL: it never equals anything, not even another NULL, so a row
 * whose key is `null` never matches (it still appears, null-complemented, in a LEFT join and in
 * an ANTI join). Keys are compared with `===`: a number never equals a string.
 */
export type JoinKey = number | string | bigint | null;

/**
 * - `inner`: one output row per matching (outer, inner) pair;
 * - `left`: as inner, plus `(outer, null)` for an outer row without a match (LEFT OUTER JOIN);
 * - `semi`: `(outer, null)` once for an outer row with at least one match (`EXISTS`, `IN`);
 * - `anti`: `(outer, null)` for an outer row without a match (`NOT EXISTS`).
 */
export type JoinType = 'inner' | 'left' | 'semi' | 'anti';

/** Every join type, in the order the property suite runs them. */
export const joinTypes: readonly JoinType[] = Object.freeze(['inner', 'left', 'semi', 'anti'] as const);

/**
 * A rescannable row source: a table scan (the server's `rnd_init` / `rnd_next`).
 *
 * REQUIRES: after `rewind()`, successive `next()` calls return every row once, then `undefined`;
 * `rewind()` may be called any number of times (block nested loop rescans the inner table once
 * per join-buffer fill). The operators count every `next()` call, the final `undefined` included,
 * as one `Handler_read_rnd_next`, as MariaDB's `handler::ha_rnd_next` does.
 */
export interface RowSource<R> {
  rewind(): void;
  next(): R | undefined;
}

/**
 * Equality lookup on an index (the server's `index_read_map(HA_READ_KEY_EXACT)` then
 * `index_next_same`).
 *
 * REQUIRES: `readKey(k)` positions on the first row whose key equals `k` and returns it, or
 * `undefined` if there is none; `nextSame()` returns the following row with the same key, or
 * `undefined` once they are exhausted. `readKey` is never called with `null` by the operators.
 * Counted as `Handler_read_key` per `readKey` and `Handler_read_next` per `nextSame`, the failing
 * last call included (MariaDB 10.0 `handler::ha_index_read_map` / `ha_index_next_same`).
 */
export interface IndexAccess<R> {
  readKey(key: Exclude<JoinKey, null>): R | undefined;
  nextSame(): R | undefined;
}

/** Receives each output row. For `semi` and `anti` joins `inner` is always `null`. */
export type Emit<O, I> = (outer: O, inner: I | null) => void;

/** The parts every join operator takes. */
export interface JoinSpec<O, I> {
  type: JoinType;
  /** The outer (driving, preserved for LEFT/ANTI) input. Scanned once. */
  outer: RowSource<O>;
  outerKey: (row: O) => JoinKey;
  innerKey: (row: I) => JoinKey;
  /** An extra condition checked after the keys are equal (the rest of the ON clause). */
  condition?: (outer: O, inner: I) => boolean;
}
