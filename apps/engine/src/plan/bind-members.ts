import type { Bound } from '../exec/bound.js';
import { memberNumber } from '../exec/members.js';
import { isNumeric, T_INT, T_UINT } from '../exec/types.js';
import { hexNumber } from '../exec/convert.js';
import { literal, mk, normU64 } from './bind-expr.js';

/**
 * `b` as MySQL reads it where it wants a number: an ENUM column's value is its member's position
 * (from 1; 0 for the empty string), a SET column's the bit mask of its members, a 0x… literal
 * its bytes' unsigned integer; any other `b` is itself. Arithmetic, CAST to a number, SUM and AVG, ORDER BY and a comparison with a number read
 * through it.
 */
export function asNumber(b: Bound): Bound {
  // a 0x… literal is its bytes' unsigned integer (MariaDB's hex hybrid)
  if (b.t.hex === true && b.lit !== undefined && b.lit.v !== null)
    return literal(T_UINT, normU64(hexNumber(b.lit.v as string)), b.text);
  const members = b.t.members;
  if (members === undefined) return b;
  const set = b.t.set === true;
  const ev = b.ev;
  return mk(
    set ? T_UINT : T_INT,
    () => {
      const v = ev();
      return v === null ? null : memberNumber(v as string, members, set);
    },
    [b],
    b.text,
  );
}

/** Both sides of a comparison: an ENUM or SET compared with a number is compared by its number. */
export function comparedAsNumbers(l: Bound, r: Bound): [Bound, Bound] {
  if (l.t.members !== undefined && isNumeric(r.t)) return [asNumber(l), r];
  if (r.t.members !== undefined && isNumeric(l.t)) return [l, asNumber(r)];
  return [l, r];
}
