import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { noWords, parseArgs, stringOption, UsageError } from './cli-args.js';
import { Session } from '../session/session.js';
import { SqlError } from '../sql/errors.js';
import { Database } from '../storage/database.js';
import { formatError, formatResult, type OutputFormat } from '../sql-cli/format.js';
import { startRepl } from '../sql-cli/repl.js';
import { splitStatements } from '../sql/split.js';
import { checkOpenTarget } from './internal/target.js';
import { SQL } from './usage.js';

/**
 * `enginekit sql --db FILE [--create] [-e "SQL"] [--format table|tsv|json]`: runs the statements
 * given with `-e` and exits (status 1 after an error), or reads statements interactively
 * (sql-cli/repl.ts). FILE must exist unless `--create` is given. History is kept in
 * ~/.enginekit_history.
 */
export function sqlCommand(argv: readonly string[]): void {
  const fixed = argv.map((a) => (a === '-e' ? '--execute' : a));
  const args = parseArgs(fixed, SQL.spec);
  noWords(args, SQL.spec);
  const path = resolve(stringOption(args, 'db', 'sql'));
  const format = (stringOption(args, 'format', 'sql', undefined) ?? 'table') as OutputFormat;
  if (!['table', 'tsv', 'json'].includes(format))
    throw new UsageError(`sql: --format must be table, tsv or json, got '${format}'`);
  const db =
    checkOpenTarget(path, args.options.has('create')) === 'create'
      ? Database.create(path)
      : Database.open(path);
  const session = new Session(db);
  const exec = args.options.get('execute');
  if (typeof exec === 'string') {
    let failed = false;
    try {
      for (const st of splitStatements(exec)) {
        if (!runOne(session, st.sql, format, st.vertical, format === 'table' ? 'batch' : 'raw')) {
          failed = true;
          break;
        }
      }
    } finally {
      db.close();
    }
    if (failed) process.exitCode = 1;
    return;
  }
  repl(db, session, format);
}

/** Runs one statement and prints; returns false after an error. */
function runOne(
  session: Session,
  sql: string,
  format: OutputFormat,
  vertical: boolean,
  mode: 'batch' | 'interactive' | 'raw',
): boolean {
  const t = performance.now();
  try {
    const r = session.query(sql);
    let out = formatResult(r, format, vertical, (performance.now() - t) / 1000);
    // `-e` prints tables without the timing line, as `mysql -e` does
    if (mode === 'batch' && format === 'table')
      out = out
        .replace(/^(\d+ rows? in set|Empty set|Query OK.*?) \(\d+\.\d+ sec\)\n$/m, '')
        .replace(/\n$/, '\n');
    process.stdout.write(out);
    return true;
  } catch (e) {
    if (e instanceof SqlError) {
      process.stderr.write(formatError(e));
      return false;
    }
    throw e;
  }
}

function repl(db: Database, session: Session, format: OutputFormat): void {
  const historyFile = join(homedir(), '.enginekit_history');
  const history: string[] = [];
  try {
    if (existsSync(historyFile))
      history.push(
        ...readFileSync(historyFile, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .slice(-1000),
      );
  } catch {
    // no history: start empty
  }
  process.stdout.write(`Connected to ${db.path}. Statements end with ; or \\G. Ctrl-D quits.\n`);
  startRepl({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY === true,
    history,
    run: (sql, vertical) => void runOne(session, sql, format, vertical, 'interactive'),
    onClose: () => {
      try {
        writeFileSync(historyFile, `${history.slice(-1000).join('\n')}\n`, { mode: 0o600 });
      } catch {
        // a read-only home: history is not kept
      }
      db.close();
      process.stdout.write('Bye\n');
    },
  });
}
