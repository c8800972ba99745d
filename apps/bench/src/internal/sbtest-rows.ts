import { createGenerator } from '@enginekit/prng';

/**
 * sysbench's `sbtest1` for the index-build experiment: id 1..rows, k, c CHAR(120) as ten groups
 * of 11 digits joined by '-' (119 characters), pad CHAR(60) as five such groups. Seeded
 * (xoshiro128**), built once in flat buffers before any timing, and the same rows for the
 * package path, the engine and MariaDB.
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

export function sbtestRows(rows: number, seed: number): SbtestRows {
  const gen = createGenerator('xoshiro128**', { seed });
  const rnd = (): number => gen.nextUint32();
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

export const SBTEST_DDL =
  "CREATE TABLE sbtest1 (id INT NOT NULL, k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))";
