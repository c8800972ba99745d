/**
 * Statement digests, as performance_schema's: a statement's text with its literals taken out. Two
 * texts with one digest differ only in the values of their number and string literals, so the
 * parser's tree for one is the tree for the other once those values (and the positions of
 * everything after them) are put in. The parse cache (parser.ts) parses each digest's shape once
 * and builds the tree of every later text of that shape from it, without the WASM parser.
 *
 * Only what can be swapped without changing the grammar is a literal: unsigned decimal numbers
 * (`12`, `1.5`, `1e3`) and single-quoted strings with no backslash, no line break and no
 * introducer or type word before them (`_utf8mb4'…'`, `X'…'`, `DATE '…'` stay part of the shape).
 * A literal's kind (integer, decimal, float, string) is part of the digest, so a literal's type
 * never changes when its value does. Texts the digest does not cover (not SELECT / INSERT /
 * UPDATE / DELETE / REPLACE / WITH, with `?` placeholders, non-ASCII or carriage returns, a
 * number glued to a name) have none and are parsed as they are.
 */

/** One literal of a text: where it stands (1-based line and column, as the parser's spans) and what it is. */
export interface DigestLiteral {
  readonly line: number;
  readonly column: number;
  /** Characters of the literal in the text (quotes included). */
  readonly length: number;
  /** `i` integer, `d` decimal, `e` float, `s` string. */
  readonly kind: 'i' | 'd' | 'e' | 's';
  /** The number as written, or the string's value (doubled quotes made single). */
  readonly value: string;
}

export interface Digest {
  /** The text with each literal replaced by a marker of its kind: equal keys, equal trees but for the literals. */
  readonly key: string;
  /** The text with each literal replaced by `?` and blanks to its length: the same columns as the text. */
  readonly padded: string;
  readonly literals: readonly DigestLiteral[];
}

/** Texts longer than this are parsed as they are (their trees cost more to copy than to keep). */
export const DIGEST_TEXT_MAX: number = 32 * 1024;
/** Statements with more literals than this are parsed as they are. */
export const DIGEST_LITERALS_MAX: number = 4096;

const STATEMENT = /^\s*(SELECT|INSERT|UPDATE|DELETE|REPLACE|WITH)\b/i;
/** Words before a string that make it something other than a plain literal. */
const TYPE_WORDS = new Set([
  'DATE',
  'TIME',
  'TIMESTAMP',
  'DATETIME',
  'INTERVAL',
  'BINARY',
  'COLLATE',
  'ESCAPE',
  'AS',
]);
const MARK = '\u0001';
/** Anything but printable ASCII, tabs and line feeds: columns then count as characters do. */
const OTHER_CHARS = /[^\t\n\x20-\x7e]/;

function isWordChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 /* _ */ ||
    c === 36 /* $ */
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The digest of `sql`, or null when the text is not one the digest covers. */
export function digestOf(sql: string): Digest | null {
  const n = sql.length;
  if (n > DIGEST_TEXT_MAX || !STATEMENT.test(sql) || OTHER_CHARS.test(sql)) return null;
  const literals: DigestLiteral[] = [];
  let key = '';
  let padded = '';
  // the part of the text copied to both outputs unchanged starts at `from`
  let from = 0;
  let line = 1;
  let lineStart = 0;
  let lastWord = '';
  let i = 0;
  const take = (start: number, end: number, kind: DigestLiteral['kind'], value: string): void => {
    const chunk = sql.slice(from, start);
    key += chunk + MARK + kind;
    padded += `${chunk}?${' '.repeat(end - start - 1)}`;
    literals.push({ line, column: start - lineStart + 1, length: end - start, kind, value });
    from = end;
  };
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 63 /* ? */) return null;
    if (c === 10) {
      line++;
      lineStart = i + 1;
      i++;
      continue;
    }
    if (c === 39 /* ' */) {
      // a string: its end, with '' as a quote inside
      let j = i + 1;
      let doubled = false;
      for (;;) {
        if (j >= n) return null;
        const d = sql.charCodeAt(j);
        if (d === 92 /* \ */ || d === 10) return null;
        if (d === 39) {
          if (sql.charCodeAt(j + 1) !== 39) break;
          doubled = true;
          j += 2;
        } else j++;
      }
      const end = j + 1;
      const inner = sql.slice(i + 1, j);
      const value = doubled ? inner.replaceAll("''", "'") : inner;
      const before = i > 0 ? sql.charCodeAt(i - 1) : 32;
      let k = end;
      while (k < n && (sql.charCodeAt(k) === 32 || sql.charCodeAt(k) === 9 || sql.charCodeAt(k) === 10)) k++;
      // 'a' 'b' is one string in MySQL: leave such texts to the parser
      if (k < n && (sql.charCodeAt(k) === 39 || sql.charCodeAt(k) === 34)) return null;
      if (!isWordChar(before) && !TYPE_WORDS.has(lastWord)) take(i, end, 's', value);
      lastWord = '';
      i = end;
      continue;
    }
    if (c === 34 /* " */ || c === 96 /* ` */) {
      // a quoted name (or a double-quoted string): part of the shape
      let j = i + 1;
      while (j < n) {
        const d = sql.charCodeAt(j);
        if (d === 10) return null;
        if (d === 92 && c === 34) return null;
        if (d === c) {
          if (sql.charCodeAt(j + 1) === c) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      if (j >= n) return null;
      lastWord = '';
      i = j + 1;
      continue;
    }
    if (c === 45 /* - */ && sql.charCodeAt(i + 1) === 45) return null;
    if (c === 35 /* # */) return null;
    if (c === 47 /* / */ && sql.charCodeAt(i + 1) === 42 /* * */) {
      const j = sql.indexOf('*/', i + 2);
      if (j < 0) return null;
      for (let k = i; k < j; k++) if (sql.charCodeAt(k) === 10) return null;
      i = j + 2;
      continue;
    }
    if (isDigit(c) || (c === 46 /* . */ && isDigit(sql.charCodeAt(i + 1)))) {
      const before = i > 0 ? sql.charCodeAt(i - 1) : 32;
      if (isWordChar(before) || before === 46) return null;
      let j = i;
      let kind: DigestLiteral['kind'] = 'i';
      while (j < n && isDigit(sql.charCodeAt(j))) j++;
      if (sql.charCodeAt(j) === 46) {
        kind = 'd';
        j++;
        while (j < n && isDigit(sql.charCodeAt(j))) j++;
      }
      const e = sql.charCodeAt(j);
      if (e === 101 || e === 69) {
        let k = j + 1;
        const s = sql.charCodeAt(k);
        if (s === 43 || s === 45) k++;
        if (!isDigit(sql.charCodeAt(k))) return null;
        while (k < n && isDigit(sql.charCodeAt(k))) k++;
        kind = 'e';
        j = k;
      }
      // 1abc is a name, 0x1F a hex literal: neither is a plain number
      if (j < n && (isWordChar(sql.charCodeAt(j)) || sql.charCodeAt(j) === 46)) return null;
      if (i === j - 1 && c === 46) return null;
      take(i, j, kind, sql.slice(i, j));
      lastWord = '';
      i = j;
      continue;
    }
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(sql.charCodeAt(j))) j++;
      lastWord = sql.slice(i, j).toUpperCase();
      i = j;
      continue;
    }
    if (c !== 32 && c !== 9) lastWord = '';
    i++;
  }
  if (literals.length === 0 || literals.length > DIGEST_LITERALS_MAX) return null;
  const rest = sql.slice(from);
  return { key: key + rest, padded: padded + rest, literals };
}

/**
 * A parsed shape: the tree of a digest's padded text, with its literals' positions. The tree is
 * shared and never changed; {@link instantiate} copies it for each text.
 */
export interface Shape {
  readonly tree: readonly unknown[];
  readonly literals: readonly DigestLiteral[];
  /** line · 2^20 + column of each literal's start → its index. */
  readonly at: ReadonlyMap<number, number>;
}

