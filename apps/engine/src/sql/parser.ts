import { parseAnalyzeList } from './analyze-list.js';
import { commaJoinUpdate, recognizeStatement, unsupportedStatement } from './mysql-statements.js';
import { tagOf } from './ast.js';
import { type Digest, digestOf, instantiate, placeholdersMatch, type Shape, shapeOf } from './digest.js';
import { SqlError } from './errors.js';
import { invalidPreview, invalidTextAt, parkEscapes, unparkEscapes } from './client-text.js';
import { applyPrecedence, BANG, type OperatorMode } from './precedence.js';
import { offsetOf, syntaxErrorNear } from './syntax-error.js';
import { ParserMessage, ParserTrap, wasmParse } from './wasm-parser.js';

/**
 * The one module that knows the parser: `@guanmingchiu/sqlparser-ts` (datafusion-sqlparser-rs as
 * WASM) with the `mysql` dialect, instantiated synchronously on first use and replaced when a
 * statement breaks it (wasm-parser.ts). Everything else in the engine reads the AST through the
 * narrow interfaces of ast.ts. Swap the parser here.
 */

/**
 * Rewrites applied before parsing, outside quotes and comments, keeping every column in place:
 * the `MOD` operator becomes `%` (the dialect lacks it), `LOCK IN SHARE MODE` becomes `FOR SHARE`,
 * `TRIM(LEADING FROM` becomes `LTRIM(` and blanks (and BOTH / TRAILING alike: the dialect wants a
 * string to trim),
 * START TRANSACTION's `WITH CONSISTENT SNAPSHOT` becomes blanks, a prefix `!` becomes `~` (the
 * dialect lacks it too; `bangs` records, per `~` of the result in text order, whether it was a `!`).
 * What the dialect lacks and the tree must still say goes in `marks`, put back by `marked`:
 * UPDATE / DELETE modifiers, CREATE TABLE's IGNORE / REPLACE before its query, WITH ROLLUP,
 * two-part interval units, the INTERVAL() function,
 * MariaDB's ANALYZE SELECT.
 */
