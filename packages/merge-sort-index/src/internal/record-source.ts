import { SourceError } from '../errors.js';
import type { KeyValue, RecordSource } from '../types.js';

function sourceError(err: unknown): SourceError {
  return new SourceError(`record source failed: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
  });
}

/**
 * Feed every record of `source` to `add`. An exception from the source (its iterator or its
 * scan function) becomes a `SourceError` whose `cause` is the original; an exception from `add`
 * itself passes through unchanged (after the iterator is told to stop). `fail` runs first in
 * either case, so the caller's temp files are gone before anything is thrown.
 */
export function feed(
  source: RecordSource,
  add: (key: Uint8Array, value: Uint8Array) => void,
  fail: () => void,
): void {
  if (typeof source === 'function') {
    let own: unknown;
    const emit = (key: Uint8Array, value: Uint8Array): void => {
      try {
        add(key, value);
      } catch (err) {
        own = err;
        throw err;
      }
    };
    try {
      source(emit);
    } catch (err) {
      fail();
      throw err === own ? err : sourceError(err);
    }
    return;
  }
  if (
    source === null ||
    typeof source !== 'object' ||
    typeof (source as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
    throw new TypeError(
      `source must be an iterable of [key, value] pairs or a scan function, got ${String(source)}`,
    );
  }
  let it: Iterator<KeyValue>;
  try {
    it = source[Symbol.iterator]();
  } catch (err) {
    fail();
    throw sourceError(err);
  }
  for (;;) {
    let r: IteratorResult<KeyValue>;
    try {
      r = it.next();
    } catch (err) {
      fail();
      throw sourceError(err);
    }
    if (r.done) return;
    try {
      const pair = r.value;
      add(pair[0], pair[1]);
    } catch (err) {
      fail();
      try {
        it.return?.();
      } catch {
        // the original error is the one to report
      }
      throw err;
    }
  }
}
