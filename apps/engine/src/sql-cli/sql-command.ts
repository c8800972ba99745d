import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { checkDatabasePath } from '../commands/internal/target.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { noWords, parseArgs, stringOption, UsageError } from '../cli-args.js';
import { SQL } from '../commands/usage.js';
import type { Session } from '../session/session.js';
import { SqlError } from '../sql/errors.js';
import { Database } from '../storage/database.js';
import { formatError, formatResult, type OutputFormat } from './format.js';
import { splitStatements } from './split.js';

/**
 * `enginekit sql --db FILE [-e "SQL"] [--format table|tsv|json]`: runs the statements given with
 * `-e` and exits (status 1 after an error), or reads statements interactively: a statement ends at
 * `;` (or `\G` for vertical output) and may span lines; Ctrl-C drops the statement being typed,
 * Ctrl-D leaves. History is kept in ~/.enginekit_history.
 */
export function sqlCommand(argv: readonly string[]): void {
  const fixed = argv.map((a) => (a === '-e' ? '--execute' : a));
  const args = parseArgs(fixed, SQL.spec);
  noWords(args, SQL.spec);
  const path = stringOption(args, 'db', 'sql');
  const format = (stringOption(args, 'format', 'sql', undefined) ?? 'table') as OutputFormat;
  if (!['table', 'tsv', 'json'].includes(format))
    throw new UsageError(`sql: --format must be table, tsv or json, got '${format}'`);
  checkDatabasePath(path);
  const db = existsSync(path) ? Database.open(path) : Database.create(path);
  const session = db.session();
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
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: 'enginekit> ',
    historySize: 1000,
    terminal: process.stdin.isTTY === true,
  });
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
  const withHistory = rl as typeof rl & { history?: string[] };
  if (Array.isArray(withHistory.history)) withHistory.history.splice(0, 0, ...[...history].reverse());
  let buffer = '';
  process.stdout.write(`Connected to ${db.path}. Statements end with ; or \\G. Ctrl-D quits.\n`);
  rl.prompt();
  rl.on('line', (line) => {
    buffer += (buffer.length > 0 ? '\n' : '') + line;
    const trimmed = buffer.trim();
    if (trimmed === '') {
      buffer = '';
      rl.prompt();
      return;
    }
    if (/^(quit|exit|\\q);?$/i.test(trimmed)) {
      rl.close();
      return;
    }
    const parts = splitStatements(buffer, true);
    const complete = parts.filter((p) => p.complete);
    for (const st of complete) {
      history.push(st.sql.replace(/\s*\n\s*/g, ' '));
      runOne(session, st.sql, format, st.vertical, 'interactive');
    }
    const rest = parts.find((p) => !p.complete);
    buffer = rest === undefined ? '' : rest.sql;
    rl.setPrompt(buffer === '' ? 'enginekit> ' : '        -> ');
    rl.prompt();
  });
  rl.on('SIGINT', () => {
    // Ctrl-C drops the statement being typed; the session goes on
    if (buffer !== '') process.stdout.write('^C\n');
    buffer = '';
    rl.setPrompt('enginekit> ');
    rl.prompt();
  });
  rl.on('close', () => {
    try {
      writeFileSync(historyFile, `${history.slice(-1000).join('\n')}\n`, { mode: 0o600 });
    } catch {
      // a read-only home: history is not kept
    }
    db.close();
    process.stdout.write('Bye\n');
  });
}
