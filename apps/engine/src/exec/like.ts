import type { Interrupt } from './interrupt.js';

/**
 * A LIKE pattern compiled once: `%` matches any run of characters, `_` exactly one character
 * (one code point), and the escape character makes the character after it literal. The match
 * never backtracks more than one segment: the pattern is cut at each `%` into segments of fixed
 * length; the first must match at the start of the string, the last at its end, and each middle
 * one is taken at its leftmost place after the one before (a leftmost place ends soonest, which
 * leaves the most room for the rest). The cost is at most the string's length times the longest
 * segment's, and the search polls the statement's interrupt as it goes, so a long string and a
 * pattern that would make a backtracking matcher run for hours is both fast and killable.
 */
export class LikePattern {
  /** Segments between `%`s; in a segment, null stands for `_`, a string for literal text. */
  readonly #segments: ReadonlyArray<ReadonlyArray<string | null>>;
  /** The pattern had no `%`: the one segment must match the whole string. */
  readonly #exact: boolean;

  constructor(pattern: string, esc: string) {
    const segments: Array<Array<string | null>> = [];
    let seg: Array<string | null> = [];
    let lit = '';
    const flush = (): void => {
      if (lit !== '') seg.push(lit);
      lit = '';
    };
    for (let i = 0; i < pattern.length; ) {
      const cp = pattern.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      i += ch.length;
      if (ch === esc && i < pattern.length) {
        const next = String.fromCodePoint(pattern.codePointAt(i)!);
        lit += next;
        i += next.length;
      } else if (ch === '%') {
        flush();
        segments.push(seg);
        seg = [];
      } else if (ch === '_') {
        flush();
        seg.push(null);
      } else lit += ch;
    }
    flush();
    segments.push(seg);
    this.#segments = segments;
    this.#exact = segments.length === 1;
  }

  /** Whether `s` matches the whole pattern. */
  test(s: string, interrupt: Interrupt): boolean {
    const segs = this.#segments;
    if (this.#exact) return matchAt(s, 0, segs[0]!, interrupt) === s.length;
    // the first segment at the start, the last one ending at the end, without overlapping
    let pos = matchAt(s, 0, segs[0]!, interrupt);
    if (pos < 0) return false;
    const tail = matchBackAt(s, s.length, segs[segs.length - 1]!);
    if (tail < pos) return false;
    for (let k = 1; k < segs.length - 1; k++) {
      const seg = segs[k]!;
      if (seg.length === 0) continue;
      const end = findFrom(s, pos, tail, seg, interrupt);
      if (end < 0) return false;
      pos = end;
    }
    return true;
  }
}

/** Where `seg` ends when it matches `s` from `at`, or -1 (`interrupt`: polled once per part). */
function matchAt(s: string, at: number, seg: ReadonlyArray<string | null>, interrupt?: Interrupt): number {
  let p = at;
  for (const part of seg) {
    interrupt?.poll();
    if (part === null) {
      if (p >= s.length) return -1;
      p += isPair(s, p) ? 2 : 1;
    } else {
      if (!s.startsWith(part, p)) return -1;
      p += part.length;
    }
  }
  return p;
}

/** Where `seg` starts when it matches `s` ending at `end`, or -1. */
function matchBackAt(s: string, end: number, seg: ReadonlyArray<string | null>): number {
  let p = end;
  for (let k = seg.length - 1; k >= 0; k--) {
    const part = seg[k]!;
    if (part === null) {
      if (p <= 0) return -1;
      p -= p >= 2 && isPair(s, p - 2) ? 2 : 1;
    } else {
      const from = p - part.length;
      if (from < 0 || !s.startsWith(part, from)) return -1;
      p = from;
    }
  }
  return p;
}

/** The end of the leftmost match of `seg` in `s` that starts at or after `from` and ends by `limit`, or -1. */
function findFrom(
  s: string,
  from: number,
  limit: number,
  seg: ReadonlyArray<string | null>,
  interrupt: Interrupt,
): number {
  const first = seg[0]!;
  let at = from;
  while (at <= limit) {
    interrupt.poll();
    if (first !== null) {
      // only where the segment's leading text is can it start
      at = s.indexOf(first, at);
      if (at < 0 || at + first.length > limit) return -1;
    }
    const end = matchAt(s, at, seg, interrupt);
    // a later start cannot end sooner
    if (end > limit) return -1;
    if (end >= 0) return end;
    // start one character further (a surrogate pair is one character)
    at += isPair(s, at) ? 2 : 1;
  }
  return -1;
}

/** Whether `s` holds a surrogate pair at `i` (one code point in two UTF-16 units). */
function isPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}
