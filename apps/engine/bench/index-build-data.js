// Rows for the index-build bench: Percona's sysbench table `sbtest1` (id INT, c CHAR(120) as 10
// groups of 11 digits joined by '-'), deterministic, built once in one flat buffer before any
// timing. A secondary-index entry on c is (c, id): key = the 119 bytes of c + the 4-byte id
// big-endian (so memcmp order is (c, id) order and every key is unique), value = the 4-byte id.

export const C_LENGTH = 119;

/** xorshift32: the same seed gives the same rows in every run and for every contender. */
function stream(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

let cached;
/** The c column of `rows` rows (id = position + 1), cached for the last size asked. */
export function table(rows) {
  if (cached?.rows !== rows) {
    const rnd = stream(2014);
    const c = new Uint8Array(rows * C_LENGTH);
    for (let i = 0, p = 0; i < rows; i++) {
      for (let g = 0; g < 10; g++) {
        if (g > 0) c[p++] = 0x2d;
        for (let d = 0; d < 11; d++) c[p++] = 0x30 + (rnd() % 10);
      }
    }
    cached = { rows, c };
  }
  return cached;
}

/**
 * A scan function over the index entries: like a clustered-index scan it copies each row's
 * fields into one reused key buffer before handing them on.
 */
export function indexEntries(rows) {
  const { c } = table(rows);
  return (emit) => {
    const key = new Uint8Array(C_LENGTH + 4);
    const kv = new DataView(key.buffer);
    const value = new Uint8Array(4);
    const vv = new DataView(value.buffer);
    for (let i = 0, off = 0; i < rows; i++, off += C_LENGTH) {
      key.set(c.subarray(off, off + C_LENGTH));
      kv.setUint32(C_LENGTH, i + 1);
      vv.setUint32(0, i + 1);
      emit(key, value);
    }
  };
}

/** The same rows as (id, c) for SQLite; `c` is a reused Buffer. */
export function tableRows(rows) {
  const { c } = table(rows);
  return (emit) => {
    const buf = Buffer.alloc(C_LENGTH);
    for (let i = 0, off = 0; i < rows; i++, off += C_LENGTH) {
      buf.set(c.subarray(off, off + C_LENGTH));
      emit(i + 1, buf);
    }
  };
}