export function rewrite(
  sql: string,
  divAsMod = false,
  mods: boolean[] = [],
  bangs: boolean[] = [],
  marks: Marks = {},
): string {
  // only MOD, LOCK IN SHARE MODE, WITH CONSISTENT SNAPSHOT, `!`, `#` comments and the modifiers
  // of UPDATE and DELETE change the text (DIV when asked): without any of them it goes as it is
  if (!divAsMod && !REWRITTEN.test(sql)) return sql;
  let out = '';
  let i = 0;
  const n = sql.length;
  let first = true;
  let statementWord = '';
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '\\' && c !== '`') j += 2;
        else if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const j = sql.indexOf('\n', i);
      const e = j < 0 ? n : j;
      out += sql.slice(i, e);
      i = e;
      continue;
    }
    if (c === '#') {
      const j = sql.indexOf('\n', i);
      const e = j < 0 ? n : j;
      out += ' '.repeat(e - i);
      i = e;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const j = sql.indexOf('*/', i + 2);
      const e = j < 0 ? n : j + 2;
      out += sql.slice(i, e);
      i = e;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j);
      const up = word.toUpperCase();
      // the character before the word, read from the input: indexing `out` would flatten the
      // string built so far on every word (quadratic on a long multi-row INSERT)
      const prev = i > 0 ? sql[i - 1]! : ' ';
      const leading = first;
      first = false;
      if (leading) statementWord = up;
      if (leading && up === 'ANALYZE' && ANALYZE_QUERY.test(sql.slice(j))) {
        // MariaDB's ANALYZE [FORMAT=…] SELECT (the dialect lacks it): EXPLAIN, of the same length,
        // marked to run as EXPLAIN ANALYZE does
        marks.analyze = true;
        out += 'EXPLAIN';
        i = j;
        continue;
      }
      if (
        statementWord === 'CREATE' &&
        (up === 'IGNORE' || up === 'REPLACE') &&
        prev !== '.' &&
        CREATE_SELECT_TAIL.test(sql.slice(j))
      ) {
        // CREATE TABLE … {IGNORE | REPLACE} [AS] SELECT: the dialect lacks the word; blanks, and a
        // mark on the tree
        marks.duplicates = up === 'IGNORE' ? 'ignore' : 'replace';
        out += ' '.repeat(word.length);
        i = j;
        continue;
      }
      const modifiers = leading ? STATEMENT_MODIFIERS[up]?.exec(sql.slice(j)) : undefined;
      if (modifiers !== undefined && modifiers !== null && modifiers[0] !== '') {
        // UPDATE [LOW_PRIORITY] [IGNORE], DELETE [LOW_PRIORITY] [QUICK] [IGNORE]: the dialect reads
        // the modifiers as a table name; they become blanks, IGNORE a mark put on the tree
        if (/\bIGNORE\b/i.test(modifiers[0])) marks.ignore = true;
        out += word + modifiers[0].replace(/\S/g, ' ');
        i = j + modifiers[0].length;
        continue;
      }
      if (up === 'MOD' && prev !== '.' && !/^\s*\(/.test(sql.slice(j))) {
        out += '%  ';
        mods.push(false);
      } else if (divAsMod && up === 'DIV' && prev !== '.') {
        out += '%  ';
        mods.push(true);
      } else if (
        up === 'WITH' &&
        /^\s+CONSISTENT\s+SNAPSHOT\b/i.test(sql.slice(j)) &&
        /^\s*START\s+TRANSACTION\b/i.test(sql)
      ) {
        // START TRANSACTION's WITH CONSISTENT SNAPSHOT (the dialect lacks it) becomes blanks, with
        // the comma that joins it to an access mode; the session reads it from the text
        const m = /^\s+CONSISTENT\s+SNAPSHOT(\s*,)?/i.exec(sql.slice(j))!;
        if (m[1] === undefined) out = out.replace(/,(\s*)$/, ' $1');
        out += ' '.repeat(word.length + m[0].length);
        i = j + m[0].length;
        continue;
      } else if (COMPOUND_UNITS.has(up) && prev !== '.') {
        // a two-part interval unit (the dialect lacks them): its first part and blanks, the unit
        // put back on the INTERVAL or EXTRACT it ends (markUnit)
        (marks.units ??= []).push({ at: i, unit: up });
        out += up.slice(0, up.indexOf('_')).padEnd(word.length, ' ');
      } else if (up === 'INTERVAL' && prev !== '.' && intervalCall(sql, j)) {
        // the INTERVAL(n, n1, …) function (the dialect reads only the INTERVAL literal): a call
        // of a placeholder name of the same length, renamed INTERVAL on the tree
        (marks.intervalCalls ??= []).push(i);
        out += INTERVAL_CALL;
      } else if (up === 'WITH' && ROLLUP.test(sql.slice(j))) {
        // GROUP BY … WITH ROLLUP (the dialect lacks it): blanks, and a mark the tree gets back
        const m = ROLLUP.exec(sql.slice(j))!;
        (marks.rollups ??= []).push(i);
        out += ' '.repeat(word.length + m[0].length);
        i = j + m[0].length;
        continue;
      } else if (
        up === 'TRIM' &&
        prev !== '.' &&
        /^\s*\(\s*(BOTH|LEADING|TRAILING)\s+FROM\b/i.test(sql.slice(j))
      ) {
        // TRIM(BOTH | LEADING | TRAILING FROM s), the spaces trimmed (the dialect wants a remstr):
        // TRIM( / LTRIM( / RTRIM( and blanks, every column kept (the shown name is the text's)
        const m = /^\s*\(\s*(BOTH|LEADING|TRAILING)\s+FROM\b/i.exec(sql.slice(j))!;
        const side = m[1]!.toUpperCase();
        const call = side === 'LEADING' ? 'LTRIM(' : side === 'TRAILING' ? 'RTRIM(' : 'TRIM(';
        out += call.padEnd(word.length + m[0].length, ' ');
        i = j + m[0].length;
        continue;
      } else if (up === 'LOCK' && /^\s+IN\s+SHARE\s+MODE\b/i.test(sql.slice(j))) {
        const m = /^\s+IN\s+SHARE\s+MODE/i.exec(sql.slice(j))!;
        const span = word.length + m[0].length;
        out += 'FOR SHARE'.padEnd(span, ' ');
        i = j + m[0].length;
        continue;
      } else out += word;
      i = j;
      continue;
    }
    if (c === '%') mods.push(false);
    if (c === '!' && sql[i + 1] !== '=') {
      out += '~';
      bangs.push(true);
      i++;
      continue;
    }
    if (c === '~') bangs.push(false);
    out += c;
    i++;
  }
  return out;
}

