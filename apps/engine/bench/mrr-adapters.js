// @enginekit/mrr's two interfaces over btree-sampler trees: the secondary index as an
// IndexReader (equality and interval lookups on 4-byte keys, numeric row ids = the PK), the
// clustered index as a RowFetcher (PK → row bytes).
import { readU32be, u32be } from './mrr-dataset.js';

export function secondaryReader(tree, recordsPerKey = 1) {
  const cursor = tree.cursor();
  const from = new Uint8Array(4);
  let high = 0xffffffff; // inclusive upper bound of the current range
  let current = 0; // key of the entry the cursor is on
  let rowId = 0;
  const load = () => {
    const k = cursor.key();
    current = readU32be(k);
    rowId = readU32be(cursor.value());
    return current <= high;
  };
  return {
    rowIdKind: 'number',
    recordsPerKey,
    seek(range) {
      let low;
      if ('key' in range) {
        low = range.key;
        high = range.key;
      } else {
        low = range.low === undefined ? 0 : range.low + (range.lowInclusive === false ? 1 : 0);
        high = range.high === undefined ? 0xffffffff : range.high - (range.highInclusive === false ? 1 : 0);
      }
      if (low > high || !cursor.seek(u32be(low, from), 'ge')) return false;
      return load();
    },
    next() {
      return cursor.next() && load();
    },
    rowId() {
      return rowId;
    },
    compareKeys(a, b) {
      return a - b;
    },
  };
}

export function clusteredFetcher(tree) {
  const key = new Uint8Array(4);
  return {
    rndPos(pk) {
      return tree.get(u32be(pk, key));
    },
  };
}