const POS = 1 << 20;

export function shapeOf(tree: readonly unknown[], literals: readonly DigestLiteral[]): Shape {
  const at = new Map<number, number>();
  literals.forEach((l, i) => {
    at.set(l.line * POS + l.column, i);
  });
  return { tree, literals, at };
}

/**
 * Whether the shape's tree has a placeholder exactly where each literal stands and nowhere else
 * (a literal the grammar read as something else fails here).
 */
export function placeholdersMatch(shape: Shape): boolean {
  const seen = new Set<number>();
  let ok = true;
  const walk = (v: unknown): void => {
    if (!ok || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const o = v as Record<string, unknown>;
    const val = o.Value as
      | { value?: unknown; span?: { start: { line: number; column: number } } }
      | undefined;
    if (val !== undefined && val !== null && typeof val === 'object') {
      const p = val.value as Record<string, unknown> | undefined;
      if (p !== undefined && p !== null && typeof p === 'object' && 'Placeholder' in p) {
        const s = val.span?.start;
        const k = s === undefined ? -1 : (shape.at.get(s.line * POS + s.column) ?? -1);
        if (k < 0 || seen.has(k)) ok = false;
        else seen.add(k);
        return;
      }
    }
    for (const key in o) walk(o[key]);
  };
  walk(shape.tree);
  return ok && seen.size === shape.literals.length;
}

interface Pos {
  line: number;
  column: number;
}

/**
 * The tree of a text whose digest is the shape's: a copy of the shape's tree with each
 * placeholder replaced by the text's literal and every position moved by the difference in
 * length of the literals before it on its line.
 */
export function instantiate(shape: Shape, literals: readonly DigestLiteral[]): unknown[] {
  const old = shape.literals;
  const count = old.length;
  // the literals' length differences summed in text order (the literals are in text order):
  // `shift[k]` is the sum over the literals before the k-th
  const shift = new Float64Array(count + 1);
  for (let k = 0; k < count; k++) shift[k + 1] = shift[k]! + literals[k]!.length - old[k]!.length;
  /** The first literal at or after (line, column) in text order. */
  const firstFrom = (line: number, column: number): number => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const l = old[mid]!;
      if (l.line < line || (l.line === line && l.column < column)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // a position moves by the differences of the literals before it on its own line: a binary
  // search each, not a walk over every literal (a many-row INSERT has thousands of both)
  const move = (p: Pos): Pos => {
    if (count === 0) return p;
    const d = shift[firstFrom(p.line, p.column)]! - shift[firstFrom(p.line, 0)]!;
    return d === 0 ? p : { line: p.line, column: p.column + d };
  };
  const literalNode = (k: number): unknown => {
    const l = literals[k]!;
    const start = move({ line: old[k]!.line, column: old[k]!.column });
    const value = l.kind === 's' ? { SingleQuotedString: l.value } : { Number: [l.value, false] };
    return {
      Value: {
        value,
        span: { start, end: { line: start.line, column: start.column + l.length } },
      },
    };
  };
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const out = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) out[i] = copy(v[i]);
      return out;
    }
    const o = v as Record<string, unknown>;
    const val = o.Value as { value?: unknown; span?: { start: Pos } } | undefined;
    if (val !== undefined && val !== null && typeof val === 'object') {
      const p = val.value as Record<string, unknown> | undefined;
      if (p !== undefined && p !== null && typeof p === 'object' && 'Placeholder' in p) {
        const s = val.span!.start;
        return literalNode(shape.at.get(s.line * POS + s.column)!);
      }
    }
    const out: Record<string, unknown> = {};
    for (const key in o) {
      const x = o[key];
      if ((key === 'start' || key === 'end') && x !== null && typeof x === 'object' && 'column' in x)
        out[key] = move(x as Pos);
      else out[key] = copy(x);
    }
    return out;
  };
  return copy(shape.tree) as unknown[];
}
