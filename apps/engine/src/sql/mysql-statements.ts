import { arr, obj, tagOf } from './ast.js';
import { SqlError } from './errors.js';

/**
 * MySQL statements the parser's dialect does not read, recognized on the text once the parser
 * has failed on it, and returned as nodes of their own (or of the parser's shape where it has
 * one): PREPARE … FROM, DEALLOCATE / DROP PREPARE, SHOW CREATE DATABASE, CREATE SCHEMA with
 * CHARACTER SET / COLLATE options (read as the parser reads CREATE DATABASE with them), the ALTER
 * TABLE parts the dialect does not read (table options, FORCE, ALGORITHM / LOCK, IF [NOT] EXISTS,
 * DROP KEY, RENAME INDEX), and LOCK TABLE[S] / UNLOCK TABLE[S] in the forms it does not read. For
 * statements the engine does not implement, {@link unsupportedStatement} names the construct
 * (error 1235) where the parser would only say "syntax error".
 */

const NAME = String.raw`(?:\x60((?:[^\x60]|\x60\x60)+)\x60|([A-Za-z0-9_$]+))`;
const STRING = String.raw`(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)")`;
const PREPARE = new RegExp(String.raw`^\s*PREPARE\s+${NAME}\s+FROM\s+(?:${STRING}|@${NAME})\s*;?\s*$`, 'is');
const DEALLOCATE = new RegExp(String.raw`^\s*(?:DEALLOCATE|DROP)\s+PREPARE\s+${NAME}\s*;?\s*$`, 'i');
const SHOW_CREATE_DB = new RegExp(
  String.raw`^\s*SHOW\s+CREATE\s+(?:DATABASE|SCHEMA)\s+(IF\s+NOT\s+EXISTS\s+)?${NAME}\s*;?\s*$`,
  'i',
);

const CREATE_SCHEMA_OPTIONS = new RegExp(
  String.raw`^\s*CREATE\s+SCHEMA\s+(IF\s+NOT\s+EXISTS\s+)?${NAME}((?:\s+(?:DEFAULT\s+)?(?:CHARACTER\s+SET|CHARSET|COLLATE)\s*=?\s*\w+)+)\s*;?\s*$`,
  'i',
);
const VERSIONED = /^(?:\s|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$))*\/\*!\d*\s*([\s\S]*?)\s*\*\/\s*;?\s*$/;
const DB_OPTION = /(?:DEFAULT\s+)?(CHARACTER\s+SET|CHARSET|COLLATE)\s*=?\s*(\w+)/gi;

function name(m: RegExpExecArray, at: number): string {
  return m[at] !== undefined ? m[at]!.replace(/``/g, '`') : m[at + 1]!;
}

/** A string literal's text: backslash escapes as MySQL reads them, a doubled quote as one. */
export function unquote(body: string, quote: string): string {
  return body.replace(/\\(.)/gs, (_all, c: string) => ESCAPES[c] ?? c).replaceAll(quote + quote, quote);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
};

/** The statement node for text the parser failed on, or undefined. */
/**
 * A statement written whole inside an executable comment (`/*!50001 … *\/`, after comment lines)
 * as its contents.
 */
export function unversioned(text: string): string {
  return VERSIONED.exec(text)?.[1] ?? text;
}

/**
 * A statement the dialect does not read, as the tree it would have made (undefined: not one of
 * them); `parse` reads the parts of it the dialect does.
 */
export function recognizeStatement(text: string, parse: (text: string) => unknown[]): unknown[] | undefined {
  // mysqldump writes some statements whole inside an executable comment
  const sql = unversioned(text);
  let m = PREPARE.exec(sql);
  if (m !== null) {
    const stmt = name(m, 1);
    if (m[3] !== undefined) return [{ PrepareFrom: { name: stmt, text: unquote(m[3], "'") } }];
    if (m[4] !== undefined) return [{ PrepareFrom: { name: stmt, text: unquote(m[4], '"') } }];
    return [{ PrepareFrom: { name: stmt, variable: name(m, 5) } }];
  }
  m = DEALLOCATE.exec(sql);
  if (m !== null) return [{ Deallocate: { name: { value: name(m, 1) }, prepare: true } }];
  m = CREATE_SCHEMA_OPTIONS.exec(sql);
  if (m !== null) {
    let charset: string | undefined;
    let collation: string | undefined;
    for (const o of m[4]!.matchAll(DB_OPTION)) {
      if (o[1]!.toUpperCase() === 'COLLATE') collation = o[2]!;
      else charset = o[2]!;
    }
    return [
      {
        CreateDatabase: {
          db_name: [{ Identifier: { value: name(m, 2) } }],
          if_not_exists: m[1] !== undefined,
          ...(charset === undefined ? {} : { default_charset: charset }),
          ...(collation === undefined ? {} : { default_collation: collation }),
        },
      },
    ];
  }
  const alter = alterTableParts(sql, parse);
  if (alter !== undefined) return alter;
  const lock = lockTables(sql);
  if (lock !== undefined) return lock;
  if (/^\s*UNLOCK\s+TABLES?\s*;?\s*$/i.test(sql)) return ['UnlockTables'];
  m = SHOW_CREATE_DB.exec(sql);
  if (m !== null) return [{ ShowCreateDatabase: { name: name(m, 2), ifNotExists: m[1] !== undefined } }];
  return undefined;
}

