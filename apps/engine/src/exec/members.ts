/**
 * ENUM and SET columns as MySQL defines them, kept as text: a column is stored as a VARCHAR
 * holding its value's canonical text (an ENUM's member as declared; a SET's members in declaration
 * order, joined by commas), and its declared type (`enum('a','b')`, `set('x','y')`) carries the
 * members. Where MySQL reads the value as a number (arithmetic, comparison with a number, SUM,
 * ORDER BY) it is the member's position from 1 (ENUM; 0 for the empty string) or the bit mask of
 * its members (SET: bit i for the (i+1)-th member); elsewhere it is the text.
 */

/** Members of a declared `enum(…)` or `set(…)` type text, or undefined for any other type. */
export function declaredMembers(
  declared: string | undefined,
): { members: string[]; set: boolean } | undefined {
  if (declared === undefined) return undefined;
  const m = /^(enum|set)\((.*)\)$/s.exec(declared);
  if (m === null) return undefined;
  const members: string[] = [];
  const body = m[2]!;
  let i = 0;
  while (i < body.length) {
    if (body[i] !== "'") throw new RangeError(`bad member list in ${declared}`);
    let s = '';
    i++;
    for (;;) {
      if (i >= body.length) throw new RangeError(`bad member list in ${declared}`);
      if (body[i] === "'") {
        if (body[i + 1] === "'") {
          s += "'";
          i += 2;
          continue;
        }
        i++;
        break;
      }
      s += body[i++];
    }
    members.push(s);
    if (body[i] === ',') i++;
  }
  return { members, set: m[1] === 'set' };
}

/** The declared type text of members: `enum('a','it''s')`. */
export function membersText(kind: 'enum' | 'set', members: readonly string[]): string {
  return `${kind}(${members.map((x) => `'${x.replaceAll("'", "''")}'`).join(',')})`;
}

/** The number MySQL reads an ENUM or SET value as (position from 1, or bit mask; 0 when unknown). */
export function memberNumber(v: string, members: readonly string[], set: boolean): number | bigint {
  if (!set) return members.indexOf(v) + 1;
  if (v === '') return 0;
  let n = 0n;
  for (const part of v.split(',')) {
    const i = members.indexOf(part);
    if (i >= 0) n |= 1n << BigInt(i);
  }
  return Number.isSafeInteger(Number(n)) ? Number(n) : n;
}
