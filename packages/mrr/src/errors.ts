/**
 * The MRR buffer cannot hold one entry of a stage it must run. Thrown only with
 * `onBufferTooSmall: 'error'`; by default the scan falls back to the default implementation,
 * as MariaDB does.
 */
export class BufferTooSmallError extends RangeError {
  /** The budget that was given, in bytes. */
  readonly bufferSize: number;
  /** The smallest budget that works for this scan, in bytes. */
  readonly minimum: number;

  constructor(variable: string, bufferSize: number, minimum: number, what: string) {
    super(`${variable} = ${bufferSize} bytes is too small: ${what} needs at least ${minimum} bytes`);
    this.name = 'BufferTooSmallError';
    this.bufferSize = bufferSize;
    this.minimum = minimum;
  }
}
