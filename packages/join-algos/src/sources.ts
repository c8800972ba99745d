import type { IndexAccess, JoinKey, RowSource } from './types.js';

/**
 * A {@link RowSource} over an array (tests, benchmarks, in-memory tables).
 *
 * @example
 * ```ts
 * const t = arraySource([[1, 'a'], [2, 'b']]);
 * t.rewind();
 * t.next(); // [1, 'a']
 * ```
 */
export function arraySource<R>(rows: readonly R[]): RowSource<R> {
  if (!Array.isArray(rows)) throw new TypeError(`rows must be an array, got ${String(rows)}`);
  let pos = 0;
  return {
    rewind(): void {
      pos = 0;
    },
    next(): R | undefined {
      return pos < rows.length ? rows[pos++] : undefined;
    },
  };
}

/**
 * An {@link IndexAccess} over an array: a hash index from key to the row positions holding it, in
 * array order (a non-unique secondary index whose entries are ordered by row position, as an
 * InnoDB secondary index orders equal keys by primary key). Rows whose key is `null` are not
 * indexed. Built once, O(rows).
 */
export function arrayIndex<R>(rows: readonly R[], keyOf: (row: R) => JoinKey): IndexAccess<R> {
  if (!Array.isArray(rows)) throw new TypeError(`rows must be an array, got ${String(rows)}`);
  if (typeof keyOf !== 'function') throw new TypeError(`keyOf must be a function, got ${String(keyOf)}`);
  // Chained positions: head[key] → first position, link[pos] → next position with the same key.
  const head = new Map<JoinKey, number>();
  const tail = new Map<JoinKey, number>();
  const link = new Int32Array(rows.length).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    const k = keyOf(rows[i]!);
    if (k === null) continue;
    const t = tail.get(k);
    if (t === undefined) head.set(k, i);
    else link[t] = i;
    tail.set(k, i);
  }
  let cur = -1;
  return {
    readKey(key: Exclude<JoinKey, null>): R | undefined {
      cur = head.get(key) ?? -1;
      return cur < 0 ? undefined : rows[cur];
    },
    nextSame(): R | undefined {
      if (cur < 0) return undefined;
      cur = link[cur]!;
      return cur < 0 ? undefined : rows[cur];
    },
  };
}
