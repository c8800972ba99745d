/** The bulk loader was fed a key that is not strictly greater than the previous one. */
export class OutOfOrderError extends Error {
  override readonly name: string = 'OutOfOrderError';
}
