import { type Collation, DEFAULT_COLLATION, weightText } from '../storage/collation.js';
import { type SqlType, T_STR } from './types.js';
import type { Bound } from './bound.js';

/**
 * Strings grouped, sorted, deduplicated and hashed by their collation: the key of a value is its
 * weight string (storage/collation.ts), so `'a'` and `'A'` are one group under utf8mb4_general_ci.
 * A column keeps its collation; an expression without one takes the default (utf8mb4_general_ci);
 * binary strings and the text of tables without a collation are keyed by their bytes.
 */

/** The collation values of type `t` are keyed by, or undefined (by the value itself). */
export function keyCollation(t: SqlType): Collation | undefined {
  if (t.kind !== 'str' || t.collation === 'bytes' || t.binary === true) return undefined;
  return t.collation ?? DEFAULT_COLLATION;
}

/** The type of a key made by {@link keyBound}: strings compared by their bytes. */
const KEY_TYPE: SqlType = { ...T_STR, collation: 'bytes' };

/** `b` as a grouping / sorting key: its weight string when it is collated text, else itself. */
export function keyBound(b: Bound): Bound {
  const coll = keyCollation(b.t);
  if (coll === undefined) return b;
  const ev = b.ev;
  return {
    t: KEY_TYPE,
    ev: () => {
      const x = ev();
      return x === null ? null : weightText(x as string, coll);
    },
    refs: b.refs,
    outer: b.outer,
    agg: b.agg,
    text: b.text,
  };
}

/** A value's key under type `t` (its weight string for collated text). */
export function keyValueOf(v: unknown, t: SqlType): unknown {
  const coll = keyCollation(t);
  return coll === undefined || v === null ? v : weightText(v as string, coll);
}
