import { fieldEnd, TAG_BYTES, TAG_NULL_FIRST, TAG_NULL_LAST } from '@enginekit/btree-sampler';
import type { Frame, Source } from './scope.js';
import { K_BIGINT, K_DATE, K_DECIMAL, K_DOUBLE, K_INT, K_UBIGINT } from '../storage/row.js';
import { unsignedFromKey } from '../storage/row-key.js';
import type { TableIndex } from '../storage/table.js';

const DECODER = new TextDecoder();
const DOUBLE = new Float64Array(1);
const DOUBLE_BYTES = new Uint8Array(DOUBLE.buffer);
const TWO_32 = 2 ** 32;

/**
 * Decodes the fields of an index entry (as the tree stores it: the index columns, then the
 * primary-key columns it carries) into a frame at a source's offset, for the columns in `wanted`
 * only, in the values `rowDecoder` gives for the same columns of the row: numbers for INT, DATE
 * (days) and safe BIGINTs, a DECIMAL's scaled integer as a number up to six magnitude bytes (else
 * a bigint), wide BIGINTs as bigints, strings for text. This is what an index condition and a
 * covering read see instead of the row.
 */
export function entryDecoder(
  src: Source,
  ix: TableIndex,
  frame: Frame,
  wanted: ReadonlySet<number>,
): (b: Uint8Array, ko: number, kl: number) => void {
  const kinds = src.table!.codec.kinds;
  const cols = Int32Array.from(ix.entryColumns);
  // the last entry field anything needs: decoding stops there
  let last = -1;
  for (let f = 0; f < cols.length; f++) if (wanted.has(cols[f]!)) last = f;
  const want = Uint8Array.from(cols, (c) => (wanted.has(c) ? 1 : 0));
  const fieldKinds = Uint8Array.from(cols, (c) => kinds[c]!);
  const off = src.offset;
  return (b, ko, kl) => {
    const v = frame.v;
    const end = ko + kl;
    let p = ko;
    for (let f = 0; f <= last; f++) {
      const next = fieldEnd(b, p, end);
      if (want[f] === 1) v[off + cols[f]!] = fieldValue(b, p, next, fieldKinds[f]!);
      p = next;
    }
  };
}

/** One key field `b[p, next)` as a frame value of a column of kind `kind`. */
function fieldValue(b: Uint8Array, p: number, next: number, kind: number): unknown {
  const tag = b[p]!;
  if (tag === TAG_NULL_FIRST || tag === TAG_NULL_LAST) return null;
  switch (kind) {
    case K_INT:
    case K_DATE:
      return (((b[p + 1]! << 24) | (b[p + 2]! << 16) | (b[p + 3]! << 8) | b[p + 4]!) ^ 0x80000000) | 0;
    case K_BIGINT: {
      const hi = (((b[p + 1]! << 24) | (b[p + 2]! << 16) | (b[p + 3]! << 8) | b[p + 4]!) ^ 0x80000000) | 0;
      const lo = ((b[p + 5]! << 24) | (b[p + 6]! << 16) | (b[p + 7]! << 8) | b[p + 8]!) >>> 0;
      const n = hi * TWO_32 + lo;
      return Number.isSafeInteger(n) ? n : (BigInt(hi) << 32n) | BigInt(lo);
    }
    case K_UBIGINT: {
      // BIGINT UNSIGNED: the key holds v − 2^63 (storage/row-key.ts)
      const hi = (((b[p + 1]! << 24) | (b[p + 2]! << 16) | (b[p + 3]! << 8) | b[p + 4]!) ^ 0x80000000) | 0;
      const lo = ((b[p + 5]! << 24) | (b[p + 6]! << 16) | (b[p + 7]! << 8) | b[p + 8]!) >>> 0;
      return unsignedFromKey((BigInt(hi) << 32n) | BigInt(lo));
    }
    case K_DECIMAL: {
      // magnitude bytes, big-endian (complemented when negative): up to six fit a safe integer,
      // which lands as a number as rowDecoder leaves a stored DECIMAL; longer ones as a bigint
      const neg = b[p + 1]! < 0x80;
      if (next - p - 2 <= 6) {
        let m = 0;
        for (let j = p + 2; j < next; j++) m = m * 256 + (neg ? ~b[j]! & 0xff : b[j]!);
        return neg ? -m : m;
      }
      let mag = 0n;
      for (let j = p + 2; j < next; j++) mag = (mag << 8n) | BigInt(neg ? ~b[j]! & 0xff : b[j]!);
      return neg ? -mag : mag;
    }
    case K_DOUBLE: {
      // a byte-string field holding the 8 order-preserving bytes of doubleKeyBytes
      const x = readBytes(b, p, next);
      const neg = (x[0]! & 0x80) === 0;
      for (let i = 0; i < 8; i++) {
        const byte = x[i]!;
        DOUBLE_BYTES[7 - i] = neg ? ~byte & 0xff : i === 0 ? byte ^ 0x80 : byte;
      }
      return DOUBLE[0]!;
    }
    default: {
      if (tag !== TAG_BYTES) throw new RangeError(`index field tag 0x${tag.toString(16)} is not text`);
      // no escaped zero byte: decode the field's bytes in place
      let plain = true;
      for (let j = p + 1; j < next - 2; j++)
        if (b[j] === 0) {
          plain = false;
          break;
        }
      return DECODER.decode(plain ? b.subarray(p + 1, next - 2) : readBytes(b, p, next));
    }
  }
}

/** The payload of a byte-string field with its zero-byte escapes undone. */
function readBytes(b: Uint8Array, p: number, next: number): Uint8Array {
  const out: number[] = [];
  for (let j = p + 1; j < next - 2; j++) {
    out.push(b[j]!);
    if (b[j] === 0) j++;
  }
  return Uint8Array.from(out);
}
