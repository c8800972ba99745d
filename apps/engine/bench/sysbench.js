// sysbench 1.0.20 (/usr/bin/sysbench) against `enginekit serve` over a unix socket and against a
// private MariaDB (/usr/sbin/mariadbd: its own datadir in a temp folder, unix socket,
// --skip-networking), on the built package:
//   node bench/sysbench.js
// Environment (defaults in brackets):
//   SB_TABLES [8], SB_SIZE [100000]            tables × rows, loaded by sysbench's own `prepare`
//   SB_TIME [20]                               seconds per point
//   SB_THREADS [1,2,4,8,16,32]                 sysbench client threads
//   SB_TESTS [oltp_point_select,oltp_read_only,oltp_read_write]
//   SB_CONFIGS [atomic-1-2,atomic-8-2,legacy-1-2,atomic-1-0,mariadb]
//       enginekit as <latches>-<innodb_buffer_pool_instances>-<serve --threads>, and/or mariadb
//   SB_SKIP_TRX [on]                           sysbench's --skip_trx: every statement in autocommit
//   SB_POOL [134217728]                        innodb_buffer_pool_size of both servers
//   SB_FLUSH [1]                               innodb_flush_log_at_trx_commit of both servers
//   SB_ISOLATION [REPEATABLE-READ]             transaction_isolation of both servers; several,
//                                              comma-separated, run every enginekit config at each
//   SB_WARMUP [10]                             seconds of oltp_read_only at 4 threads after each server
//                                              start, not counted (JIT, buffer pool)
// Prints one Markdown table (TPS, QPS, p95 ms per test × threads × config) with the load average.
// Both servers run on this machine beside sysbench; the figures are throughput of the whole box.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const env = process.env;
const tables = Number(env.SB_TABLES ?? 8);
const size = Number(env.SB_SIZE ?? 100_000);
const seconds = Number(env.SB_TIME ?? 20);
const threads = (env.SB_THREADS ?? '1,2,4,8,16,32').split(',').map(Number);
const tests = (env.SB_TESTS ?? 'oltp_point_select,oltp_read_only,oltp_read_write').split(',');
const configs = (env.SB_CONFIGS ?? 'atomic-1-2,atomic-8-2,legacy-1-2,atomic-1-0,mariadb').split(',');
const skipTrx = env.SB_SKIP_TRX ?? 'on';
const poolSize = Number(env.SB_POOL ?? 134217728);
const warmup = Number(env.SB_WARMUP ?? 10);
const flush = env.SB_FLUSH ?? '1';
const isolations = (env.SB_ISOLATION ?? 'REPEATABLE-READ').split(',');
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'sysbench-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** enginekit's administrator password for this run (serve never runs with a password-less root). */
const PASSWORD = randomBytes(12).toString('hex');