const ALTER_TABLE = new RegExp(
  String.raw`^\s*ALTER\s+(?:ONLINE\s+)?TABLE\s+${NAME}(?:\s*\.\s*${NAME})?\s+(?=\S)`,
  'iy',
);
/** One table option of an ALTER TABLE (the dialect reads none of them there). */
const TABLE_OPTION = new RegExp(
  String.raw`\s*(?:(ENGINE|ROW_FORMAT|AUTO_INCREMENT|STATS_PERSISTENT|STATS_AUTO_RECALC|STATS_SAMPLE_PAGES)\s*=?\s*(\w+)|(DEFAULT\s+)?(CHARACTER\s+SET|CHARSET|COLLATE)\s*=?\s*(\w+)|COMMENT\s*=?\s*${STRING}|(DISABLE|ENABLE)\s+KEYS\b|(FORCE)\b|(ALGORITHM|LOCK)\s*=?\s*(\w+))\s*`,
  'iy',
);

/**
 * `ALTER TABLE t` whose comma-separated parts the dialect does not read all of: table options
 * (`ENGINE = InnoDB`, `AUTO_INCREMENT = 100`, `COMMENT = '…'`, `STATS_PERSISTENT = 1`,
 * `[DEFAULT] CHARSET / COLLATE = …`, `ROW_FORMAT = …`, `DISABLE KEYS` / `ENABLE KEYS`), `FORCE`,
 * and `ALGORITHM = …` / `LOCK = …` written before an operation. The options become one
 * operation holding them in the shape CREATE TABLE's `table_options` have, so both are read by
 * the same code; FORCE a `Force` operation; the other parts (column and index operations) are
 * parsed by `parse` as an ALTER TABLE of their own and their operations kept, in order.
 */
function alterTableParts(sql: string, parse: (text: string) => unknown[]): unknown[] | undefined {
  ALTER_TABLE.lastIndex = 0;
  const head = ALTER_TABLE.exec(sql);
  if (head === null) return undefined;
  const parts =
    head[3] === undefined && head[4] === undefined ? [name(head, 1)] : [name(head, 1), name(head, 3)];
  const plain: unknown[] = [];
  const extra: unknown[] = [];
  const operations: unknown[] = [];
  // whether a part is one the dialect does not read (else its error for the whole text stands)
  let recognized = false;
  const body = sql.slice(head[0].length).replace(/\s*;?\s*$/, '');
  for (const part of topLevelParts(body)) {
    const own = indexOperation(part);
    if (own !== undefined) {
      operations.push(own);
      recognized = true;
      continue;
    }
    let at = 0;
    const found: RegExpExecArray[] = [];
    let options = true;
    while (at < part.length) {
      TABLE_OPTION.lastIndex = at;
      const o = TABLE_OPTION.exec(part);
      if (o === null || o[0].trim() === '') {
        options = false;
        break;
      }
      at = TABLE_OPTION.lastIndex;
      found.push(o);
    }
    if (!options || found.length === 0) {
      // a part the dialect reads, parsed as an ALTER TABLE of its own; MariaDB's IF NOT EXISTS
      // of ADD COLUMN / ADD INDEX is taken off first and marked on the operation
      const ine = ADD_IF_NOT_EXISTS.exec(part);
      const text =
        ine === null ? part : `ADD ${(ine[1] ?? '').replace(/\s+/g, ' ')}${part.slice(ine[0].length)}`;
      let trees: unknown[];
      try {
        trees = parse(`${head[0]}${text}`);
      } catch {
        return undefined;
      }
      const ops = arr(obj(tagOf(trees[0])[1]).operations);
      if (ine !== null) {
        recognized = true;
        for (const op of ops) {
          const [t, v] = tagOf(op);
          if (t === 'AddColumn') obj(v).if_not_exists = true;
          else if (t === 'AddConstraint') obj(v).if_not_exists = true;
        }
      }
      operations.push(...ops);
      continue;
    }
    recognized = true;
    for (const o of found) {
      if (o[1] !== undefined) {
        const word = o[2]!;
        const value = /^\d+$/.test(word)
          ? { Value: { value: { Number: [word, false] } } }
          : { Identifier: { value: word } };
        plain.push({ KeyValue: { key: { value: o[1].toUpperCase() }, value } });
      } else if (o[4] !== undefined) {
        const key = `${o[3] === undefined ? '' : 'DEFAULT '}${o[4].toUpperCase().replace(/\s+/g, ' ')}`;
        plain.push({ KeyValue: { key: { value: key }, value: { Identifier: { value: o[5]! } } } });
      } else if (o[8] !== undefined) {
        // DISABLE / ENABLE KEYS (mysqldump writes them around each table's rows)
        plain.push({
          KeyValue: { key: { value: 'KEYS' }, value: { Identifier: { value: o[8].toUpperCase() } } },
        });
      } else if (o[9] !== undefined) extra.push({ Force: {} });
      else if (o[10] !== undefined)
        extra.push({ [o[10].toUpperCase() === 'LOCK' ? 'Lock' : 'Algorithm']: o[11] });
      else {
        const text = o[6] !== undefined ? unquote(o[6], "'") : unquote(o[7]!, '"');
        plain.push({ Comment: { WithEq: text } });
      }
    }
  }
  if (!recognized) return undefined;
  operations.push(...extra);
  if (plain.length > 0) operations.push({ TableOptions: { Plain: plain } });
  const name_ = parts.map((v) => ({ Identifier: { value: v } }));
  return [{ AlterTable: { name: name_, operations } }];
}

