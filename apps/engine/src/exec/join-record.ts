import type { Source } from './scope.js';
import type { ColumnType } from '../storage/types.js';

/**
 * The length of a join-buffer record as MariaDB writes it (`JOIN_CACHE::write_record_data`,
 * sql_join_cache.cc), for charging a BKA buffer the bytes MariaDB's would take:
 *
 * 1. the record's length (key access always keeps it), `offset_size` of the longest record;
 * 2. an incremental buffer's link to the previous buffer's record, `offset_size` of that buffer;
 * 3. flags: the match flag of an outer join's inner table, each table's NULL bitmap
 *    (`null_bytes`, when it has nullable columns), a NULL-row flag for an outer join's inner table;
 * 4. each used column that is not NULL: fixed types at their image length, CHAR with its trailing
 *    spaces stripped after a 2-byte length, VARCHAR / VARBINARY after a 1- or 2-byte length.
 *
 * A flat buffer holds the columns of every table before the stage; an incremental one only those
 * of the table just before it (the rest is reached through the link). Offsets of fields that a
 * later buffer's key reads from an earlier record are not charged.
 */
export interface JoinRecordLength {
  /** Bytes the record of the current partial row (`frame.v`) takes. */
  readonly bytes: (v: readonly unknown[]) => number;
  /** The longest record (MariaDB's `pack_length`). */
  readonly maxBytes: number;
}

/** `offset_size(n)`: bytes of an offset or length below `n`. */
export function offsetSize(n: number): number {
  return n < 256 ? 1 : n < 65536 ? 2 : 4;
}

/** How one column is put down. */
const FIXED = 0;
const STRIPPED = 1; // CHAR: 2-byte length + value without trailing spaces
const VAR1 = 2; // VARCHAR / VARBINARY, 1-byte length
const VAR2 = 3; // 2-byte length

function decimalImage(precision: number, scale: number): number {
  const bytes = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
  const part = (d: number): number => Math.floor(d / 9) * 4 + bytes[d % 9]!;
  return part(precision - scale) + part(scale);
}

/** MariaDB's field image: [how, longest bytes]. */
function fieldImage(t: ColumnType): [number, number] {
  switch (t.kind) {
    case 'int':
      return [FIXED, 4];
    case 'bigint':
    case 'double':
      return [FIXED, 8];
    case 'date':
      return [FIXED, 3];
    case 'decimal':
      return [FIXED, decimalImage(t.precision, t.scale)];
    case 'datetime':
      return [FIXED, 5 + Math.ceil(t.fsp / 2)];
    case 'timestamp':
      return [FIXED, 4 + Math.ceil(t.fsp / 2)];
    case 'time':
      return [FIXED, 3 + Math.ceil(t.fsp / 2)];
    case 'char':
      return [STRIPPED, 2 + t.length * 4];
    case 'binary':
      return [STRIPPED, 2 + t.length];
    case 'varchar': {
      const max = t.length * 4;
      return [max < 256 ? VAR1 : VAR2, (max < 256 ? 1 : 2) + max];
    }
    case 'varbinary':
      return [t.length < 256 ? VAR1 : VAR2, (t.length < 256 ? 1 : 2) + t.length];
  }
}

/** UTF-8 bytes of a frame's text value (a binary string holds one byte per character). */
function textBytes(x: unknown, binary: boolean, strip: boolean): number {
  if (typeof x === 'string') {
    let end = x.length;
    if (strip) while (end > 0 && x.charCodeAt(end - 1) === 32) end--;
    if (binary) return end;
    let n = end;
    for (let i = 0; i < end; i++) {
      const c = x.charCodeAt(i);
      if (c >= 0x80) n += c >= 0x800 ? (c >= 0xd800 && c < 0xdc00 ? 1 : 2) : 1;
    }
    return n;
  }
  if (x instanceof Uint8Array) {
    let end = x.length;
    if (strip) while (end > 0 && x[end - 1] === 32) end--;
    return end;
  }
  return String(x).length;
}

/**
 * The record length of the join buffer of the table at position `k` of `sources` (the join
 * order). `incremental`: the buffer links to position k − 1's buffer, whose offsets are
 * `offset_size` of `join_buffer_size` (MariaDB's `size_of_rec_ofs`, fixed before any shrinking).
 * `matchFlag`: the table is an outer join's inner table.
 */
export function joinRecordLength(
  sources: readonly Source[],
  k: number,
  incremental: boolean,
  joinBufferSize: number,
  matchFlag: boolean,
): JoinRecordLength {
  const first = incremental ? k - 1 : 0;
  const slots: number[] = [];
  const how: number[] = [];
  const binary: boolean[] = [];
  let fixed = 0; // bytes every record has
  let maxData = 0;
  let fields = 0;
  for (let j = first; j < k; j++) {
    const src = sources[j]!;
    const table = src.table;
    if (table !== undefined) {
      const nulls = table.columns.filter((c) => c.nullable === true).length;
      if (nulls > 0) {
        fixed += Math.ceil(nulls / 8);
        fields++;
      }
    }
    if (src.joinType === 'left') {
      fixed += 1; // the NULL-row flag
      fields++;
    }
    for (const c of [...src.used].sort((a, b) => a - b)) {
      const col = src.columns[c];
      if (col === undefined) continue;
      const stored = table?.columns[c]?.type;
      const [h, max] =
        stored !== undefined
          ? fieldImage(stored)
          : col.t.kind === 'str'
            ? [VAR2, 2 + (col.t.len ?? 255) * 4]
            : [FIXED, 8];
      slots.push(src.offset + c);
      how.push(h);
      binary.push(col.t.kind === 'str' && col.t.binary === true);
      maxData += max;
      fields++;
    }
  }
  if (matchFlag) {
    fixed += 1;
    fields++;
  }
  const link = incremental ? offsetSize(joinBufferSize) : 0;
  // JOIN_CACHE::set_constants: the bound the length field must hold
  const lengthField = offsetSize(maxData + fixed + 4 * fields + link + 8);
  const prefix = lengthField + link + fixed;
  const n = slots.length;
  const fixedSize = Int32Array.from(how, (h, i) => (h === FIXED ? fieldImageLength(sources, slots[i]!) : 0));
  return {
    maxBytes: prefix + maxData,
    bytes: (v) => {
      let b = prefix;
      for (let i = 0; i < n; i++) {
        const x = v[slots[i]!];
        // a NULL value is in the NULL bitmap only
        if (x === null || x === undefined) continue;
        const h = how[i]!;
        if (h === FIXED) b += fixedSize[i]!;
        else b += (h === VAR1 ? 1 : 2) + textBytes(x, binary[i]!, h === STRIPPED);
      }
      return b;
    },
  };
}

/** The fixed image length of the column at frame slot `slot`. */
function fieldImageLength(sources: readonly Source[], slot: number): number {
  for (const src of sources) {
    if (slot < src.offset || slot >= src.offset + src.columns.length) continue;
    const stored = src.table?.columns[slot - src.offset]?.type;
    return stored !== undefined ? fieldImage(stored)[1] : 8;
  }
  return 8;
}