/** BinaryOp nodes of `op` in text order (an in-order walk: left operand, node, right operand). */
function binaryOps(root: unknown, op: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    if (n === null || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    const b = o.BinaryOp as Record<string, unknown> | undefined;
    if (b !== undefined && typeof b === 'object') {
      walk(b.left);
      if (b.op === op) out.push(b);
      walk(b.right);
      return;
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(root);
  return out;
}

/** UnaryOp `~` nodes in text order (pre-order: the operator comes before its operand). */
function tildes(root: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    if (n === null || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    const u = o.UnaryOp as Record<string, unknown> | undefined;
    if (u !== undefined && typeof u === 'object' && (u.op === 'BitwiseNot' || u.op === 'PGBitwiseNot'))
      out.push(u);
    for (const v of Object.values(o)) walk(v);
  };
  walk(root);
  return out;
}

const REWRITTEN =
  /mod|lock|consistent|#|!|trim|ignore|replace|low_priority|quick|rollup|interval|year_|day_|hour_|minute_|second_|analyze/i;

/** What follows CREATE TABLE's IGNORE or REPLACE: the query (`[AS] SELECT`, `[AS] (SELECT`, `WITH`). */
const CREATE_SELECT_TAIL = /^\s+(?:AS\s+)?(?:\(\s*)*(?:SELECT|WITH|VALUES)\b/i;

/** `WITH ROLLUP` after its WITH (ROLLUP is reserved: no common table expression takes the name). */
const ROLLUP = /^\s+ROLLUP\b/i;

/** What follows ANALYZE when it is MariaDB's statement analysis rather than ANALYZE TABLE. */
const ANALYZE_QUERY = /^\s+(?:FORMAT\s*=\s*\w+\s+)?(?:SELECT|WITH|\()/i;

/** The two-part interval units, which the dialect does not read. */
const COMPOUND_UNITS = new Set([
  'YEAR_MONTH',
  'DAY_HOUR',
  'DAY_MINUTE',
  'DAY_SECOND',
  'DAY_MICROSECOND',
  'HOUR_MINUTE',
  'HOUR_SECOND',
  'HOUR_MICROSECOND',
  'MINUTE_SECOND',
  'MINUTE_MICROSECOND',
  'SECOND_MICROSECOND',
]);

/** The name the INTERVAL(…) function is parsed under (as long as INTERVAL). */
const INTERVAL_CALL = 'INTERVL_';

/**
 * Whether the text after an INTERVAL at `j` is the INTERVAL(n, n1, …) function: a parenthesis
 * whose contents hold a comma outside any nested parenthesis or quote (`INTERVAL (1 + 1) DAY`
 * has none).
 */
function intervalCall(sql: string, j: number): boolean {
  let i = j;
  while (i < sql.length && /\s/.test(sql[i]!)) i++;
  if (sql[i] !== '(') return false;
  let depth = 0;
  for (; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let k = i + 1;
      while (k < sql.length && sql[k] !== c) k += sql[k] === '\\' && c !== '`' ? 2 : 1;
      i = k;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return false;
    } else if (c === ',' && depth === 1) return true;
  }
  return false;
}

/** What a rewrite took out of the text that the tree must still say. */
export interface Marks {
  /** UPDATE IGNORE / DELETE IGNORE. */
  ignore?: boolean;
  /** CREATE TABLE … IGNORE SELECT / … REPLACE SELECT: what a row with a taken key does. */
  duplicates?: 'ignore' | 'replace';
  /** MariaDB's ANALYZE SELECT, parsed as EXPLAIN. */
  analyze?: boolean;
  /** Where each `WITH ROLLUP` began (text offsets). */
  rollups?: number[];
  /** Each two-part interval unit and where it began. */
  units?: { at: number; unit: string }[];
  /** Where each INTERVAL(…) function call began. */
  intervalCalls?: number[];
}

/** The modifiers after a statement's first word, in MariaDB's grammar (DELETE's in any order). */
const STATEMENT_MODIFIERS: Record<string, RegExp> = {
  UPDATE: /^(?:\s+LOW_PRIORITY\b)?(?:\s+IGNORE\b)?/i,
  DELETE: /^(?:\s+(?:LOW_PRIORITY|QUICK|IGNORE)\b)*/i,
};

/**
 * Statement texts seen lately, and the trees of those seen twice or more. A text that comes back
 * (`SELECT 1`, `BEGIN`, a client's `SELECT @@version_comment LIMIT 1`, a view's definition) is
 * parsed the first two times only; from the second time on its tree is kept deeply frozen, so a
 * statement that tried to change the tree it was given would fail at once instead of changing
 * the next one's. Texts longer than PARSE_CACHE_TEXT (multi-row INSERTs) are never kept.
 */
const PARSE_CACHE_TEXT = 1024;
const PARSE_CACHE_TREES = 256;
const seenOnce = new Map<string, true>();
const trees = new Map<string, unknown[]>();

function deepFreeze(n: unknown): void {
  if (n === null || typeof n !== 'object' || Object.isFrozen(n)) return;
  Object.freeze(n);
  if (Array.isArray(n)) for (const x of n) deepFreeze(x);
  else for (const k in n as Record<string, unknown>) deepFreeze((n as Record<string, unknown>)[k]);
}

/** Bounded insertion-order map: drop the oldest entry past `max`. */
function putBounded<V>(m: Map<string, V>, k: string, v: V, max: number): void {
  m.set(k, v);
  if (m.size > max) m.delete(m.keys().next().value as string);
}

/** The operator grammar of the default sql_mode. */
export const DEFAULT_OPERATORS: OperatorMode = { pipesAsConcat: false, highNotPrecedence: false };

/** The operator grammar a sql_mode value selects (PIPES_AS_CONCAT, HIGH_NOT_PRECEDENCE; ANSI has the first). */
export function operatorMode(sqlMode: string): OperatorMode {
  const m = sqlMode.toUpperCase();
  const pipes = /(^|,)(PIPES_AS_CONCAT|ANSI)(,|$)/.test(m);
  const highNot = /(^|,)HIGH_NOT_PRECEDENCE(,|$)/.test(m);
  if (!pipes && !highNot) return DEFAULT_OPERATORS;
  return { pipesAsConcat: pipes, highNotPrecedence: highNot };
}

/**
 * Parse statement text into raw AST statements (externally tagged JSON objects), operators grouped
 * as MariaDB groups them under `mode` (precedence.ts). The result may be shared with earlier and
 * later calls for the same text and mode: read it, never change it.
 */
export function parseSql(sql: string, mode: OperatorMode = DEFAULT_OPERATORS): unknown[] {
  const prefix =
    mode === DEFAULT_OPERATORS
      ? ''
      : `${mode.pipesAsConcat ? 'P' : '-'}${mode.highNotPrecedence ? 'N' : '-'}\u0000`;
  // the text parsed last comes back once more at once: a worker parses a statement for its kind,
  // then the session that runs it asks again
  if (lastText === sql && lastPrefix === prefix) {
    lastText = undefined;
    return lastTrees!;
  }
  const parsed = parseCached(sql, mode, prefix);
  lastText = sql;
  lastPrefix = prefix;
  lastTrees = parsed;
  return parsed;
}

/** The last text {@link parseSql} parsed (until asked for once more), its operator grammar and trees. */
let lastText: string | undefined;
let lastPrefix = '';
let lastTrees: unknown[] | undefined;

function parseCached(sql: string, mode: OperatorMode, prefix: string): unknown[] {
  if (sql.length <= PARSE_CACHE_TEXT) {
    const key = prefix + sql;
    const hit = trees.get(key);
    if (hit !== undefined) return hit;
    if (seenOnce.delete(key)) {
      const ast = parseByDigest(sql, mode, prefix);
      deepFreeze(ast);
      putBounded(trees, key, ast, PARSE_CACHE_TREES);
      return ast;
    }
    putBounded(seenOnce, key, true, 4 * PARSE_CACHE_TREES);
  }
  return parseByDigest(sql, mode, prefix);
}

/**
 * Digests seen once, and the shapes of those seen twice or more (null: a digest whose literals
 * the grammar does not read as plain values, parsed as text every time).
 */
const DIGESTS = 1024;
const digestSeen = new Map<string, true>();
const shapes = new Map<string, Shape | null>();

/** Trees built from a digest's shape instead of the parser, since the process started. */
let fromDigest = 0;
export function treesFromDigests(): number {
  return fromDigest;
}

/**
 * The tree of `sql`: built from its digest's shape when that shape has been parsed (digest.ts),
 * else parsed. A digest met the second time has its shape parsed, once, and kept only if the
 * tree it gives for this text is exactly the parser's.
 */
function parseByDigest(sql: string, mode: OperatorMode, prefix: string): unknown[] {
  const d = digestOf(sql);
  if (d === null) return parseText(sql, mode);
  const key = prefix + d.key;
  const shape = shapes.get(key);
  if (shape === null) return parseText(sql, mode);
  if (shape !== undefined) {
    fromDigest++;
    return instantiate(shape, d.literals);
  }
  const ast = parseText(sql, mode);
  if (!digestSeen.delete(key)) {
    putBounded(digestSeen, key, true, 4 * DIGESTS);
    return ast;
  }
  putBounded(shapes, key, shapeFor(d, mode, ast), DIGESTS);
  return ast;
}

/** The shape of digest `d`, checked against `ast` (the parser's tree of a text with that digest). */
function shapeFor(d: Digest, mode: OperatorMode, ast: unknown[]): Shape | null {
  let tree: unknown[];
  try {
    tree = parseText(d.padded, mode);
  } catch {
    return null;
  }
  const shape = shapeOf(tree, d.literals);
  if (!placeholdersMatch(shape)) return null;
  if (JSON.stringify(instantiate(shape, d.literals)) !== JSON.stringify(ast)) return null;
  deepFreeze(tree);
  return shape;
}

/** `sql` through the parser, bypassing every cache (for tests that compare the caches with it). */
export function parseText(sql: string, mode: OperatorMode = DEFAULT_OPERATORS): unknown[] {
  const parked = parkEscapes(sql);
  if (parked === null) {
    const at = invalidTextAt(sql);
    throw new SqlError(
      'ER_INVALID_CHARACTER_STRING',
      `Invalid utf8mb4 character string: '${invalidPreview(sql, at)}'`,
    );
  }
  const text = parked ?? sql;
  const tree = parseTree(text);
  applyPrecedence(tree, mode, text);
  if (parked !== undefined) unparkEscapes(tree);
  return tree;
}

/** The parser's tree, with `!`, MOD and DIV restored where the text was rewritten for it. */
function parseTree(sql: string): unknown[] {
  const bangs: boolean[] = [];
  const marks: Marks = {};
  try {
    return marked(sql, wasmParse(rewrite(sql, false, [], bangs, marks)), bangs, marks);
  } catch (e) {
    if (!(e instanceof ParserMessage)) throw parserFailure(e);
    const msg = e.message;
    if (/recursion limit exceeded/i.test(msg)) throw tooDeep();
    // The dialect binds DIV more loosely than BETWEEN's bounds (`a BETWEEN b DIV 2 AND c` fails):
    // parse DIV as % (same precedence as in MySQL), then turn those operators back into DIV.
    if (/\bDIV\b/i.test(sql)) {
      const mods: boolean[] = [];
      const bangs2: boolean[] = [];
      try {
        const marks2: Marks = {};
        const ast = wasmParse(rewrite(sql, true, mods, bangs2, marks2));
        const ops = binaryOps(ast, 'Modulo');
        if (ops.length === mods.length) {
          ops.forEach((o, i) => {
            if (mods[i]) o.op = 'MyIntegerDivide';
          });
          return marked(sql, ast, bangs2, marks2);
        }
      } catch (again) {
        if (!(again instanceof ParserMessage)) throw parserFailure(again);
        // fall through to the first error
      }
    }
    const analyze = parseAnalyzeList(sql) ?? recognizeStatement(sql, parseTree);
    if (analyze !== undefined) return analyze;
    // DO expr, …: the expressions of a SELECT, evaluated for their effects (the positions of
    // errors inside are 4 columns later than written)
    const doStatement = /^(\s*)DO\b/i.exec(sql);
    if (doStatement !== null) {
      const bangs4: boolean[] = [];
      try {
        const text = `${doStatement[1]}SELECT${sql.slice(doStatement[0].length)}`;
        const ast = markBangs(wasmParse(rewrite(text, false, [], bangs4)), bangs4);
        if (ast.length === 1 && tagOf(ast[0])[0] === 'Query') return [{ Do: tagOf(ast[0])[1] }];
      } catch (again) {
        if (!(again instanceof ParserMessage)) throw parserFailure(again);
        // the first error stands
      }
    }
    const update = commaJoinUpdate(sql);
    if (update !== undefined) {
      const bangs3: boolean[] = [];
      try {
        const marks3: Marks = {};
        return marked(update, wasmParse(rewrite(update, false, [], bangs3, marks3)), bangs3, marks3);
      } catch (again) {
        if (!(again instanceof ParserMessage)) throw parserFailure(again);
        // the first error stands
      }
    }
    throw unsupportedStatement(sql) ?? syntaxError(sql, msg);
  }
}

/**
 * The tree with what the rewrite took out put back: `!` (below) and IGNORE, an `ignore: true` on
 * the UPDATE or DELETE (the dialect's own `UPDATE OR IGNORE` is SQLite's, refused when bound).
 */
function marked(sql: string, ast: unknown[], bangs: readonly boolean[], marks: Marks): unknown[] {
  const [tag, v] = tagOf(ast[0]);
  if (marks.ignore === true && (tag === 'Update' || tag === 'Delete'))
    (v as Record<string, unknown>).ignore = true;
  if (marks.analyze === true && tag === 'Explain') (v as Record<string, unknown>).analyze = true;
  if (marks.duplicates !== undefined && tag === 'CreateTable')
    (v as Record<string, unknown>).duplicates = marks.duplicates;
  for (const at of marks.rollups ?? []) markRollup(sql, ast, at);
  for (const u of marks.units ?? []) markUnit(sql, ast, u.at, u.unit);
  if (marks.intervalCalls !== undefined) markIntervalCalls(sql, ast, marks.intervalCalls);
  return markBangs(ast, bangs);
}

/** Every object node of the tree, in pre-order. */
function eachNode(n: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(n)) {
    for (const x of n) eachNode(x, visit);
    return;
  }
  if (n === null || typeof n !== 'object') return;
  visit(n as Record<string, unknown>);
  for (const v of Object.values(n as Record<string, unknown>)) eachNode(v, visit);
}

/**
 * A two-part unit at offset `at` (parsed as its first part) goes back on its node: the INTERVAL
 * whose amount ends closest before it, or the EXTRACT whose operand starts closest after it.
 */
function markUnit(sql: string, ast: unknown[], at: number, unit: string): void {
  const first = unit.slice(0, unit.indexOf('_'));
  const named = (f: unknown): boolean => typeof f === 'string' && f.toUpperCase() === first;
  let best: { node: Record<string, unknown>; key: string } | undefined;
  let distance = Number.POSITIVE_INFINITY;
  eachNode(ast, (o) => {
    const iv = o.Interval as Record<string, unknown> | undefined;
    if (iv !== undefined && named(iv.leading_field)) {
      const end = furthestEnd(sql, iv.value);
      if (end >= 0 && end <= at && at - end < distance) {
        best = { node: iv, key: 'leading_field' };
        distance = at - end;
      }
    }
    const ex = o.Extract as Record<string, unknown> | undefined;
    if (ex !== undefined && named(ex.field)) {
      const start = earliestStart(sql, ex.expr);
      if (start > at && start - at < distance) {
        best = { node: ex, key: 'field' };
        distance = start - at;
      }
    }
  });
  if (best === undefined) throw syntaxErrorNear(sql, at);
  best.node[best.key] = unit;
}

/** The INTERVAL(…) calls parsed under {@link INTERVAL_CALL}, found by where they begin, renamed. */
function markIntervalCalls(sql: string, ast: unknown[], starts: readonly number[]): void {
  eachNode(ast, (o) => {
    const f = o.Function as Record<string, unknown> | undefined;
    const part = Array.isArray(f?.name) ? (f.name[0] as Record<string, unknown>) : undefined;
    const id = part?.Identifier as
      | { value?: string; span?: { start: { line: number; column: number } } }
      | undefined;
    if (id?.value !== INTERVAL_CALL || id.span === undefined) return;
    if (starts.includes(offsetOf(sql, id.span.start))) id.value = 'INTERVAL';
  });
}

/** The text offset of the earliest span start inside `n` (the text's length when there is none). */
function earliestStart(sql: string, n: unknown): number {
  let start = sql.length;
  eachNode(n, (o) => {
    const span = o.span as { start?: { line: number; column: number } } | undefined;
    if (span?.start !== undefined && span.start.line > 0) start = Math.min(start, offsetOf(sql, span.start));
  });
  return start;
}

/**
 * `WITH ROLLUP` at offset `at` belongs to the GROUP BY that ends closest before it: of the query
 * blocks with a GROUP BY, the one whose grouping expressions reach furthest without passing `at`
 * (the outer one on a tie, as when the last expression is a subquery with its own GROUP BY). It
 * gets the modifier the dialect's tree has for it (`Expressions: [exprs, ['Rollup']]`); a WITH
 * ROLLUP after no GROUP BY is a syntax error there.
 */
function markRollup(sql: string, ast: unknown[], at: number): void {
  let best: unknown[] | undefined;
  let bestEnd = -1;
  eachNode(ast, (o) => {
    const sel = o.Select as Record<string, unknown> | undefined;
    const exprs = (sel?.group_by as { Expressions?: unknown[] } | undefined)?.Expressions;
    if (exprs === undefined || !Array.isArray(exprs[0]) || exprs[0].length === 0) return;
    const end = furthestEnd(sql, exprs[0]);
    if (end <= at && end > bestEnd) {
      best = exprs;
      bestEnd = end;
    }
  });
  const mods = Array.isArray(best?.[1]) ? (best[1] as unknown[]) : [];
  if (best === undefined || mods.includes('Rollup')) throw syntaxErrorNear(sql, at);
  mods.push('Rollup');
  best[1] = mods;
}

/** The text offset of the furthest span end inside `n`. */
function furthestEnd(sql: string, n: unknown): number {
  let end = -1;
  eachNode(n, (o) => {
    const span = o.span as { end?: { line: number; column: number } } | undefined;
    if (span?.end !== undefined && span.end.line > 0) end = Math.max(end, offsetOf(sql, span.end));
  });
  return end;
}

/** The `~` nodes that were `!` in the text become {@link BANG}. */
function markBangs(ast: unknown[], bangs: readonly boolean[]): unknown[] {
  if (!bangs.includes(true)) return ast;
  const ops = tildes(ast);
  if (ops.length !== bangs.length) throw new Error('the parser read a `!` as something other than a prefix');
  ops.forEach((o, i) => {
    if (bangs[i]) o.op = BANG;
  });
  return ast;
}

/**
 * The parser nests one level per parenthesis, function call, unary operator or subquery, up to
 * {@link PARSER_DEPTH} levels; past them it stops with its recursion limit. MariaDB's server
 * parses deeper and stops when its thread stack runs out (1436): both are the same refusal.
 */
export const PARSER_DEPTH = 50;

function tooDeep(): SqlError {
  return new SqlError(
    'ER_STACK_OVERRUN_NEED_MORE',
    `Thread stack overrun: the statement nests expressions more than ${PARSER_DEPTH} levels deep`,
  );
}

/** A trapped parser (its instance was replaced): a tree too deep for its stack, as 1436. */
function parserFailure(e: unknown): unknown {
  if (!(e instanceof ParserTrap)) return e;
  return new SqlError(
    'ER_STACK_OVERRUN_NEED_MORE',
    "Thread stack overrun: the statement's expression tree is too deep for the parser's stack",
  );
}

/** MySQL's 1064 text: "… near '<rest of the statement>' at line N", with the parser's position. */
export function syntaxError(sql: string, parserMessage: string): SqlError {
  const m = /at Line: (\d+), Column: (\d+)/.exec(parserMessage);
  if (m === null) return syntaxErrorNear(sql, undefined);
  return syntaxErrorNear(sql, offsetOf(sql, { line: Number(m[1]), column: Number(m[2]) }));
}
