import { availableParallelism } from 'node:os';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  noWords,
  type ParsedArgs,
  parseArgs,
  positiveInteger,
  stringOption,
  UsageError,
} from './cli-args.js';
import { Accounts } from '../session/accounts.js';
import { describeAddress, ensureAccount, MysqlServer } from '../server/server.js';
import { WorkerSessionHost } from '../server/worker-session-host.js';
import { Database } from '../storage/database.js';
import { checkOpenTarget } from './internal/target.js';
import { SERVE } from './usage.js';

/**
 * `enginekit serve`: opens the database file (creates it with `--create`), serves it over the MySQL protocol,
 * and on SIGTERM/SIGINT stops accepting, closes every session, flushes and closes the file.
 */
export async function serveCommand(argv: readonly string[]): Promise<void> {
  const args = parseArgs(argv, SERVE.spec);
  noWords(args, SERVE.spec);
  const path = resolve(stringOption(args, 'db', 'serve'));
  const socket = args.options.has('socket') ? resolve(stringOption(args, 'socket', 'serve')) : undefined;
  if (socket !== undefined && (args.options.has('port') || args.options.has('bind')))
    throw new UsageError('serve: --socket replaces --port and --bind');
  const port = args.options.get('port') === '0' ? 0 : positiveInteger(args, 'port', 'serve', 3306);
  if (port > 65535) throw new UsageError(`serve: --port must be at most 65535, got ${port}`);
  const pidFile = args.options.has('pid-file') ? resolve(stringOption(args, 'pid-file', 'serve')) : undefined;
  const user = args.options.has('user') ? stringOption(args, 'user', 'serve') : 'root';
  const given = givenPassword(args);
  const latches = args.options.has('latches') ? stringOption(args, 'latches', 'serve') : 'atomic';
  if (latches !== 'atomic' && latches !== 'legacy')
    throw new UsageError(`serve: --latches must be atomic or legacy, got ${latches}`);
  const dbOptions = {
    latches,
    ...(args.options.has('innodb_buffer_pool_size')
      ? { innodb_buffer_pool_size: positiveInteger(args, 'innodb_buffer_pool_size', 'serve', 134217728) }
      : {}),
    ...(args.options.has('innodb_buffer_pool_instances')
      ? { innodb_buffer_pool_instances: positiveInteger(args, 'innodb_buffer_pool_instances', 'serve', 1) }
      : {}),
    ...(args.options.has('innodb_sort_buffer_size')
      ? { innodb_sort_buffer_size: positiveInteger(args, 'innodb_sort_buffer_size', 'serve', 1048576) }
      : {}),
    ...(args.options.has('innodb_flush_log_at_trx_commit')
      ? {
          innodb_flush_log_at_trx_commit: flushMode(
            stringOption(args, 'innodb_flush_log_at_trx_commit', 'serve'),
          ),
        }
      : {}),
  } as const;
  // one worker per core by default: a long statement occupies one worker, the others serve on
  const threads = args.options.has('threads')
    ? args.options.get('threads') === '0'
      ? 0
      : positiveInteger(args, 'threads', 'serve', 1)
    : availableParallelism();
  const db =
    checkOpenTarget(path, args.options.has('create')) === 'create'
      ? Database.create(path, dbOptions)
      : Database.open(path, dbOptions);
  const password = given ?? newPasswordIfNeeded(db, user);
  // before any worker loads the dictionary: the account is in it from the start
  ensureAccount(db, { user, host: 'localhost' }, password);
  let workers: WorkerSessionHost | undefined;
  try {
    if (threads > 0) workers = await WorkerSessionHost.start(db, { threads });
  } catch (e) {
    db.close();
    throw e;
  }
  const server = new MysqlServer(db, {
    ...(workers === undefined ? {} : { host: workers }),
    port,
    bind: (args.options.get('bind') as string | undefined) ?? '127.0.0.1',
    ...(socket === undefined ? {} : { socket }),
    user,
    ...(password === undefined ? {} : { password }),
    ...(args.options.has('max_connections')
      ? { max_connections: positiveInteger(args, 'max_connections', 'serve', 151) }
      : {}),
    ...(args.options.has('wait_timeout')
      ? { wait_timeout: positiveInteger(args, 'wait_timeout', 'serve', 28800) }
      : {}),
    ...integerOptions(args, [
      'connect_timeout',
      'net_read_timeout',
      'max_connect_errors',
      'max_prepared_stmt_count',
    ]),
    ...(args.options.has('max_allowed_packet')
      ? { max_allowed_packet: positiveInteger(args, 'max_allowed_packet', 'serve', 16777216) }
      : {}),
    ...(args.options.has('transaction_isolation')
      ? { transaction_isolation: isolationLevel(stringOption(args, 'transaction_isolation', 'serve')) }
      : {}),
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`enginekit serve: ${signal}, shutting down\n`);
    void server
      .close()
      .then(() => workers?.stop())
      .then(() => {
        db.close();
        if (pidFile !== undefined && existsSync(pidFile)) unlinkSync(pidFile);
        process.stderr.write('enginekit serve: stopped\n');
        process.exit(0);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  server.listen().then(
    (address) => {
      if (pidFile !== undefined) writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
      process.stdout.write(`enginekit serve: ${path} listening on ${describeAddress(address)}\n`);
    },
    (e: unknown) => {
      db.close();
      process.stderr.write(`enginekit serve: cannot listen: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}

/** The values of the integer options in `names` that were given. */
function integerOptions(args: ParsedArgs, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const n of names) if (args.options.has(n)) out[n] = positiveInteger(args, n, 'serve', 1);
  return out;
}

/**
 * The administrator's password as given: --password-file (its first line), ENGINEKIT_PASSWORD,
 * or --password (which other users see in ps: accepted with a warning). Undefined: none given.
 */
function givenPassword(args: ParsedArgs): string | undefined {
  const sources = ['password-file', 'password'].filter((o) => args.options.has(o));
  if (sources.length > 1) throw new UsageError('serve: give --password-file or --password, not both');
  if (args.options.has('password-file')) {
    const file = resolve(stringOption(args, 'password-file', 'serve'));
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`serve: cannot read --password-file ${file}: ${(e as Error).message}`);
    }
    const pw = text.split(/\r?\n/)[0] ?? '';
    if (pw === '') throw new UsageError(`serve: --password-file ${file} is empty`);
    return pw;
  }
  if (args.options.has('password')) {
    process.stderr.write(
      'enginekit serve: warning: --password is visible to other users (ps, /proc); use --password-file or ENGINEKIT_PASSWORD\n',
    );
    const pw = stringOption(args, 'password', 'serve');
    if (pw === '') throw new UsageError('serve: --password must not be empty');
    return pw;
  }
  const env = process.env.ENGINEKIT_PASSWORD;
  return env === undefined || env === '' ? undefined : env;
}

/**
 * With no password given: an administrator account that exists with a password keeps it; one
 * that does not exist, or has none, gets a random password, printed once on stderr (as MariaDB's
 * installer can), so the server never accepts a password-less administrator.
 */
function newPasswordIfNeeded(db: Database, user: string): string | undefined {
  const existing = Accounts.of(db).get({ user, host: 'localhost' });
  if (existing !== undefined && existing.hash !== '') return undefined;
  const pw = randomBytes(18).toString('base64url');
  process.stderr.write(
    `enginekit serve: the account '${user}'@'localhost' has the password ${pw} (shown once; change it with ALTER USER)\n`,
  );
  return pw;
}

const LEVELS = ['READ-UNCOMMITTED', 'READ-COMMITTED', 'REPEATABLE-READ', 'SERIALIZABLE'];

function isolationLevel(v: string): string {
  const up = v.toUpperCase().replace(/[ _]/g, '-');
  if (LEVELS.includes(up)) return up;
  throw new UsageError(`serve: --transaction_isolation must be one of ${LEVELS.join(', ')}, got ${v}`);
}

function flushMode(v: string): 0 | 1 | 2 {
  if (v === '0' || v === '1' || v === '2') return Number(v) as 0 | 1 | 2;
  throw new UsageError(`serve: --innodb_flush_log_at_trx_commit must be 0, 1 or 2, got ${v}`);
}
