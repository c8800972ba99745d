import { existsSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { noWords, parseArgs, positiveInteger, stringOption, UsageError } from '../cli-args.js';
import { describeAddress, MysqlServer } from '../server/server.js';
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
  const user = args.options.has('user') ? stringOption(args, 'user', 'serve') : undefined;
  const password = args.options.get('password');
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
    ...(args.options.has('innodb_flush_log_at_trx_commit')
      ? {
          innodb_flush_log_at_trx_commit: flushMode(
            stringOption(args, 'innodb_flush_log_at_trx_commit', 'serve'),
          ),
        }
      : {}),
  } as const;
  const threads = args.options.has('threads')
    ? args.options.get('threads') === '0'
      ? 0
      : positiveInteger(args, 'threads', 'serve', 1)
    : 0;
  const db =
    checkOpenTarget(path, args.options.has('create')) === 'create'
      ? Database.create(path, dbOptions)
      : Database.open(path, dbOptions);
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
    ...(user === undefined ? {} : { user }),
    ...(typeof password === 'string' ? { password } : {}),
    ...(args.options.has('max_connections')
      ? { max_connections: positiveInteger(args, 'max_connections', 'serve', 151) }
      : {}),
    ...(args.options.has('wait_timeout')
      ? { wait_timeout: positiveInteger(args, 'wait_timeout', 'serve', 28800) }
      : {}),
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
      if (pidFile !== undefined) writeFileSync(pidFile, `${process.pid}\n`);
      process.stdout.write(`enginekit serve: ${path} listening on ${describeAddress(address)}\n`);
    },
    (e: unknown) => {
      db.close();
      process.stderr.write(`enginekit serve: cannot listen: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
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
