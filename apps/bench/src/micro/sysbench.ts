import { cpus } from 'node:os';
import { join } from 'node:path';
import {
  onPath,
  parseSysbench,
  type SysbenchTarget,
  sysbench,
  sysbenchVersion,
} from '../internal/sysbench.js';
import { EngineServer } from '../peers/enginekit-serve.js';
import { findMariaDb, MariaDb } from '../peers/mariadb.js';
import { loadAverage, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';

interface Started {
  readonly target: SysbenchTarget;
  readonly stop: () => Promise<void>;
  /** Stops and starts the same server again: the next run starts from the file, a cold pool. */
  readonly restart: () => Promise<Started>;
}

interface Row {
  readonly test: string;
  readonly threads: number;
  readonly config: string;
  readonly tps: number;
  readonly qps: number;
  readonly p95: number;
  readonly errors: number;
  readonly load: string;
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const bin = onPath('sysbench');
  if (bin === undefined) throw new Error('sysbench is not on the PATH (apt-get install sysbench)');
  const shape = { tables: a.number('tables'), rows: a.number('size') };
  const seconds = a.number('time');
  const threads = a.list('threads').map(Number);
  const tests = a.list('tests');
  const configs = a.list('configs');
  const skipTrx = a.text('skip-trx') as string;
  const poolSize = a.number('pool');
  const warmup = a.number('warmup');
  const flush = a.text('flush') as string;
  const isolations = a.list('isolation');
  const { dir, remove } = runDir('sysbench');

  const startEngine = async (
    latches: string,
    instances: string,
    workers: string,
    iso: string,
  ): Promise<Started> => {
    const server = await EngineServer.start(join(dir, 'sb.ekdb'), join(dir, 'ek.sock'), [
      '--latches',
      latches,
      '--innodb_buffer_pool_instances',
      instances,
      '--innodb_buffer_pool_size',
      String(poolSize),
      '--max_connections',
      '200',
      '--threads',
      workers,
      '--innodb_flush_log_at_trx_commit',
      flush,
      '--transaction_isolation',
      iso,
    ]);
    const stop = (): Promise<void> => server.stop();
    return {
      target: { socket: server.socket, db: 'test', password: server.password },
      stop,
      restart: async () => {
        await stop();
        return startEngine(latches, instances, workers, iso);
      },
    };
  };

  const startMariadb = async (): Promise<Started> => {
    const binaries = findMariaDb();
    if (binaries === undefined) throw new Error('mariadbd is not installed (apt-get install mariadb-server)');
    const m = await MariaDb.start(binaries, {
      innodb_buffer_pool_size: poolSize,
      database: 'test',
      settings: [
        `--innodb-flush-log-at-trx-commit=${flush}`,
        `--transaction-isolation=${isolations[0]}`,
        '--max-connections=200',
      ],
      log: io.log,
    });
    const started = (): Started => ({
      target: { socket: m.socket, db: 'test' },
      stop: () => m.stop(),
      restart: async () => {
        await m.restart(poolSize, false);
        return started();
      },
    });
    return started();
  };

  const rows: Row[] = [];
  const runConfig = async (name: string, start: () => Promise<Started>, prepared: boolean): Promise<void> => {
    let server = await start();
    try {
      if (!prepared) {
        const t0 = performance.now();
        sysbench(bin, 'oltp_read_write', server.target, shape, [
          `--threads=${Math.min(shape.tables, 8)}`,
          'prepare',
        ]);
        io.log(
          `${name}: prepare ${shape.tables} × ${shape.rows} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
        // every configuration starts from the file (a cold pool) the same way
        server = await server.restart();
      }
      if (warmup > 0)
        sysbench(bin, 'oltp_read_only', server.target, shape, [
          '--threads=4',
          `--time=${warmup}`,
          `--skip_trx=${skipTrx}`,
          'run',
        ]);
      for (const test of tests)
        for (const n of threads) {
          const extra = [
            `--threads=${n}`,
            `--time=${seconds}`,
            '--report-interval=0',
            `--skip_trx=${skipTrx}`,
          ];
          // Without transactions two threads may delete and re-insert the same id at once: the
          // second INSERT is a duplicate (1062), an ignored error, on both servers. With them, a
          // lock wait timeout or a deadlock restarts the transaction.
          extra.push(skipTrx === 'on' ? '--mysql-ignore-errors=1062' : '--mysql-ignore-errors=1213,1205');
          const load = loadAverage();
          const r = parseSysbench(sysbench(bin, test, server.target, shape, [...extra, 'run']));
          rows.push({
            test,
            threads: n,
            config: name,
            tps: r.tps,
            qps: r.qps,
            p95: r.p95Ms,
            errors: r.errors,
            load,
          });
          io.log(`${name} ${test} ${n}: ${r.tps.toFixed(1)} tps, p95 ${r.p95Ms} ms (load ${load})`);
        }
    } finally {
      await server.stop();
    }
  };

  try {
    io.out(
      `${sysbenchVersion(bin)}, ${shape.tables} tables × ${shape.rows} rows, ${seconds} s per point, skip_trx=${skipTrx}, ` +
        `innodb_flush_log_at_trx_commit=${flush}, transaction_isolation=${isolations.join('/')}; ` +
        `node ${process.version}, ${cpus().length} CPUs; load at start ${loadAverage()}`,
    );
    let enginePrepared = false;
    for (const c of configs) {
      if (c === 'mariadb') {
        await runConfig('mariadb', startMariadb, false);
        continue;
      }
      const [latches = 'atomic', instances = '1', workers = '2'] = c.split('-');
      for (const iso of isolations) {
        const where = workers === '0' ? 'main thread' : `${workers} workers`;
        await runConfig(
          `enginekit ${latches}, ${instances} instance(s), ${where}${isolations.length > 1 ? `, ${iso}` : ''}`,
          () => startEngine(latches, instances, workers, iso),
          enginePrepared,
        );
        enginePrepared = true;
      }
    }
    io.out('');
    io.out('| test | threads | server | TPS | QPS | p95 ms | errors | load average |');
    io.out('|---|---:|---|---:|---:|---:|---:|---|');
    for (const r of rows)
      io.out(
        `| ${r.test} | ${r.threads} | ${r.config} | ${r.tps.toFixed(1)} | ${r.qps.toFixed(1)} | ${r.p95.toFixed(2)} | ${r.errors} | ${r.load} |`,
      );
    io.out('');
    io.out(`load at end ${loadAverage()}`);
  } finally {
    remove();
  }
}

export const sysbenchGrid: MicroBench = {
  name: 'sysbench',
  title: 'sysbench 1.0.20 against enginekit serve and a private MariaDB, test × threads × configuration',
  about: `sysbench (on the PATH) drives \`enginekit serve\` over a unix socket and a private MariaDB
(mariadbd: its own datadir in a temp folder, unix socket, no TCP), both on this machine beside
it. Tables are loaded by sysbench's own prepare (once for enginekit, once for MariaDB), each
server is restarted before its points and warmed with oltp_read_only at 4 threads. An enginekit
configuration is <latches>-<innodb_buffer_pool_instances>-<serve --threads>. Prints one
Markdown table: TPS, QPS, p95 ms and ignored errors per test, threads and configuration, with
the load average; the figures are throughput of the whole box.`,
  options: {
    tables: { kind: 'number', default: '8', about: 'sysbench tables' },
    size: { kind: 'number', default: '100000', about: 'rows per table' },
    time: { kind: 'number', default: '20', about: 'seconds per point' },
    threads: { kind: 'list', default: '1,2,4,8,16,32', about: 'sysbench client threads' },
    tests: {
      kind: 'list',
      default: 'oltp_point_select,oltp_read_only,oltp_read_write',
      about: 'sysbench tests',
    },
    configs: {
      kind: 'list',
      default: 'atomic-1-2,atomic-8-2,legacy-1-2,atomic-1-0,mariadb',
      about: 'enginekit as <latches>-<instances>-<threads>, and/or mariadb',
    },
    'skip-trx': {
      kind: 'text',
      default: 'on',
      about: "sysbench's --skip_trx (on: every statement autocommit)",
    },
    pool: { kind: 'number', default: '134217728', about: 'innodb_buffer_pool_size of both servers, bytes' },
    flush: { kind: 'text', default: '1', about: 'innodb_flush_log_at_trx_commit of both servers' },
    isolation: {
      kind: 'list',
      default: 'REPEATABLE-READ',
      about: 'transaction_isolation; several run every enginekit configuration at each',
    },
    warmup: {
      kind: 'count',
      default: '10',
      about: 'seconds of oltp_read_only at 4 threads after each start',
    },
  },
  run,
};
