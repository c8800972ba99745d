// sqllogictest file format (SQLite's sqllogictest, `about.wiki`): records separated by blank
// lines, `#` comments, each record optionally preceded by `skipif ENGINE` / `onlyif ENGINE`
// condition lines. Record kinds:
//   statement ok | statement error      then the SQL (one or more lines)
//   query TYPES SORT [LABEL]           then the SQL, a `----` line, the expected values (one a line,
//                                       or `N values hashing to MD5`)
//   hash-threshold N                    hash results of more than N values
//   halt                                stop reading the file (under its conditions)
// This module only parses; it does not decide which records run (see `appliesTo`).

/**
 * @typedef {{ kind: 'statement', line: number, conditions: Condition[], expectError: boolean, sql: string }} StatementRecord
 * @typedef {{ kind: 'query', line: number, conditions: Condition[], types: string, sort: 'nosort'|'rowsort'|'valuesort', label: string|undefined, sql: string, expected: string[] }} QueryRecord
 * @typedef {{ kind: 'hash-threshold', line: number, conditions: Condition[], threshold: number }} ThresholdRecord
 * @typedef {{ kind: 'halt', line: number, conditions: Condition[] }} HaltRecord
 * @typedef {StatementRecord | QueryRecord | ThresholdRecord | HaltRecord} SltRecord
 * @typedef {{ skip: boolean, engine: string }} Condition  skip=true for skipif, false for onlyif
 */

const SORTS = new Set(['nosort', 'rowsort', 'valuesort']);

/** Thrown for a line the format does not allow; names the file and line. */
export class SltFormatError extends Error {
  /** @param {string} file @param {number} line @param {string} what */
  constructor(file, line, what) {
    super(`${file}:${line}: ${what}`);
    this.name = 'SltFormatError';
  }
}

/**
 * Parse a whole `.test` file.
 * @param {string} text
 * @param {string} [file] used in error messages
 * @returns {SltRecord[]}
 */
export function parseSlt(text, file = '<input>') {
  const lines = text.split('\n');
  /** @type {SltRecord[]} */
  const out = [];
  let i = 0;
  const n = lines.length;
  const clean = (/** @type {string} */ s) => (s.endsWith('\r') ? s.slice(0, -1) : s);
  while (i < n) {
    let line = clean(lines[i]);
    if (line.trim() === '' || line.startsWith('#')) {
      i++;
      continue;
    }
    /** @type {Condition[]} */
    const conditions = [];
    const start = i + 1;
    // condition lines: `skipif mysql # comment`
    for (;;) {
      const words = line.split(/\s+/);
      if (words[0] === 'skipif' || words[0] === 'onlyif') {
        if (words[1] === undefined || words[1] === '')
          throw new SltFormatError(file, i + 1, `${words[0]} needs an engine name`);
        conditions.push({ skip: words[0] === 'skipif', engine: words[1] });
        i++;
        if (i >= n) throw new SltFormatError(file, i, 'condition at end of file');
        line = clean(lines[i]);
        continue;
      }
      break;
    }
    const head = line.trim().split(/\s+/);
    const at = i + 1;
    i++;
    // the body: lines up to a blank line
    /** @type {string[]} */
    const body = [];
    while (i < n && clean(lines[i]).trim() !== '') {
      body.push(clean(lines[i]));
      i++;
    }
    switch (head[0]) {
      case 'statement': {
        if (head[1] !== 'ok' && head[1] !== 'error')
          throw new SltFormatError(file, at, `statement must be 'ok' or 'error', got '${head[1] ?? ''}'`);
        if (body.length === 0) throw new SltFormatError(file, at, 'statement without SQL');
        out.push({
          kind: 'statement',
          line: start,
          conditions,
          expectError: head[1] === 'error',
          sql: body.join('\n'),
        });
        break;
      }
      case 'query': {
        const types = head[1] ?? '';
        if (!/^[ITR]+$/.test(types))
          throw new SltFormatError(file, at, `query types must be I, T or R letters, got '${types}'`);
        const sort = head[2] ?? 'nosort';
        if (!SORTS.has(sort)) throw new SltFormatError(file, at, `unknown sort mode '${sort}'`);
        const sep = body.indexOf('----');
        const sqlLines = sep < 0 ? body : body.slice(0, sep);
        if (sqlLines.length === 0) throw new SltFormatError(file, at, 'query without SQL');
        out.push({
          kind: 'query',
          line: start,
          conditions,
          types,
          sort: /** @type {'nosort'|'rowsort'|'valuesort'} */ (sort),
          label: head[3],
          sql: sqlLines.join('\n'),
          expected: sep < 0 ? [] : body.slice(sep + 1),
        });
        break;
      }
      case 'hash-threshold': {
        const threshold = Number(head[1]);
        if (!Number.isInteger(threshold) || threshold < 0)
          throw new SltFormatError(file, at, `hash-threshold needs a count, got '${head[1] ?? ''}'`);
        out.push({ kind: 'hash-threshold', line: start, conditions, threshold });
        break;
      }
      case 'halt':
        out.push({ kind: 'halt', line: start, conditions });
        break;
      default:
        throw new SltFormatError(file, at, `unknown record '${head[0]}'`);
    }
  }
  return out;
}

/**
 * Whether a record applies to `engine`: no `skipif engine`, and every `onlyif` names it.
 * @param {SltRecord} record
 * @param {string} engine
 */
export function appliesTo(record, engine) {
  for (const c of record.conditions) {
    if (c.skip ? c.engine === engine : c.engine !== engine) return false;
  }
  return true;
}

/**
 * The records that run for `engine`, in order, up to the first `halt` that applies.
 * @param {SltRecord[]} records
 * @param {string} engine
 * @returns {SltRecord[]}
 */
export function recordsFor(records, engine) {
  /** @type {SltRecord[]} */
  const out = [];
  for (const r of records) {
    if (!appliesTo(r, engine)) continue;
    if (r.kind === 'halt') break;
    out.push(r);
  }
  return out;
}
