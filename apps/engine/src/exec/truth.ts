import type { Bound } from './bound.js';
import { toDouble } from './convert.js';
import { compileNum } from './scaled.js';

/** MySQL truth of a value: NULL is unknown, numbers are true when non-zero, strings as doubles. */
export function truthOf(b: Bound): () => boolean | null {
  if (b.truth !== undefined) return b.truth;
  const ev = b.ev;
  const num = b.num === undefined ? undefined : compileNum(b.num);
  switch (b.t.kind) {
    case 'int':
      return () => {
        const x = ev();
        return x === null ? null : x !== 0 && x !== 0n;
      };
    case 'dec':
      if (num !== undefined)
        return () => {
          const n = num();
          if (!Number.isNaN(n)) return n !== 0;
          const x = ev();
          return x === null ? null : x !== 0n;
        };
      return () => {
        const x = ev();
        return x === null ? null : x !== 0n;
      };
    case 'dbl':
    case 'date':
    case 'datetime':
    case 'time':
      return () => {
        const x = ev();
        return x === null ? null : x !== 0;
      };
    case 'null':
      return () => null;
    default:
      return () => {
        const x = ev();
        return x === null ? null : toDouble(x, 'str') !== 0;
      };
  }
}
