import { SqlError } from '../sql/errors.js';
import { T_STR } from '../exec/types.js';
import { type Account, type AccountName, type Accounts, PRIVILEGES, quoted } from './accounts.js';
import { adminDenied, isAdmin } from './privileges.js';
import { okResult, type QueryResult } from './result.js';

/**
 * CREATE USER, DROP USER, ALTER USER … IDENTIFIED BY, SET PASSWORD, GRANT, REVOKE and SHOW GRANTS,
 * read from the statement text (the SQL parser's MySQL dialect does not know `'user'@'host'`).
 * Only an administrator (global ALL) manages accounts; anyone may see their own grants and set
 * their own password.
 */

type Token = { readonly kind: 'word' | 'str' | 'sym'; readonly text: string };

function tokens(sql: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let s = '';
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) return undefined;
        const d = sql[j]!;
        if (d === '\\' && c !== '`' && j + 1 < sql.length) {
          s += sql[j + 1];
          j += 2;
        } else if (d === c) {
          if (sql[j + 1] === c) {
            s += c;
            j += 2;
          } else break;
        } else {
          s += d;
          j++;
        }
      }
      out.push({ kind: c === '`' ? 'word' : 'str', text: s });
      i = j + 1;
      continue;
    }
    const m = /^[A-Za-z0-9_$]+/.exec(sql.slice(i, i + 256));
    if (m !== null) {
      out.push({ kind: 'word', text: m[0] });
      i += m[0].length;
      continue;
    }
    out.push({ kind: 'sym', text: c });
    i++;
  }
  while (out.at(-1)?.text === ';') out.pop();
  return out;
}

