import type { CommandSpec } from './cli-args.js';

/** The exit statuses every command uses, as `--help` prints them. */
export const EXIT_STATUS_TEXT = `exit status: 0 done; 1 input or data error (a missing or unreadable file, a bad .tbl line,
  a duplicate key, a file that is not a database, a corrupt page, a full disk); 2 usage error;
  130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM). An interrupted or failed command
  removes every temp file and partial file it made.`;

export interface CommandHelp {
  readonly spec: CommandSpec;
  readonly synopsis: string;
  readonly text: string;
}

export const GEN: CommandHelp = {
  spec: { name: 'tpch gen', flags: ['quiet'], values: ['sf', 'out', 'chunks', 'step'] },
  synopsis: 'enginekit tpch gen --out DIR [--sf 0.01] [--chunks C --step S] [--quiet]',
  text: `write dbgen-identical region.tbl … lineitem.tbl for scale factor --sf (a fraction below 1
or an integer from 1 up; default 0.01) into DIR (created if missing; .tbl files there are
replaced). With --chunks C --step S only part S of C of each scaled table, as <table>.tbl.S
(dbgen -C/-S). --quiet: no progress bars and no summary.`,
};

export const LOAD: CommandHelp = {
  spec: {
    name: 'tpch load',
    flags: ['quiet', 'force'],
    values: ['db', 'sf', 'tbl', 'buffer-pool-mb', 'sort-buffer-mb'],
  },
  synopsis:
    'enginekit tpch load --db FILE (--sf N | --tbl DIR) [--force] [--buffer-pool-mb 128] [--sort-buffer-mb 4] [--quiet]',
  text: `create the DBT3 schema and indexes in the database FILE and load DIR's .tbl files (or
generate scale factor N first, in a temp directory). All or nothing: the database is built as
FILE.loading-PID and renamed over FILE only when complete. FILE must not exist, or be an
enginekit database and --force given; any other file is never replaced. --buffer-pool-mb:
innodb_buffer_pool_size in MiB; --sort-buffer-mb: innodb_sort_buffer_size per index build, MiB.`,
};

export const INFO: CommandHelp = {
  spec: { name: 'info', flags: ['exact', 'quiet'], values: ['db'] },
  synopsis: 'enginekit info --db FILE [--exact] [--quiet]',
  text: `verify a database file, then list its tables, row counts and, per index, pages, bytes and
height, and how many pages are on the free list. Verifying reads the whole file once: the
header, the file length against the page count the header records, and every page's checksum;
the first failure is reported naming the page (exit 1). Index figures come from the statistics ANALYZE stored; --exact walks and checks every
tree instead. --quiet: verify only, print nothing unless it fails.`,
};

export const DEMO: CommandHelp = {
  spec: { name: 'demo', flags: ['quiet'], values: ['sf', 'dir'] },
  synopsis: 'enginekit demo [--sf 0.01] [--dir DIR] [--quiet]',
  text: `generate TPC-H at --sf, load it with the DBT3 indexes into a database file, and print what
info prints. Everything lives in a temp directory removed at the end, unless --dir DIR is given:
then DIR keeps tbl/ and tpch-sfN.ekdb (a previous demo database there is replaced).`,
};

export const SQL: CommandHelp = {
  spec: { name: 'sql', flags: ['create'], values: ['db', 'execute', 'format'], short: { e: 'execute' } },
  synopsis: 'enginekit sql --db FILE [--create] [-e "SQL"] [--format table|tsv|json]',
  text: `run SQL statements given with -e (--execute) and exit, or read them interactively: a
statement ends at ; (or \\G for vertical output) and may span lines; Ctrl-C drops the statement
being typed or stops the one running (1317), Ctrl-D leaves. FILE must be an enginekit database; a FILE that does not exist is
refused unless --create is given, which creates a new empty database there. Errors print as
MySQL prints them (ERROR errno (SQLSTATE): message); after an error -e stops with status 1.`,
};

export const SERVE: CommandHelp = {
  spec: {
    name: 'serve',
    flags: ['create'],
    values: [
      'db',
      'port',
      'bind',
      'socket',
      'user',
      'password',
      'password-file',
      'pid-file',
      'max_connections',
      'connect_timeout',
      'net_read_timeout',
      'max_connect_errors',
      'max_prepared_stmt_count',
      'max_allowed_packet',
      'wait_timeout',
      'latches',
      'innodb_buffer_pool_size',
      'innodb_buffer_pool_instances',
      'innodb_sort_buffer_size',
      'innodb_flush_log_at_trx_commit',
      'transaction_isolation',
      'threads',
    ],
  },
  synopsis:
    'enginekit serve --db FILE [--create] [--port 3306 --bind 127.0.0.1 | --socket PATH] [--user U] [--password-file F] [--pid-file F] [--max_connections N] [--connect_timeout S] [--net_read_timeout S] [--max_connect_errors N] [--max_prepared_stmt_count N] [--max_allowed_packet BYTES] [--wait_timeout S] [--latches atomic|legacy] [--innodb_buffer_pool_size BYTES] [--innodb_buffer_pool_instances N] [--innodb_sort_buffer_size BYTES] [--innodb_flush_log_at_trx_commit 0|1|2] [--transaction_isolation LEVEL] [--threads N]',
  text: `serve the database FILE over the MySQL client/server protocol to mysql2, mariadb and
mysql clients, on 127.0.0.1:3306 by default or on a unix socket. A FILE that does not exist is
refused unless --create is given, which creates a new empty database there. Prints
where it listens; SIGTERM or SIGINT stops accepting, closes every session, flushes and closes
the file (exit 0). Sessions run on --threads N worker threads (default: one per core) that
share one buffer pool, one redo log and one transaction system: every commit is durable and
every read consistent whichever thread runs it; --threads 0 runs them on the main thread.
--transaction_isolation sets the sessions' default level (REPEATABLE-READ; READ-COMMITTED,
READ-UNCOMMITTED, SERIALIZABLE). The administrator account U@localhost (default root, every privilege) takes its
password from --password-file F, the environment variable ENGINEKIT_PASSWORD, or --password P
(visible to other users in ps: a warning is printed); with none, an account that has no
password yet gets a random one, printed once on stderr. See docs/server.md for the protocol
subset, the accounts and the isolation levels.`,
};

export const COMMANDS: Readonly<Record<string, CommandHelp>> = {
  'tpch gen': GEN,
  'tpch load': LOAD,
  info: INFO,
  demo: DEMO,
  sql: SQL,
  serve: SERVE,
};

/** `--help` of one command. */
export function commandUsage(c: CommandHelp): string {
  return `usage: ${c.synopsis}\n\n${c.text}\n\n${EXIT_STATUS_TEXT}\n`;
}

/** `enginekit --help`. */
export function mainUsage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.synopsis}`);
  return `usage: enginekit <command> [options]\n\n${lines.join('\n')}\n\nEvery command takes --help (what it does, its options) and --version.\n\n${EXIT_STATUS_TEXT}\n`;
}