/** `ADD [COLUMN] IF NOT EXISTS`, `ADD [UNIQUE] {INDEX | KEY} IF NOT EXISTS` (MariaDB's). */
const ADD_IF_NOT_EXISTS = /^ADD\s+(COLUMN\s+|(?:UNIQUE\s+)?(?:INDEX|KEY)\s+|UNIQUE\s+)?IF\s+NOT\s+EXISTS\s+/i;
const DROP_INDEX = new RegExp(String.raw`^DROP\s+(?:INDEX|KEY)\s+(IF\s+EXISTS\s+)?${NAME}$`, 'i');
// (to the bare word PRIMARY it is MariaDB's syntax error)
const RENAME_INDEX = new RegExp(
  String.raw`^RENAME\s+(?:INDEX|KEY)\s+${NAME}\s+TO\s+(?!PRIMARY$)${NAME}$`,
  'i',
);

/**
 * `DROP {INDEX | KEY} [IF EXISTS] i` and `RENAME {INDEX | KEY} i TO j`, which the dialect reads
 * only in part, as operations (DropIndex as the parser's, with `if_exists`; RenameIndex).
 */
function indexOperation(part: string): unknown {
  let m = DROP_INDEX.exec(part);
  if (m !== null) return { DropIndex: { name: { value: name(m, 2) }, if_exists: m[1] !== undefined } };
  m = RENAME_INDEX.exec(part);
  if (m !== null) return { RenameIndex: { from: { value: name(m, 1) }, to: { value: name(m, 3) } } };
  return undefined;
}

