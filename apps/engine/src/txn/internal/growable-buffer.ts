/**
 * Growable SharedArrayBuffers (ES2024; Node 20 has them, the TypeScript library the project
 * targets does not declare them yet): `new SharedArrayBuffer(n, { maxByteLength })`, `growable`,
 * `grow(n)`. A view made without a length tracks the buffer's length on every thread.
 */
interface Growable {
  readonly growable: boolean;
  readonly maxByteLength: number;
  grow(byteLength: number): void;
}

const Ctor = SharedArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => SharedArrayBuffer;

export function growableBuffer(byteLength: number, maxByteLength: number): SharedArrayBuffer {
  return new Ctor(byteLength, { maxByteLength });
}

export function isGrowable(b: SharedArrayBuffer): boolean {
  return (b as unknown as Growable).growable === true;
}

export function growBuffer(b: SharedArrayBuffer, byteLength: number): void {
  (b as unknown as Growable).grow(byteLength);
}
