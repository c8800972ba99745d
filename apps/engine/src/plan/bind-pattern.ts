import { obj, tagOf } from '../sql/ast.js';
import { SqlError } from '../sql/errors.js';
import { coerce } from '../exec/convert.js';
import { type SqlType, T_BOOL, T_STR } from '../exec/types.js';
import { stringComparison } from '../exec/compare.js';
import { type Collation, weightText } from '../storage/collation.js';
import { mk } from './bind-expr.js';
import type { Bound } from '../exec/bound.js';
import type { Ev, RunState } from '../exec/scope.js';
import { LikePattern } from '../exec/like.js';

/**
 * Pattern matching: LIKE (`%`, `_`, ESCAPE) anchored at both ends, and REGEXP / RLIKE, which
 * matches anywhere in the string (MariaDB's PCRE; JavaScript's regular expressions agree on the
 * common syntax). Both compile a pattern once per distinct pattern value. Operands of other types
 * are matched as their text.
 */

function stringEv(b: Bound): Ev {
  if (b.t.kind === 'str') return b.ev;
  const ev = b.ev;
  return () => {
    const x = ev();
    return x === null ? null : coerce(x, b.t, T_STR);
  };
}

/** The collation a pattern match folds by (utf8mb4_general_ci), or undefined (by the characters). */
function patternCollation(e: Bound, p: Bound): Collation | undefined {
  const asText = (t: SqlType): SqlType => (t.kind === 'str' ? t : T_STR);
  const c = stringComparison(asText(e.t), asText(p.t)).collation;
  return c === 'utf8mb4_general_ci' ? c : undefined;
}

function foldEv(ev: Ev, coll: Collation | undefined): Ev {
  if (coll === undefined) return ev;
  return () => {
    const x = ev();
    return x === null ? null : weightText(x as string, coll, false);
  };
}

export function bindLike(
  e: Bound,
  p: Bound,
  escNode: unknown,
  negated: boolean,
  text: string,
  ci: boolean,
  run: RunState,
): Bound {
  let esc = '\\';
  if (escNode !== undefined && escNode !== null) {
    const [, ev] = tagOf(obj(escNode).value ?? escNode);
    if (typeof ev === 'string') esc = ev;
  }
  // under a case-insensitive collation both sides match as their weights, character for character
  const coll = patternCollation(e, p);
  const se = foldEv(stringEv(e), coll);
  const pe = foldEv(stringEv(p), coll);
  if (coll !== undefined && esc.length === 1) esc = weightText(esc, coll, false);
  let lastPat: string | undefined;
  let like = new LikePattern('', esc);
  return mk(
    T_BOOL,
    () => {
      const x = se();
      if (x === null) return null;
      const pat = pe();
      if (pat === null) return null;
      if (pat !== lastPat) {
        like = new LikePattern(ci ? (pat as string).toLowerCase() : (pat as string), esc);
        lastPat = pat as string;
      }
      const s = ci ? (x as string).toLowerCase() : (x as string);
      return like.test(s, run.interrupt) !== negated ? 1 : 0;
    },
    [e, p],
    text,
  );
}

/** `e [NOT] REGEXP p`: 1 when the pattern matches somewhere in the string. */
export function bindRegexp(e: Bound, p: Bound, negated: boolean, text: string, ci: boolean): Bound {
  ci ||= patternCollation(e, p) === 'utf8mb4_general_ci';
  const se = stringEv(e);
  const pe = stringEv(p);
  let lastPat: string | undefined;
  let re: RegExp = /$^/;
  return mk(
    T_BOOL,
    () => {
      const s = se();
      if (s === null) return null;
      const pat = pe();
      if (pat === null) return null;
      if (pat !== lastPat) {
        try {
          re = new RegExp(pat as string, ci ? 'iu' : 'u');
        } catch (err) {
          throw new SqlError('ER_REGEXP_ERROR', `Got error '${(err as Error).message}' from regexp`);
        }
        lastPat = pat as string;
      }
      return re.test(s as string) !== negated ? 1 : 0;
    },
    [e, p],
    text,
  );
}
