// Deterministic sysbench-like rows (the Percona post's `sbtest1`: id INT, c CHAR(120) as
// 11 groups of digits), produced by a scan function so the source holds no rows in memory.
// A secondary-index entry on c is (c, id): key = 119 bytes of c + 4 bytes of id (big-endian,
// so memcmp order is (c, id) order and keys are unique), value = the 4-byte id.

/** xorshift32 stream: the same seed gives the same rows in every run and every peer. */
function stream(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}

export const C_LENGTH = 119;

/** Fill buf[0, 119) with c for the next row: 10 groups of 11 digits, '-' between. */
function fillC(buf, rnd) {
  let p = 0;
  for (let g = 0; g < 10; g++) {
    if (g > 0) buf[p++] = 0x2d;
    for (let d = 0; d < 11; d++) buf[p++] = 0x30 + (rnd() % 10);
  }
  return p;
}

/**
 * The table: `rows` values of c, 119 bytes each, in one flat buffer (id = position + 1). Built
 * once per size and shared by every contender, so no timed run pays for making the data.
 */
export function makeTable(rows, seed = 2014) {
  const rnd = stream(seed);
  const c = new Uint8Array(rows * C_LENGTH);
  const one = new Uint8Array(C_LENGTH);
  for (let i = 0; i < rows; i++) {
    fillC(one, rnd);
    c.set(one, i * C_LENGTH);
  }
  return { rows, c };
}

const tables = new Map();
/** `makeTable(rows)`, cached. */
export function table(rows) {
  let t = tables.get(rows);
  if (t === undefined) {
    tables.clear();
    t = makeTable(rows);
    tables.set(rows, t);
  }
  return t;
}

/**
 * A scan function over the secondary-index entries of `rows` rows (keys 123 bytes = c + id,
 * values 4 bytes = id). Like a clustered-index scan it copies each row's fields into a reused
 * record buffer before handing it on.
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

/** A bulk-load sink that only checks order and counts (stand-in for a B+tree bulk loader). */
export class CountingSink {
  rows = 0;
  #cmpLast = Buffer.alloc(256);
  #lastLen = 0;
  add(key) {
    const k = Buffer.from(key.buffer, key.byteOffset, key.length);
    if (this.rows > 0 && k.compare(this.#cmpLast, 0, this.#lastLen) < 0) throw new Error('out of order');
    k.copy(this.#cmpLast, 0);
    this.#lastLen = k.length;
    this.rows++;
  }
  finish() {
    return this.rows;
  }
}

/** Parse `--rows=N` / `--big` style flags and BENCH_* env vars. */
export function flag(name, fallback) {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (arg !== undefined) return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : 'true';
  const env = process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  return env ?? fallback;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
