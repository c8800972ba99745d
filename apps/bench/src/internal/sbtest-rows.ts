import { createGenerator } from '@enginekit/prng';

/**
 * sysbench's `sbtest1`, the one builder of it for every experiment and micro benchmark: id
 * 1..rows, k uniform in 1..rows, c CHAR(120) as ten groups of 11 digits joined by '-' (119
 * characters), pad CHAR(60) as five such groups, as sysbench's oltp_common.lua makes them.
 * Seeded, built once in flat buffers before any timing, and the same rows for every engine that
 * loads them. Also the deterministic, unseeded fill of the server micro benchmarks
 * ({@link sbtestPatternInserts}).
 */
export const C_LENGTH = 119;
const PAD_LENGTH = 59;

export interface SbtestRows {
  readonly rows: number;
  readonly k: Int32Array;
  readonly c: Uint8Array;
  readonly pad: Uint8Array;
}

function digits(out: Uint8Array, p: number, groups: number, rnd: () => number): number {
  for (let g = 0; g < groups; g++) {
    if (g > 0) out[p++] = 0x2d;
    for (let d = 0; d < 11; d++) out[p++] = 0x30 + (rnd() % 10);
  }
  return p;
}

/**
 * xorshift32 (Marsaglia 2003, shifts 13, 17, 5) from `seed`: the generator of the engine's micro
 * benchmarks, whose figures were taken with it (the same rows and the same query ids since).
 */
export function xorshift32(seed = 0x9e3779b9): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
}

/**
 * `rows` rows from a seed (xoshiro128**) or from a generator of 32-bit values (the caller may go
 * on drawing from it, as the micro benchmarks draw their query ids). Per row: k, c's digits,
 * then pad's.
 */
export function sbtestRows(rows: number, seed: number | (() => number)): SbtestRows {
  let rnd: () => number;
  if (typeof seed === 'number') {
    const gen = createGenerator('xoshiro128**', { seed });
    rnd = () => gen.nextUint32();
  } else rnd = seed;
  const k = new Int32Array(rows);
  const c = new Uint8Array(rows * C_LENGTH);
  const pad = new Uint8Array(rows * PAD_LENGTH);
  for (let i = 0, pc = 0, pp = 0; i < rows; i++) {
    k[i] = 1 + (rnd() % rows);
    pc = digits(c, pc, 10, rnd);
    pp = digits(pad, pp, 5, rnd);
  }
  return { rows, k, c, pad };
}

/**
 * The idx_c entries in table (primary key) order, as a scan hands them on: key = c's 119 bytes +
 * the 4-byte id big-endian (memcmp order is (c, id) order), value = the id; one reused buffer.
 */
export function idxCEntries(t: SbtestRows): (emit: (key: Uint8Array, value: Uint8Array) => void) => void {
  return (emit) => {
    const key = new Uint8Array(C_LENGTH + 4);
    const kv = new DataView(key.buffer);
    const value = new Uint8Array(4);
    const vv = new DataView(value.buffer);
    for (let i = 0, off = 0; i < t.rows; i++, off += C_LENGTH) {
      key.set(t.c.subarray(off, off + C_LENGTH));
      kv.setUint32(C_LENGTH, i + 1);
      vv.setUint32(0, i + 1);
      emit(key, value);
    }
  };
}

const latin1 = new TextDecoder('latin1');

/** Row `i` (0-based) as values for a prepared INSERT: [id, k, c, pad]. */
export function sbtestRow(t: SbtestRows, i: number): [number, number, string, string] {
  return [
    i + 1,
    t.k[i] as number,
    latin1.decode(t.c.subarray(i * C_LENGTH, (i + 1) * C_LENGTH)),
    latin1.decode(t.pad.subarray(i * PAD_LENGTH, (i + 1) * PAD_LENGTH)),
  ];
}

/** INSERT statements of `batch` rows each (the rows as SQL literals; the text is ASCII). */
export function* sbtestInserts(t: SbtestRows, batch: number): Generator<string> {
  const dec = new TextDecoder('latin1');
  for (let i = 0; i < t.rows; i += batch) {
    const parts: string[] = [];
    for (let j = i; j < Math.min(t.rows, i + batch); j++) {
      const c = dec.decode(t.c.subarray(j * C_LENGTH, (j + 1) * C_LENGTH));
      const pad = dec.decode(t.pad.subarray(j * PAD_LENGTH, (j + 1) * PAD_LENGTH));
      parts.push(`(${j + 1},${t.k[j]},'${c}','${pad}')`);
    }
    yield `INSERT INTO sbtest1 (id, k, c, pad) VALUES ${parts.join(',')}`;
  }
}

/** sbtest1 without its secondary index, for loads that build k_1 after the rows ({@link SBTEST_INDEX}). */
export const SBTEST_TABLE =
  "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id))";
export const SBTEST_INDEX = 'CREATE INDEX k_1 ON sbtest1 (k)';

/** The VARCHAR sbtest1 of the server micro benchmarks' deterministic fill. */
export const SBTEST_PATTERN_TABLE =
  'CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT, c VARCHAR(120), pad VARCHAR(60))';

/**
 * INSERTs of 1,000 rows each for {@link SBTEST_PATTERN_TABLE}, no generator: id j+1, k spread
 * by a multiplier (j·7919 mod rows), c the row number zero-padded to 10 digits repeated 11 times
 * (110 characters), pad 59 × 'p'.
 */
export function* sbtestPatternInserts(rows: number): Generator<string> {
  for (let i = 0; i < rows; i += 1000) {
    const vals: string[] = [];
    for (let j = i; j < Math.min(rows, i + 1000); j++)
      vals.push(
        `(${j + 1}, ${(j * 7919) % rows}, '${String(j).padStart(10, '0').repeat(11)}', '${'p'.repeat(59)}')`,
      );
    yield `INSERT INTO sbtest1 VALUES ${vals.join(',')}`;
  }
}

export const SBTEST_DDL =
  "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))";
