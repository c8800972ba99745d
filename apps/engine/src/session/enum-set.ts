// Declaring ENUM and SET members and writing values to such columns (exec/members.ts has how
// they are kept and read).
import { type Collation, weightText } from '../storage/collation.js';
import { SqlError } from '../sql/errors.js';

/**
 * The members of a CREATE TABLE's ENUM or SET, checked as MariaDB: trailing spaces dropped, a
 * duplicate under the column's collation is 1291, a SET member with a comma 1367, more than 64
 * SET members 1097.
 */
export function checkedMembers(
  kind: 'enum' | 'set',
  raw: readonly string[],
  column: string,
  collation: Collation,
): string[] {
  const members = raw.map((x) => x.replace(/ +$/, ''));
  if (kind === 'set' && members.length > 64)
    throw new SqlError('ER_TOO_BIG_SET', `Too many strings for column ${column} and SET`);
  const seen = new Map<string, string>();
  for (const x of members) {
    if (kind === 'set' && x.includes(','))
      throw new SqlError('ER_ILLEGAL_VALUE_FOR_TYPE', `Illegal set '${x}' value found during parsing`);
    const w = weightText(x, collation);
    const first = seen.get(w);
    if (first !== undefined)
      throw new SqlError(
        'ER_DUPLICATED_VALUE_IN_TYPE',
        `Column '${column}' has duplicated value '${first}' in ${kind.toUpperCase()}`,
      );
    seen.set(w, x);
  }
  return members;
}

/**
 * A value written to an ENUM or SET column as its stored text: a string names members (compared
 * under the collation), a number is a position (ENUM, from 1) or a bit mask (SET). Anything else
 * is error 1265 (`Data truncated`), as MariaDB in strict mode.
 */
export function memberText(
  v: string | number | bigint,
  members: readonly string[],
  set: boolean,
  collation: Collation,
  column: string,
  rowNo: number,
  lenient?: () => void,
): string {
  // strict mode's error 1265; outside it `lenient` warns and the value is kept as far as it is
  // known (an ENUM's is '', a SET's the members it names)
  const truncated = (): SqlError | undefined => {
    if (lenient === undefined)
      return new SqlError('WARN_DATA_TRUNCATED', `Data truncated for column '${column}' at row ${rowNo}`);
    lenient();
    return undefined;
  };
  const fail = (): string => {
    const e = truncated();
    if (e !== undefined) throw e;
    return '';
  };
  if (typeof v !== 'string') {
    const n = BigInt(v);
    if (!set) {
      if (n < 1n || n > BigInt(members.length)) return fail();
      return members[Number(n) - 1]!;
    }
    if (n < 0n || n >= 1n << BigInt(members.length)) {
      fail();
      const known = n < 0n ? 0n : n & ((1n << BigInt(members.length)) - 1n);
      return members.filter((_, i) => ((known >> BigInt(i)) & 1n) === 1n).join(',');
    }
    return members.filter((_, i) => ((n >> BigInt(i)) & 1n) === 1n).join(',');
  }
  const find = (s: string): number => {
    const w = weightText(s, collation);
    return members.findIndex((x) => weightText(x, collation) === w);
  };
  if (!set) {
    const i = find(v);
    if (i < 0) return fail();
    return members[i]!;
  }
  if (v === '') return '';
  const on = new Set<number>();
  let unknown = false;
  for (const part of v.split(',')) {
    const i = find(part);
    if (i < 0) unknown = true;
    else on.add(i);
  }
  if (unknown) fail();
  return members.filter((_, i) => on.has(i)).join(',');
}
