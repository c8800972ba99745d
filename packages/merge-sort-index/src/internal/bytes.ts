/** Small byte helpers of the output path. */

/** A plain `Uint8Array` view (not a `Buffer`, whose `slice()` would not copy) of `buf[start, end)`. */
export function view(buf: Buffer, start: number, end: number): Uint8Array {
  return new Uint8Array(buf.buffer, buf.byteOffset + start, end - start);
}

/** A fresh `Uint8Array` holding a copy of `buf[start, end)`. */
export function copyOut(buf: Buffer, start: number, end: number): Uint8Array {
  const n = end - start;
  const out = new Uint8Array(n);
  if (n < 64) for (let i = 0; i < n; i++) out[i] = buf[start + i]!;
  else out.set(view(buf, start, end));
  return out;
}

/** The first 32 bytes of a key in hex, for messages. */
export function hexKey(buf: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end && i < start + 32; i++) out += buf[i]!.toString(16).padStart(2, '0');
  return end - start > 32 ? `${out}…` : out;
}