function sysbench(test, server, extra) {
  const args = [
    test,
    '--db-driver=mysql',
    `--mysql-socket=${server.socket}`,
    '--mysql-user=root',
    ...(server.password === undefined ? [] : [`--mysql-password=${server.password}`]),
    '--mysql-db=test',
    `--tables=${tables}`,
    `--table-size=${size}`,
    ...extra,
  ];
  const r = spawnSync('sysbench', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`sysbench ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function parse(out) {
  const tps = /transactions:\s+\d+\s+\(([\d.]+) per sec/.exec(out);
  const qps = /queries:\s+\d+\s+\(([\d.]+) per sec/.exec(out);
  const p95 = /95th percentile:\s+([\d.]+)/.exec(out);
  const errors = /ignored errors:\s+(\d+)/.exec(out);
  return {
    tps: Number(tps?.[1] ?? Number.NaN),
    qps: Number(qps?.[1] ?? Number.NaN),
    p95: Number(p95?.[1] ?? Number.NaN),
    errors: Number(errors?.[1] ?? 0),
  };
}

async function waitFor(path, child, what) {
  for (let i = 0; i < 600; i++) {
    if (existsSync(path)) return;
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    await sleep(100);
  }
  throw new Error(`${what}: ${path} did not appear within 60 s`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** `enginekit serve` on the one database file; returns the child and its socket. */
async function startEnginekit(latches, instances, workers, isolation) {
  const socket = join(dir, 'ek.sock');
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      '--db',
      join(dir, 'sb.ekdb'),
      '--create',
      '--socket',
      socket,
      '--latches',
      latches,
      '--innodb_buffer_pool_instances',
      String(instances),
      '--innodb_buffer_pool_size',
      String(poolSize),
      '--max_connections',
      '200',
      '--threads',
      String(workers),
      '--innodb_flush_log_at_trx_commit',
      flush,
      '--transaction_isolation',
      isolation,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ENGINEKIT_PASSWORD: PASSWORD } },
  );
  await waitFor(socket, child, 'enginekit serve');
  return { child, socket, password: PASSWORD };
}

async function startMariadb() {
  const datadir = join(dir, 'maria');
  const socket = join(dir, 'maria.sock');
  if (!existsSync(datadir)) {
    mkdirSync(datadir);
    const r = spawnSync(
      'mariadb-install-db',
      [
        '--no-defaults',
        `--datadir=${datadir}`,
        '--user=root',
        '--skip-test-db',
        '--auth-root-authentication-method=socket',
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`mariadb-install-db failed:\n${r.stdout}\n${r.stderr}`);
  }
  const child = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'maria.pid')}`,
      '--skip-networking',
      '--user=root',
      `--innodb-buffer-pool-size=${poolSize}`,
      `--innodb-flush-log-at-trx-commit=${flush}`,
      `--transaction-isolation=${isolations[0]}`,
      '--max-connections=200',
      `--log-error=${join(dir, 'maria.err')}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitFor(socket, child, 'mariadbd');
  const r = spawnSync('mariadb', ['-S', socket, '-uroot', '-e', 'CREATE DATABASE IF NOT EXISTS test'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`CREATE DATABASE failed: ${r.stderr}`);
  return { child, socket };
}

const rows = [];
const runConfig = async (name, start, prepared) => {
  let server = await start();
  if (!prepared) {
    const t0 = performance.now();
    sysbench('oltp_read_write', server, [`--threads=${Math.min(tables, 8)}`, 'prepare']);
    console.error(
      `${name}: prepare ${tables} × ${size} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // restart, so every configuration starts from the file (a cold pool) the same way
    await stop(server.child);
    server = await start();
  }
  try {
    if (warmup > 0)
      sysbench('oltp_read_only', server, ['--threads=4', `--time=${warmup}`, `--skip_trx=${skipTrx}`, 'run']);
    for (const test of tests) {
      for (const n of threads) {
        const extra = [`--threads=${n}`, `--time=${seconds}`, '--report-interval=0', `--skip_trx=${skipTrx}`];
        // Without transactions two threads may delete and re-insert the same id at once: the
        // second INSERT is a duplicate (1062), counted as an ignored error, on both servers.
        if (skipTrx === 'on') extra.push('--mysql-ignore-errors=1062');
        // With transactions, lock waits that time out and deadlocks restart the transaction.
        else extra.push('--mysql-ignore-errors=1213,1205');
        const l = load();
        const r = parse(sysbench(test, server, [...extra, 'run']));
        rows.push({ test, threads: n, config: name, ...r, load: l });
        console.error(`${name} ${test} ${n}: ${r.tps.toFixed(1)} tps, p95 ${r.p95} ms (load ${l})`);
      }
    }
  } finally {
    await stop(server.child);
  }
};

try {
  console.log(
    `sysbench 1.0.20, ${tables} tables × ${size} rows, ${seconds} s per point, skip_trx=${skipTrx}, ` +
      `innodb_flush_log_at_trx_commit=${flush}, transaction_isolation=${isolations.join('/')}; ` +
      `node ${process.version}, ${cpus().length} CPUs; load at start ${load()}`,
  );
  let ekPrepared = false;
  for (const c of configs) {
    if (c === 'mariadb') {
      await runConfig('mariadb', startMariadb, false);
      continue;
    }
    const [latches, inst, workers = '2'] = c.split('-');
    for (const iso of isolations) {
      await runConfig(
        `enginekit ${latches}, ${inst} instance(s), ${workers === '0' ? 'main thread' : `${workers} workers`}${isolations.length > 1 ? `, ${iso}` : ''}`,
        () => startEnginekit(latches, Number(inst), Number(workers), iso),
        ekPrepared,
      );
      ekPrepared = true;
    }
  }
  console.log('\n| test | threads | server | TPS | QPS | p95 ms | errors | load average |');
  console.log('|---|---:|---|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(
      `| ${r.test} | ${r.threads} | ${r.config} | ${r.tps.toFixed(1)} | ${r.qps.toFixed(1)} | ${r.p95.toFixed(2)} | ${r.errors} | ${r.load} |`,
    );
  }
  console.log(`\nload at end ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
