// LikePattern (exec/like.ts) against a reference: LIKE as an anchored regular expression (`%` any
// run, `_` one code point, the escape character quoting the next), over random patterns and
// strings of a small alphabet with a surrogate pair in it; then the statement's interrupt reaches
// a match that would take hours, and the SQL operator keeps MySQL's answers.
import { describe, expect, it } from 'vitest';
import { Interrupt, KILL_NONE, KILL_QUERY, NEVER } from '../../src/exec/interrupt.js';
import { LikePattern } from '../../src/exec/like.js';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

function reference(pattern: string, esc: string): RegExp {
  let out = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === esc && i + 1 < chars.length) out += quote(chars[++i]!);
    else if (c === '%') out += '[\\s\\S]*';
    else if (c === '_') out += '[\\s\\S]';
    else out += quote(c);
  }
  return new RegExp(`^${out}$`, 'u');
}

function quote(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LikePattern', () => {
  it('agrees with the regular-expression reference on 20,000 random cases', () => {
    const r = rng(7);
    const text = ['a', 'b', '😀', 'c'];
    const pat = ['a', 'b', '😀', '%', '%', '_', '\\', 'c'];
    const pick = (xs: string[], n: number): string => {
      let s = '';
      for (let i = 0; i < n; i++) s += xs[Math.floor(r() * xs.length)]!;
      return s;
    };
    let matches = 0;
    for (let k = 0; k < 20_000; k++) {
      const p = pick(pat, Math.floor(r() * 7));
      const s = pick(text, Math.floor(r() * 9));
      const want = reference(p, '\\').test(s);
      const got = new LikePattern(p, '\\').test(s, NEVER);
      if (got !== want) throw new Error(`'${s}' LIKE '${p}': ${got}, the reference says ${want}`);
      if (want) matches++;
    }
    // both outcomes are exercised
    expect(matches).toBeGreaterThan(2000);
    expect(matches).toBeLessThan(18_000);
  });

  it('a pattern that backtracks for hours in a regular expression answers at once', () => {
    const s = 'a'.repeat(1 << 16);
    const t0 = performance.now();
    expect(new LikePattern('%a%a%a%a%a%a%a%a%b', '\\').test(s, NEVER)).toBe(false);
    expect(new LikePattern('%a%a%a%a%a%a%a%a%', '\\').test(s, NEVER)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('polls the interrupt while it searches, and stops with 1317', () => {
    let word = KILL_NONE;
    const s = 'a'.repeat(1 << 20);
    const like = new LikePattern(`%${'a_'.repeat(20_000)}b%`, '\\');
    let polls = 0;
    const counting = new Interrupt(() => {
      polls++;
      // KILL QUERY arrives after the matcher has looked 50 times
      if (polls === 50) word = KILL_QUERY;
      return word;
    });
    expect(() => like.test(s, counting)).toThrow(expect.objectContaining({ errno: 1317, sqlState: '70100' }));
    expect(polls).toBe(50);
  });

  it('max_statement_time: the deadline ends the match with 1969', () => {
    const interrupt = new Interrupt(() => KILL_NONE);
    interrupt.start(0.05);
    const s = 'a'.repeat(1 << 20);
    const like = new LikePattern(`%${'a_'.repeat(20_000)}b%`, '\\');
    const t0 = performance.now();
    expect(() => like.test(s, interrupt)).toThrow(expect.objectContaining({ errno: 1969 }));
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

describe('LIKE in SQL', () => {
  it('keeps its answers: escapes, case under utf8mb4_general_ci, trailing spaces, NULL', () => {
    const db = Database.temporary();
    try {
      const s = new Session(db);
      const rows = s.query(
        `SELECT 'abc' LIKE 'a%', 'abc' LIKE 'A_C', 'a%c' LIKE 'a\\%c', 'abc' LIKE 'a\\%c',
                'a_c' LIKE 'a|_c' ESCAPE '|', 'abc ' LIKE 'abc', 'abc' NOT LIKE '%d', NULL LIKE 'a',
                '😀x' LIKE '_x', '' LIKE '%', '' LIKE '_'`,
      ).rows[0];
      expect(rows).toEqual([1, 1, 1, 0, 1, 0, 1, null, 1, 1, 0]);
    } finally {
      db.close();
    }
  });
});
