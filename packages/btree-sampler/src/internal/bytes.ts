/** Big-endian integer helpers for the page format, as InnoDB writes its integers. */

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