/** `text` split at its commas outside parentheses and quotes, each part trimmed. */
function topLevelParts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\' && c !== '`') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(text.slice(from).trim());
  return out.filter((p) => p !== '');
}

const LOCK_HEAD = /^\s*LOCK\s+TABLES?\s+/iy;
/** One table of LOCK TABLES: name, optional alias, lock type. */
const LOCK_ITEM = new RegExp(
  String.raw`${NAME}(?:\s*\.\s*${NAME})?(?:\s+(?:AS\s+)?(?!(?:READ|WRITE|LOW_PRIORITY)\b)${NAME})?\s+(READ(\s+LOCAL)?|(LOW_PRIORITY\s+)?WRITE(\s+CONCURRENT)?)\b\s*`,
  'iy',
);
const LOCK_TAIL = /(?:,\s*|(?:WAIT\s+(\d+)|(NOWAIT))?\s*;?\s*$)/iy;

/**
 * `LOCK TABLE[S] [db.]t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE [CONCURRENT]}, …
 * [WAIT n | NOWAIT]` as the parser's LockTables tree (the dialect reads only the plural form
 * of unqualified names), with `schema` beside a qualified table and the wait in `wait`.
 */
function lockTables(sql: string): unknown[] | undefined {
  LOCK_HEAD.lastIndex = 0;
  if (LOCK_HEAD.exec(sql) === null) return undefined;
  let at = LOCK_HEAD.lastIndex;
  const tables: unknown[] = [];
  for (;;) {
    LOCK_ITEM.lastIndex = at;
    const m = LOCK_ITEM.exec(sql);
    if (m === null) return undefined;
    const qualified = m[3] !== undefined || m[4] !== undefined;
    const read = m[7]!.toUpperCase().startsWith('READ');
    tables.push({
      table: { value: qualified ? name(m, 3) : name(m, 1) },
      ...(qualified ? { schema: { value: name(m, 1) } } : {}),
      ...(m[5] !== undefined || m[6] !== undefined ? { alias: { value: name(m, 5) } } : {}),
      lock_type: read
        ? { Read: { local: m[8] !== undefined } }
        : { Write: { low_priority: m[9] !== undefined } },
    });
    LOCK_TAIL.lastIndex = LOCK_ITEM.lastIndex;
    const t = LOCK_TAIL.exec(sql);
    if (t === null) return undefined;
    at = LOCK_TAIL.lastIndex;
    if (at === sql.length) {
      const wait = t[1] !== undefined ? Number(t[1]) : t[2] !== undefined ? 0 : undefined;
      return [{ LockTables: { tables, ...(wait === undefined ? {} : { wait }) } }];
    }
    if (t[1] !== undefined || t[2] !== undefined) return undefined;
  }
}

/** Leading words of statements the engine does not implement, and the name 1235 gives them. */
const UNSUPPORTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/^CREATE\s+(?:DEFINER\s*=\s*\S+\s+)?TRIGGER\b/i, 'CREATE TRIGGER'],
  [/^CREATE\s+(?:OR\s+REPLACE\s+)?(?:DEFINER\s*=\s*\S+\s+)?PROCEDURE\b/i, 'CREATE PROCEDURE'],
  [/^CREATE\s+(?:OR\s+REPLACE\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:AGGREGATE\s+)?FUNCTION\b/i, 'CREATE FUNCTION'],
  [/^CREATE\s+(?:OR\s+REPLACE\s+)?(?:DEFINER\s*=\s*\S+\s+)?EVENT\b/i, 'CREATE EVENT'],
  [/^CREATE\s+(?:OR\s+REPLACE\s+)?SERVER\b/i, 'CREATE SERVER'],
  [/^ALTER\s+(?:DATABASE|SCHEMA)\b/i, 'ALTER DATABASE'],
  [/^LOAD\s+(?:DATA|XML)\b/i, 'LOAD DATA'],
  [/^HANDLER\b/i, 'HANDLER'],
  [/^(?:OPTIMIZE|CHECK|REPAIR|CHECKSUM)\s+(?:NO_WRITE_TO_BINLOG\s+|LOCAL\s+)?TABLES?\b/i, ''],
  [/^XA\b/i, 'XA'],
  [/^(?:SIGNAL|RESIGNAL|GET\s+DIAGNOSTICS)\b/i, ''],
  [/^(?:INSTALL|UNINSTALL)\s+(?:PLUGIN|SONAME)\b/i, ''],
  [/^BEGIN\s+NOT\s+ATOMIC\b/i, 'BEGIN NOT ATOMIC'],
  [/^SELECT\b[\s\S]*\bINTO\s+(?:OUTFILE|DUMPFILE)\b/i, 'SELECT … INTO OUTFILE'],
];

/** Error 1235 naming a statement the engine does not implement, or undefined for other text. */
export function unsupportedStatement(sql: string): SqlError | undefined {
  const text = sql.replace(/^(?:\s|\/\*[\s\S]*?\*\/|--[^\n]*\n|#[^\n]*\n)+/, '');
  for (const [re, what] of UNSUPPORTED) {
    const m = re.exec(text);
    if (m === null) continue;
    const construct = what === '' ? m[0].replace(/\s+/g, ' ').toUpperCase() : what;
    return new SqlError('ER_NOT_SUPPORTED_YET', `This version of MySQL doesn't yet support '${construct}'`);
  }
  return undefined;
}

/**
 * `UPDATE a, b SET …` (MySQL's comma list of tables) as `UPDATE a JOIN b SET …`, which the parser
 * reads; undefined when the text is not an UPDATE with a top-level comma before its SET.
 */
export function commaJoinUpdate(sql: string): string | undefined {
  const start = /^\s*UPDATE\s+(?:LOW_PRIORITY\s+)?(?:IGNORE\s+)?/i.exec(sql);
  if (start === null) return undefined;
  let depth = 0;
  const commas: number[] = [];
  for (let i = start[0].length; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === '`') {
      const j = sql.indexOf(c, i + 1);
      if (j < 0) return undefined;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && c === ',') commas.push(i);
    else if (depth === 0 && /[Ss]/.test(c) && /^SET\b/i.test(sql.slice(i)) && /\s/.test(sql[i - 1]!)) break;
  }
  if (commas.length === 0) return undefined;
  let out = '';
  let from = 0;
  for (const at of commas) {
    out += `${sql.slice(from, at)} JOIN`;
    from = at + 1;
  }
  return out + sql.slice(from);
}
