import type { MrrRange, NumberRowIdIndexReader, RowFetcher } from '@enginekit/mrr';
import { compareKeys } from './sort-merge-join.js';
import type { IndexAccess, JoinKey } from './types.js';

/** A non-NULL join key: what an index is searched with. */
export type IndexKey = Exclude<JoinKey, null>;

/**
 * An `@enginekit/mrr` index reader over an array: entries (key, row position) sorted by key
 * ({@link compareKeys}) then position, so equal keys come in row order, as an InnoDB secondary
 * index orders them by primary key. The row id is the row's array position (use
 * `arrayRowFetcher(rows)` from `@enginekit/mrr` as the fetcher). Rows whose key is `null` are not
 * indexed. Equality ranges only.
 */
export function arrayIndexReader<R>(
  rows: readonly R[],
  keyOf: (row: R) => JoinKey,
): NumberRowIdIndexReader<IndexKey> {
  if (!Array.isArray(rows)) throw new TypeError(`rows must be an array, got ${String(rows)}`);
  if (typeof keyOf !== 'function') throw new TypeError(`keyOf must be a function, got ${String(keyOf)}`);
  const keys: IndexKey[] = [];
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const k = keyOf(rows[i]!);
    if (k === null) continue;
    keys.push(k);
    ids.push(i);
  }
  const order = Int32Array.from(ids, (_, n) => n).sort(
    (a, b) => compareKeys(keys[a]!, keys[b]!) || ids[a]! - ids[b]!,
  );
  const sortedKeys = Array.from(order, (n) => keys[n]!);
  const rowIds = Float64Array.from(order, (n) => ids[n]!);
  let distinct = 0;
  for (let i = 0; i < sortedKeys.length; i++) if (i === 0 || sortedKeys[i] !== sortedKeys[i - 1]) distinct++;
  let pos = 0;
  let end = 0;
  const lowerBound = (key: IndexKey, strict: boolean): number => {
    let lo = 0;
    let hi = sortedKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareKeys(sortedKeys[mid]!, key);
      if (c < 0 || (strict && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    rowIdKind: 'number',
    recordsPerKey: distinct === 0 ? 1 : Math.max(1, Math.floor(sortedKeys.length / distinct)),
    seek(range: MrrRange<IndexKey>): boolean {
      if (!('key' in range)) throw new TypeError('arrayIndexReader: only equality ranges are supported');
      pos = lowerBound(range.key, false);
      end = lowerBound(range.key, true);
      return pos < end;
    },
    next(): boolean {
      return ++pos < end;
    },
    rowId(): number {
      return rowIds[pos]!;
    },
    compareKeys,
  };
}

/**
 * An {@link IndexAccess} (for index nested loop) over an MRR reader and fetcher: one `seek` and
 * one row fetch per entry, in index order — what a join does without MRR.
 */
export function indexAccessFromReader<R>(
  reader: NumberRowIdIndexReader<IndexKey>,
  fetcher: RowFetcher<R>,
): IndexAccess<R> {
  return {
    readKey(key: IndexKey): R | undefined {
      return reader.seek({ key }) ? fetcher.rndPos(reader.rowId()) : undefined;
    },
    nextSame(): R | undefined {
      return reader.next() ? fetcher.rndPos(reader.rowId()) : undefined;
    },
  };
}
