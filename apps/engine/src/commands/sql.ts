import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { noWords, parseArgs, stringOption, UsageError } from './cli-args.js';
import { Worker } from 'node:worker_threads';
import { KILL_QUERY } from '../exec/interrupt.js';
import { Session } from '../session/session.js';
import { Database } from '../storage/database.js';
import { type OutputFormat, runStatement } from '../sql-cli/format.js';
import { startRepl } from '../sql-cli/repl.js';
import type { FromSqlWorker, SqlWorkerData, ToSqlWorker } from './sql-worker.js';
import { raiseWord } from '../txn/process-list.js';
import { ReportedFailure } from './internal/failure.js';
import { splitStatements } from '../sql/split.js';
import { checkOpenTarget } from './internal/target.js';
import { SQL } from './usage.js';

/**
 * `enginekit sql --db FILE [--create] [-e "SQL"] [--format table|tsv|json]`: runs the statements
 * given with `-e` and exits (status 1 after an error), or reads statements interactively
 * (sql-cli/repl.ts) while a worker thread runs them (commands/sql-worker.ts), so that Ctrl-C
 * reaches a running statement. FILE must exist unless `--create` is given. History is kept in
 * ~/.enginekit_history.
 */
export async function sqlCommand(argv: readonly string[]): Promise<void> {
  const args = parseArgs(argv, SQL.spec);
  noWords(args, SQL.spec);
  const path = resolve(stringOption(args, 'db', 'sql'));
  const format = (stringOption(args, 'format', 'sql', undefined) ?? 'table') as OutputFormat;
  if (!['table', 'tsv', 'json'].includes(format))
    throw new UsageError(`sql: --format must be table, tsv or json, got '${format}'`);
  const create = checkOpenTarget(path, args.options.has('create')) === 'create';
  const exec = args.options.get('execute');
  if (typeof exec !== 'string') return repl(path, create, format);
  const db = create ? Database.create(path) : Database.open(path);
  const session = new Session(db);
  let failed = false;
  try {
    for (const st of splitStatements(exec)) {
      const p = runStatement(session, st.sql, format, st.vertical, true);
      process.stdout.write(p.out);
      process.stderr.write(p.err);
      if (!p.ok) {
        failed = true;
        break;
      }
    }
  } finally {
    db.close();
  }
  if (failed) process.exitCode = 1;
}

function readHistory(file: string): string[] {
  try {
    if (existsSync(file))
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .slice(-1000);
  } catch {
    // no history: start empty
  }
  return [];
}

/**
 * The prompt: this thread reads keys (readline) and prints; the session lives in a worker thread,
 * which gets one statement at a time and answers with what it printed. Resolves when the input
 * ends and the database is closed; rejects with the failure that stopped the worker (a damaged
 * file, a bug).
 */
async function repl(path: string, create: boolean, format: OutputFormat): Promise<void> {
  const historyFile = join(homedir(), '.enginekit_history');
  const history = readHistory(historyFile);
  const word = new SharedArrayBuffer(4);
  const data: SqlWorkerData = { path, create, format, word };
  const worker = new Worker(new URL('./sql-worker.js', import.meta.url), { workerData: data });
  // the answer the prompt waits for: 'ready', a statement's 'done', or 'closed'
  let waiting: ((m: FromSqlWorker) => void) | null = null;
  let fail: ((e: Error) => void) | null = null;
  const stopped = new Promise<never>((_, reject) => {
    fail = reject;
  });
  stopped.catch(() => {});
  const next = (): Promise<FromSqlWorker> =>
    Promise.race([new Promise<FromSqlWorker>((r) => (waiting = r)), stopped]);
  worker.on('message', (m: FromSqlWorker) => {
    if (m.t === 'fatal') return fail!(new ReportedFailure(m.status, m.line, m.stack));
    const w = waiting;
    waiting = null;
    w?.(m);
  });
  worker.on('error', (e) => fail!(e));
  worker.on('exit', () => fail!(new Error('the statement thread ended')));
  try {
    await next();
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  process.stdout.write(`Connected to ${path}. Statements end with ; or \\G. Ctrl-D quits.\n`);
  const post = (m: ToSqlWorker): void => worker.postMessage(m);
  await new Promise<void>((resolve, reject) => {
    const rl = startRepl({
      input: process.stdin,
      output: process.stdout,
      terminal: process.stdin.isTTY === true,
      history,
      run: async (sql, vertical) => {
        post({ t: 'run', sql, vertical });
        const m = await next().catch((e: unknown) => {
          rl.removeAllListeners('close');
          rl.close();
          void worker.terminate();
          reject(e);
          return null;
        });
        if (m?.t !== 'done') return;
        process.stdout.write(m.out);
        process.stderr.write(m.err);
      },
      interrupt: () => raiseWord(new Int32Array(word), KILL_QUERY),
      onClose: () => {
        try {
          writeFileSync(historyFile, `${history.slice(-1000).join('\n')}\n`, { mode: 0o600 });
        } catch {
          // a read-only home: history is not kept
        }
        post({ t: 'close' });
        next().then(
          () => {
            process.stdout.write('Bye\n');
            resolve();
          },
          (e: unknown) => reject(e),
        );
      },
    });
  });
}
