/**
 * An upper bound on `v8.serialize(row).length` for a row of SQL values, computed without
 * serializing, so a filesort can tell that its rows would fit the sort buffer before paying for
 * the serialization. The bound follows V8's ValueSerializer format (src/objects/value-serializer.cc,
 * `WriteObject` and friends, wire format version 15):
 *
 * | item | bytes |
 * |---|---|
 * | header | 0xFF, version (2) |
 * | dense array | 'A', varint length … '$', varint 0 (properties), varint length |
 * | null, undefined, true, false | 1 tag byte |
 * | Smi | 'I' + zigzag varint (≤ 5) |
 * | heap number | 'N' + 8 |
 * | one-byte string | '"' + varint bytes + bytes |
 * | two-byte string | optional padding byte 0x00 + 'c' + varint bytes + 2 × length |
 * | BigInt | 'Z' + varint bitfield + 8 × 64-bit digits |
 *
 * A string is counted as two-byte (whichever form V8 holds it in), a number as a heap number.
 * Anything else (objects, nested arrays, typed arrays) gives +Infinity: the caller then
 * serializes for real. A pinned test checks the bound against `serialize` itself.
 */

/** Bytes of a base-128 varint of `n` (n ≥ 0). */
function varintBytes(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

const U64 = 0xffff_ffff_ffff_ffffn;

/** Upper bound on the serialized size of one value; +Infinity when not a plain SQL value. */
function valueBound(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return 9;
    case 'string': {
      const bytes = 2 * v.length;
      return 2 + varintBytes(bytes) + bytes;
    }
    case 'bigint': {
      if (v >= -U64 && v <= U64) return 2 + 8;
      const digits = Math.ceil((v < 0n ? -v : v).toString(16).length / 16);
      return 1 + varintBytes(digits * 16 + 1) + 8 * digits;
    }
    case 'boolean':
    case 'undefined':
      return 1;
    default:
      return v === null ? 1 : Number.POSITIVE_INFINITY;
  }
}

/** Upper bound on `v8.serialize(row).length`; +Infinity when a value is not a plain SQL value. */
export function serializedSizeBound(row: readonly unknown[]): number {
  const n = row.length;
  let size = 2 + 1 + varintBytes(n) + 1 + 1 + varintBytes(n);
  for (let i = 0; i < n; i++) size += valueBound(row[i]);
  return size;
}
