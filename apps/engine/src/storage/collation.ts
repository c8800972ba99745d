/**
 * The utf8mb4 collations the engine compares, orders and indexes text by:
 *
 * | collation | id | weight of a character | trailing spaces |
 * |---|---|---|---|
 * | `utf8mb4_general_ci` (MariaDB 10.11's default for utf8mb4) | 45 | its case- and accent-folded form (below) | ignored (PAD SPACE) |
 * | `utf8mb4_bin` | 46 | its code point (the key holds its UTF-8) | ignored (PAD SPACE) |
 *
 * A string's weight string is the sequence of its characters' weights, each two bytes
 * big-endian (code points past U+FFFF weigh U+FFFD, as in MariaDB's general_ci), with the
 * trailing spaces dropped; two strings compare as their weight strings compare (memcmp), so an
 * index whose key holds weight strings orders and finds rows as the collation compares them.
 *
 * general_ci folds as MariaDB's `my_unicase_default` table: a–z to A–Z; the Latin-1 letters
 * with accents to their base letter (À…Å, à…å → A; Ç, ç → C; È…Ë, è…ë → E; Ì…Ï, ì…ï → I;
 * Ñ, ñ → N; Ò…Ö, ò…ö → O; Ù…Ü, ù…ü → U; Ý, ý, ÿ → Y), ß to S, æ to Æ, ø to Ø, ð to Ð, þ to Þ, µ to
 * Μ; other characters to their simple upper case where it is one character.
 */
export type Collation = 'utf8mb4_general_ci' | 'utf8mb4_bin';

export const COLLATIONS: readonly Collation[] = ['utf8mb4_general_ci', 'utf8mb4_bin'];

/** MySQL's collation ids (SHOW COLLATION, the protocol's column character set). */
export const COLLATION_ID: Readonly<Record<Collation, number>> = {
  utf8mb4_general_ci: 45,
  utf8mb4_bin: 46,
};

export const DEFAULT_COLLATION: Collation = 'utf8mb4_general_ci';

/** A collation name as the engine knows it (utf8 / utf8mb3 names map to utf8mb4's), or undefined. */
export function collationByName(name: string): Collation | undefined {
  const n = name.toLowerCase().replace(/^utf8mb3_|^utf8_/, 'utf8mb4_');
  return (COLLATIONS as readonly string[]).includes(n) ? (n as Collation) : undefined;
}

/** Weights of U+0000 … U+00FF under general_ci (the Latin-1 plane of `my_unicase_default`). */
const LATIN1 = new Uint16Array(256);
for (let c = 0; c < 256; c++) LATIN1[c] = c;
for (let c = 0x61; c <= 0x7a; c++) LATIN1[c] = c - 32;
const FOLD: Array<[string, string]> = [
  ['ÀÁÂÃÄÅàáâãäå', 'A'],
  ['Çç', 'C'],
  ['ÈÉÊËèéêë', 'E'],
  ['ÌÍÎÏìíîï', 'I'],
  ['Ññ', 'N'],
  ['ÒÓÔÕÖòóôõö', 'O'],
  ['ÙÚÛÜùúûü', 'U'],
  ['Ýýÿ', 'Y'],
  ['ß', 'S'],
  ['æ', 'Æ'],
  ['ø', 'Ø'],
  ['ð', 'Ð'],
  ['þ', 'Þ'],
  ['µ', 'Μ'],
];
for (const [from, to] of FOLD) for (const ch of from) LATIN1[ch.charCodeAt(0)] = to.charCodeAt(0);

/** The general_ci weight of one code point. */
function ciWeight(cp: number): number {
  if (cp < 0x100) return LATIN1[cp]!;
  if (cp > 0xffff) return 0xfffd;
  const up = String.fromCharCode(cp).toUpperCase();
  return up.length === 1 ? up.charCodeAt(0) : cp;
}

/**
 * The weight string of `s` as a JavaScript string of one UTF-16 unit per character weight (so
 * `<`, `===` and Map keys compare it as the collation compares `s`); `pad`: drop trailing spaces
 * (PAD SPACE comparison; LIKE keeps them).
 */
export function weightText(s: string, collation: Collation, pad = true): string {
  let end = s.length;
  if (pad) while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  // utf8mb4_bin: the text itself (UTF-16 order is code point order but for characters past
  // U+FFFF against U+E000 … U+FFFF, which the key bytes, UTF-8, order by code point)
  if (collation === 'utf8mb4_bin') return end === s.length ? s : s.slice(0, end);
  // a prefix of characters that are their own weight (digits, capitals, ASCII punctuation) is
  // copied as it is: text of those alone is its own weight string, with nothing allocated
  let i = 0;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || LATIN1[c] !== c) break;
    i++;
  }
  if (i === end) return end === s.length ? s : s.slice(0, end);
  // weights gather in a buffer turned into text a chunk at a time: a character at a time makes
  // a string of a million pieces for a 1 MB value, slow to build and to read
  const buf = new Uint16Array(Math.min(end - i, WEIGHT_CHUNK));
  let out = s.slice(0, i);
  let n = 0;
  for (; i < end; i++) {
    const c = s.codePointAt(i)!;
    if (c > 0xffff) i++;
    buf[n++] = ciWeight(c);
    if (n === buf.length) {
      out += String.fromCharCode.apply(null, buf as unknown as number[]);
      n = 0;
    }
  }
  return n === 0 ? out : out + String.fromCharCode.apply(null, buf.subarray(0, n) as unknown as number[]);
}

/** Weights turned into text at once by weightText. */
const WEIGHT_CHUNK = 4096;

const ENCODER = new TextEncoder();

/** The weight string of `s` as key bytes: general_ci's weights two bytes each, big-endian; utf8mb4_bin's text as UTF-8. */
export function weightBytes(s: string, collation: Collation): Uint8Array {
  const w = weightText(s, collation);
  if (collation === 'utf8mb4_bin') return ENCODER.encode(w);
  const out = new Uint8Array(w.length * 2);
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    out[2 * i] = c >>> 8;
    out[2 * i + 1] = c & 0xff;
  }
  return out;
}

const DECODER = new TextDecoder();

/** The key bytes of UTF-8 text `bytes[off, off + len)` under `collation`. */
export function weightBytesOfUtf8(
  bytes: Uint8Array,
  off: number,
  len: number,
  collation: Collation,
): Uint8Array {
  return weightBytes(DECODER.decode(bytes.subarray(off, off + len)), collation);
}

/** -1, 0 or 1 as `a` and `b` compare under `collation`. */
export function compareText(a: string, b: string, collation: Collation): number {
  const x = weightText(a, collation);
  const y = weightText(b, collation);
  return x < y ? -1 : x > y ? 1 : 0;
}
