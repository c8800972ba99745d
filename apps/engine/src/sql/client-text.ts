import { isUtf8 } from 'node:buffer';

/**
 * Text a client sends (a statement, a string parameter) is UTF-8. Bytes that are not — a lone
 * 0xFF, a truncated sequence — must not silently become U+FFFD (two different invalid strings
 * would then compare equal, and a column would store three bytes for each): each invalid byte
 * is kept as the lone surrogate U+DC00 + byte (as Python's `surrogateescape`), which no valid
 * UTF-8 decodes to. Such a string compares by its bytes, and storing it in a column is refused
 * with 1366 as MariaDB refuses it (see {@link invalidTextError}).
 */
export function decodeClientText(b: Buffer): string {
  if (isUtf8(b)) return b.toString('utf8');
  let out = '';
  let i = 0;
  const n = b.length;
  let start = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b, i);
    if (len > 0) {
      i += len;
      continue;
    }
    out += b.toString('utf8', start, i) + String.fromCharCode(0xdc00 + c);
    i++;
    start = i;
  }
  return out + b.toString('utf8', start, n);
}

/** The length of the valid UTF-8 sequence at `i` (2–4), or 0 when the bytes there are not one. */
function sequenceLength(b: Buffer, i: number): number {
  const c = b[i]!;
  const cont = (k: number): boolean => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1]!;
    if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
    if (c === 0xed && c1 >= 0xa0) return 0; // a surrogate
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1]!;
    if (c === 0xf0 && c1 < 0x90) return 0;
    if (c === 0xf4 && c1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first code unit that is no character (an escaped byte, a lone surrogate), or -1. */
export function invalidTextAt(s: string): number {
  const m = LONE.exec(s);
  return m === null ? -1 : m.index;
}

/**
 * MariaDB's rendering of an invalid string in 1366: from the first invalid byte, at most six
 * characters, each invalid byte as `\xHH`, then `...` when more follow.
 */
export function invalidPreview(s: string, at: number): string {
  const chars = [...s.slice(at)];
  let out = '';
  for (const ch of chars.slice(0, 6)) {
    const u = ch.charCodeAt(0);
    if (ch.length === 1 && u >= 0xdc80 && u <= 0xdcff) out += `\\x${(u - 0xdc00).toString(16).toUpperCase()}`;
    else if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff) out += '?';
    else out += ch;
  }
  return chars.length > 6 ? `${out}...` : out;
}

/** Where an escaped byte stands while the statement passes the parser (which turns lone surrogates into U+FFFD). */
const PARKED_BASE = 0x10ff00;
const PARKED = /[\u{10FF80}-\u{10FFFF}]/gu;
const PARKED_ANY = /[\u{10FF80}-\u{10FFFF}]/u;
const ESCAPED = /[\uDC80-\uDCFF]/g;

/**
 * A statement text whose escaped bytes are parked on code points of plane 16's private use area
 * (U+10FF80 + …) so they pass the parser, or undefined when the text has none. Text that already
 * holds those code points beside escaped bytes, or holds any other lone surrogate, cannot be told
 * apart and is refused by the caller.
 */
export function parkEscapes(sql: string): string | undefined | null {
  const at = invalidTextAt(sql);
  if (at < 0) return undefined;
  if (PARKED_ANY.test(sql)) return null;
  const parked = sql.replace(ESCAPED, (c) => String.fromCodePoint(PARKED_BASE + c.charCodeAt(0) - 0xdc00));
  return invalidTextAt(parked) >= 0 ? null : parked;
}

/** Puts the parked bytes of every string in a parsed tree back (in place; before it is shared). */
export function unparkEscapes(tree: unknown): void {
  const back = (s: string): string =>
    s.replace(PARKED, (c) => String.fromCharCode(0xdc00 + c.codePointAt(0)! - PARKED_BASE));
  const walk = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (let i = 0; i < n.length; i++) {
        const v = n[i];
        if (typeof v === 'string') n[i] = back(v);
        else walk(v);
      }
      return;
    }
    const o = n as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (typeof v === 'string') o[k] = back(v);
      else walk(v);
    }
  };
  walk(tree);
}
