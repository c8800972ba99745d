/** Argument checks; each error names the argument and the value. */

export function checkBufferSize(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer number of bytes, got ${String(value)}`);
  }
  if (value < min || value > 2 ** 31) {
    throw new RangeError(`${name} must be in [${min}, 2^31] bytes, got ${value}`);
  }
  return value;
}

export function checkFunction(name: string, value: unknown): void {
  if (typeof value !== 'function') throw new TypeError(`${name} must be a function, got ${String(value)}`);
}

export function checkSource(name: string, value: unknown): void {
  const v = value as { rewind?: unknown; next?: unknown } | null;
  if (typeof v !== 'object' || v === null || typeof v.rewind !== 'function' || typeof v.next !== 'function') {
    throw new TypeError(`${name} must be a RowSource with rewind() and next(), got ${String(value)}`);
  }
}

export function checkJoinType(value: unknown): void {
  if (value !== 'inner' && value !== 'left' && value !== 'semi' && value !== 'anti') {
    throw new RangeError(`type must be 'inner', 'left', 'semi' or 'anti', got ${String(value)}`);
  }
}
