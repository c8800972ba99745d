/** Byte helpers shared by the page, the codec and the estimators. Big-endian, as InnoDB. */

/** memcmp order of a[aOff, aOff+aLen) and b[bOff, bOff+bLen); a shorter prefix sorts first. */
export function compareRange(
  a: Uint8Array,
  aOff: number,
  aLen: number,
  b: Uint8Array,
  bOff: number,
  bLen: number,
): number {
  const n = Math.min(aLen, bLen);
  for (let i = 0; i < n; i++) {
    const d = a[aOff + i]! - b[bOff + i]!;
    if (d !== 0) return d;
  }
  return aLen - bLen;
}

export function readU16(b: Uint8Array, off: number): number {
  return (b[off]! << 8) | b[off + 1]!;
}

export function writeU16(b: Uint8Array, off: number, v: number): void {
  b[off] = v >>> 8;
  b[off + 1] = v & 0xff;
}

export function readU32(b: Uint8Array, off: number): number {
  return ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) >>> 0;
}

export function writeU32(b: Uint8Array, off: number, v: number): void {
  b[off] = v >>> 24;
  b[off + 1] = (v >>> 16) & 0xff;
  b[off + 2] = (v >>> 8) & 0xff;
  b[off + 3] = v & 0xff;
}
