import { maxFieldBytes } from '@enginekit/btree-sampler';
import type { TableIndex } from './table.js';
import type { ColumnType, StoredColumn } from './types.js';

/** Bytes of the fractional seconds of a temporal type with `fsp` digits (MariaDB's packed formats). */
function fractionBytes(fsp: number): number {
  return Math.ceil(fsp / 2);
}

/**
 * MariaDB's key image length of a column (`Field::key_length` + the NULL byte + the 2 length
 * bytes of a VARCHAR/VARBINARY key part): what EXPLAIN's key_len adds up, and, summed over the
 * primary key, InnoDB's `ref_length`. Text counts 4 bytes a character (utf8mb4).
 */
export function keyLength(type: ColumnType, nullable: boolean): number {
  let n: number;
  switch (type.kind) {
    case 'int':
      n = 4;
      break;
    case 'bigint':
    case 'double':
      n = 8;
      break;
    case 'date':
      n = 3;
      break;
    case 'datetime':
      n = 5 + fractionBytes(type.fsp);
      break;
    case 'timestamp':
      n = 4 + fractionBytes(type.fsp);
      break;
    case 'time':
      n = 3 + fractionBytes(type.fsp);
      break;
    case 'decimal': {
      const bytes = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];
      const intDigits = type.precision - type.scale;
      const part = (d: number): number => Math.floor(d / 9) * 4 + bytes[d % 9]!;
      n = part(intDigits) + part(type.scale);
      break;
    }
    case 'char':
      n = type.length * 4;
      break;
    case 'varchar':
      n = type.length * 4 + 2;
      break;
    case 'binary':
      n = type.length;
      break;
    case 'varbinary':
      n = type.length + 2;
      break;
  }
  return n + (nullable ? 1 : 0);
}

/** `KEY::key_length` of an index's own columns. */
export function indexKeyLength(columns: readonly StoredColumn[], ix: TableIndex): number {
  let n = 0;
  for (const c of ix.columns) {
    const col = columns[c]!;
    n += keyLength(col.type, col.nullable === true);
  }
  return n;
}

/**
 * The most bytes the engine's key image of a column can take (btree-sampler's key format: a tag,
 * then the value; text as its collation weights, at most 4 bytes a character, with the byte
 * string's escapes).
 */
export function keyImageBytes(col: StoredColumn): number {
  const t = col.type;
  switch (t.kind) {
    case 'int':
    case 'date':
      return 5;
    case 'bigint':
    case 'datetime':
    case 'timestamp':
    case 'time':
      return 9;
    case 'decimal':
      return 2 + Math.ceil((t.precision * Math.log2(10)) / 8);
    case 'double':
      return maxFieldBytes(8);
    case 'char':
    case 'varchar':
      return maxFieldBytes(4 * t.length);
    case 'binary':
    case 'varbinary':
      return maxFieldBytes(t.length);
  }
}