class Reader {
  readonly #t: Token[];
  #i = 0;
  constructor(t: Token[]) {
    this.#t = t;
  }
  peek(word?: string): boolean {
    const t = this.#t[this.#i];
    return t !== undefined && (word === undefined || (t.kind !== 'str' && t.text.toUpperCase() === word));
  }
  accept(...words: string[]): boolean {
    const at = this.#i;
    for (const w of words) {
      if (!this.peek(w)) {
        this.#i = at;
        return false;
      }
      this.#i++;
    }
    return true;
  }
  expect(...words: string[]): void {
    if (!this.accept(...words)) throw this.error();
  }
  next(): Token {
    const t = this.#t[this.#i++];
    if (t === undefined) throw this.error();
    return t;
  }
  get done(): boolean {
    return this.#i >= this.#t.length;
  }
  error(): SqlError {
    const rest = this.#t
      .slice(this.#i)
      .map((t) => (t.kind === 'str' ? `'${t.text}'` : t.text))
      .join(' ');
    return new SqlError(
      'ER_PARSE_ERROR',
      `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${rest.slice(0, 80)}' at line 1`,
    );
  }
}

/** What runs an account statement: the session's account (undefined: the embedded API, all rights). */
export interface AccountContext {
  readonly accounts: Accounts;
  readonly account: Account | undefined;
  readonly name: AccountName | undefined;
  /** The session's current database (`ON *` and `ON t` are in it; null: none chosen, 1046). */
  readonly database: string | null;
}

const STARTS = /^\s*(CREATE\s+USER|DROP\s+USER|ALTER\s+USER|GRANT|REVOKE|SHOW\s+GRANTS|SET\s+PASSWORD)\b/i;

/**
 * Whether `sql` is an account statement, which this module parses and runs (CREATE / DROP /
 * ALTER USER, GRANT, REVOKE, SET PASSWORD change the accounts; SHOW GRANTS reads them), and
 * which of the two; undefined: not one.
 */
export function accountStatement(sql: string): 'writes' | 'reads' | undefined {
  const m = STARTS.exec(sql);
  if (m === null) return undefined;
  return /^SHOW/i.test(m[1]!) ? 'reads' : 'writes';
}

/** Runs `sql` when it is an account statement; undefined when it is not one. */
export function runAccountStatement(sql: string, ctx: AccountContext): QueryResult | undefined {
  if (accountStatement(sql) === undefined) return undefined;
  const t = tokens(sql);
  if (t === undefined) return undefined;
  const r = new Reader(t);
  const admin = (what: string): void => {
    if (ctx.account !== undefined && !isAdmin(ctx.account)) throw adminDenied(what);
  };
  if (r.accept('CREATE', 'USER')) {
    admin('CREATE USER');
    const ifNot = r.accept('IF', 'NOT', 'EXISTS');
    let warnings = 0;
    do {
      const a = account(r, ctx);
      const pw = r.accept('IDENTIFIED', 'BY') ? str(r) : '';
      if (!ctx.accounts.create(a, pw, ifNot)) warnings++;
    } while (r.accept(','));
    end(r);
    return okResult(0, 0, warnings);
  }
  if (r.accept('DROP', 'USER')) {
    admin('CREATE USER');
    const ifExists = r.accept('IF', 'EXISTS');
    do ctx.accounts.drop(account(r, ctx), ifExists);
    while (r.accept(','));
    end(r);
    return okResult();
  }
  if (r.accept('ALTER', 'USER')) {
    admin('CREATE USER');
    r.accept('IF', 'EXISTS');
    const a = account(r, ctx);
    r.expect('IDENTIFIED', 'BY');
    ctx.accounts.setPassword(a, str(r));
    end(r);
    return okResult();
  }
  if (r.accept('SET', 'PASSWORD')) {
    const a = r.accept('FOR') ? account(r, ctx) : self(ctx);
    if (ctx.name === undefined || a.user !== ctx.name.user || a.host !== ctx.name.host) admin('CREATE USER');
    r.expect('=');
    let pw: string;
    if (r.accept('PASSWORD')) {
      r.expect('(');
      pw = str(r);
      r.expect(')');
    } else pw = str(r);
    end(r);
    ctx.accounts.setPassword(a, pw, 'SET PASSWORD');
    return okResult();
  }
  if (r.accept('SHOW', 'GRANTS')) {
    let a: AccountName;
    if (r.accept('FOR')) {
      a = account(r, ctx);
    } else a = self(ctx);
    end(r);
    if (ctx.name === undefined || a.user !== ctx.name.user || a.host !== ctx.name.host) admin('SELECT');
    const acc = ctx.accounts.get(a);
    if (acc === undefined)
      throw new SqlError(
        'ER_NONEXISTING_GRANT',
        `There is no such grant defined for user '${a.user}' on host '${a.host}'`,
      );
    const title = `Grants for ${a.user}@${a.host}`;
    return {
      columns: [title],
      rows: grantLines(acc).map((l) => [l]),
      affectedRows: 0,
      insertId: 0,
      warnings: 0,
      types: [T_STR],
    };
  }
  const granting = r.accept('GRANT');
  if (granting || r.accept('REVOKE')) {
    admin('GRANT OPTION');
    const privs = privileges(r);
    r.expect('ON');
    r.accept('TABLE');
    const { db, table } = level(r, ctx.database);
    r.expect(granting ? 'TO' : 'FROM');
    do {
      const a = account(r, ctx);
      if (granting) ctx.accounts.grant(a, privs, db, table);
      else ctx.accounts.revoke(a, privs, db, table);
    } while (r.accept(','));
    end(r);
    return okResult();
  }
  return undefined;
}

function end(r: Reader): void {
  if (!r.done) throw r.error();
}

function str(r: Reader): string {
  const t = r.next();
  if (t.kind !== 'str') throw r.error();
  return t.text;
}

function self(ctx: AccountContext): AccountName {
  return ctx.name ?? { user: 'root', host: 'localhost' };
}

/** `user[@host]`, `'user'@'host'`, or CURRENT_USER[()]; the host defaults to '%'. */
function account(r: Reader, ctx: AccountContext): AccountName {
  if (r.accept('CURRENT_USER')) {
    if (r.accept('(')) r.expect(')');
    return self(ctx);
  }
  const u = r.next();
  if (u.kind === 'sym') throw r.error();
  let user = u.text;
  let host = '%';
  // a bare user@host is one word to the tokenizer up to '@'
  if (r.accept('@')) {
    const h = r.next();
    if (h.kind === 'sym') throw r.error();
    host = h.text;
    // a bare host name with dots (`bob@host.example`)
    while (h.kind === 'word' && r.accept('.')) host += `.${r.next().text}`;
  }
  if (user.length > 80)
    throw new SqlError('ER_CANNOT_USER', `Operation CREATE USER failed for ${quoted({ user, host })}`);
  user = user.trim();
  return { user, host: host.toLowerCase() === 'localhost' ? 'localhost' : host };
}

/** ALL [PRIVILEGES] or a list of the privileges the engine checks. */
function privileges(r: Reader): string[] {
  if (r.accept('ALL')) {
    r.accept('PRIVILEGES');
    return ['ALL'];
  }
  const out: string[] = [];
  do {
    const t = r.next();
    const p = t.text.toUpperCase();
    if (t.kind !== 'word' || !(PRIVILEGES as readonly string[]).includes(p))
      throw new SqlError(
        'ER_NOT_SUPPORTED_YET',
        `This version of MySQL doesn't yet support 'the ${t.text} privilege' (SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, ALTER and ALL are)`,
      );
    out.push(p);
  } while (r.accept(','));
  return out;
}

/** `*.*` (global), `db.*`, `db.table`, `*` or `table` (the current database). */
function level(r: Reader, current: string | null): { db: string | undefined; table: string | undefined } {
  const first = r.next();
  const star = (t: Token): boolean => t.kind === 'sym' && t.text === '*';
  if (r.accept('.')) {
    const second = r.next();
    if (star(first)) {
      if (!star(second)) throw r.error();
      return { db: undefined, table: undefined };
    }
    return { db: first.text, table: star(second) ? undefined : second.text };
  }
  if (current === null) throw new SqlError('ER_NO_DB_ERROR', 'No database selected');
  if (star(first)) return { db: current, table: undefined };
  return { db: current, table: first.text };
}

function privText(list: readonly string[]): string {
  if (list.includes('ALL')) return 'ALL PRIVILEGES';
  return PRIVILEGES.filter((p) => list.includes(p)).join(', ');
}

/** SHOW GRANTS lines, as MariaDB prints them. */
export function grantLines(a: Account): string[] {
  const to = `\`${a.user}\`@\`${a.host}\``;
  const pw = a.hash === '' ? '' : ` IDENTIFIED BY PASSWORD '${a.hash}'`;
  const lines = [`GRANT ${a.global.length > 0 ? privText(a.global) : 'USAGE'} ON *.* TO ${to}${pw}`];
  for (const [db, list] of Object.entries(a.dbs))
    if (list.length > 0) lines.push(`GRANT ${privText(list)} ON \`${db}\`.* TO ${to}`);
  for (const [k, list] of Object.entries(a.tables)) {
    if (list.length === 0) continue;
    const dot = k.indexOf('.');
    lines.push(`GRANT ${privText(list)} ON \`${k.slice(0, dot)}\`.\`${k.slice(dot + 1)}\` TO ${to}`);
  }
  return lines;
}
