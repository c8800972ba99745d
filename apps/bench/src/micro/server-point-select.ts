import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { median } from '../measure.js';
import { onPath, parseSysbench, sysbench } from '../internal/sysbench.js';
import { EngineServer, engineCli, enginePassword } from '../peers/enginekit-serve.js';
import { importEngine, loadAverage, runDir } from './common.js';
import type { MicroArgs, MicroBench, MicroIo } from './micro.js';
import { patternTable } from './pattern-table.js';

const SQL = 'SELECT c FROM sbtest1 WHERE id = ?';
/** `enginekit serve` with `args`, its first stdout line (where it listens) once it is ready. */
function startServer(
  args: readonly string[],
  password: string,
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [engineCli(), 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ENGINEKIT_PASSWORD: password },
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolve({ child, line: String(d).trim() }));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function run(a: MicroArgs, io: MicroIo): Promise<void> {
  const rows = a.number('rows');
  const ops = a.number('ops');
  const runs = a.number('runs');
  const engine = await importEngine();
  const { dir, remove } = runDir('point');
  const password = enginePassword();
  try {
    // deterministic ids spread over the table
    const ids = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % rows) + 1);
    // the API: one session, one prepared statement
    const apiFile = join(dir, 'api.db');
    const { db, s } = patternTable(engine, apiFile, rows);
    const stmt = s.prepare(SQL);
    const warm = Math.min(2000, ops);
    for (let i = 0; i < warm; i++) stmt.run([ids[i] as number]);
    // the server's side alone, no socket: COM_STMT_EXECUTE payloads in, reply bytes out, in
    // turns with the API run so both see the same machine load
    const server = new engine.MysqlServer(db);
    const handle = server.host.open(1);
    handle.handle(Buffer.concat([Buffer.from([0x16]), Buffer.from(SQL)]));
    // COM_STMT_EXECUTE, statement 1, no cursor, 1 iteration, bitmap 0, types bound: LONGLONG
    const exec = Buffer.from([0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const payloads = ids.map((id) => {
      const b = Buffer.from(exec);
      b.writeBigInt64LE(BigInt(id), 14);
      return b;
    });
    for (let i = 0; i < warm; i++) handle.handle(payloads[i] as Buffer);
    const api: number[] = [];
    const side: number[] = [];
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      for (let i = 0; i < ops; i++) stmt.run([ids[i] as number]);
      api.push(ops / ((performance.now() - t) / 1000));
      t = performance.now();
      for (let i = 0; i < ops; i++) handle.handle(payloads[i] as Buffer);
      side.push(ops / ((performance.now() - t) / 1000));
    }
    handle.close();
    db.close();

    // the protocol: the same file served, over a unix socket, over TCP, and from a worker thread
    const results: Record<string, number> = { api: median(api), side: median(side) };
    for (const via of ['socket', 'tcp', 'worker'] as const) {
      const sock = join(dir, 'bench.sock');
      const { child, line } = await startServer(
        via === 'tcp'
          ? ['--db', apiFile, '--port', '0', '--threads', '0']
          : ['--db', apiFile, '--socket', sock, '--threads', via === 'worker' ? '1' : '0'],
        password,
      );
      try {
        const port = Number(/:(\d+)$/.exec(line)?.[1] ?? 0);
        const c = await mysql.createConnection(
          via === 'tcp'
            ? { host: '127.0.0.1', port, user: 'root', password }
            : { socketPath: sock, user: 'root', password },
        );
        for (let i = 0; i < warm; i++) await c.execute(SQL, [ids[i] as number]);
        const got: number[] = [];
        for (let r = 0; r < runs; r++) {
          const t = performance.now();
          for (let i = 0; i < ops; i++) await c.execute(SQL, [ids[i] as number]);
          got.push(ops / ((performance.now() - t) / 1000));
        }
        await c.end();
        results[via] = median(got);
      } finally {
        await stopServer(child);
      }
    }
    // sysbench, when installed: its own prepare on a fresh file, one thread, 10 s
    let sb: { qps: number; p95: number } | undefined;
    const bin = onPath('sysbench');
    if (bin !== undefined) {
      const server = await EngineServer.start(join(dir, 'sysbench.db'), join(dir, 'sysbench.sock'), [
        '--threads',
        '0',
      ]);
      try {
        const target = { socket: server.socket, db: 'test', password: server.password };
        const shape = { tables: 1, rows };
        sysbench(bin, 'oltp_point_select', target, shape, ['prepare']);
        const r = parseSysbench(
          sysbench(bin, 'oltp_point_select', target, shape, ['--threads=1', '--time=10', 'run']),
        );
        sb = { qps: r.qps, p95: r.p95Ms };
      } finally {
        await server.stop();
      }
    }
    const fmt = (x: number | undefined): string => `${Math.round(x ?? Number.NaN).toLocaleString('en-US')}/s`;
    const ratio = (x: number | undefined): string => ((x ?? Number.NaN) / (results.api as number)).toFixed(3);
    io.out(`prepared point select, ${rows} rows, ${ops} selects × ${runs} runs (median):`);
    io.out(`  API (Session.prepare().run)        ${fmt(results.api)}`);
    io.out(`  server side only (payload → reply)  ${fmt(results.side)}  = ${ratio(results.side)}× API`);
    io.out(`  protocol, unix socket (mysql2)     ${fmt(results.socket)}  = ${ratio(results.socket)}× API`);
    io.out(`  protocol, loopback TCP (mysql2)    ${fmt(results.tcp)}  = ${ratio(results.tcp)}× API`);
    io.out(
      `  protocol, unix socket, session on a worker thread (serve --threads 1)  ${fmt(results.worker)}  = ${ratio(results.worker)}× API`,
    );
    if (sb !== undefined)
      io.out(
        `  sysbench oltp_point_select, 1 thread  ${fmt(sb.qps)}  = ${ratio(sb.qps)}× API (p95 ${Number.isNaN(sb.p95) ? 'undefined' : sb.p95} ms)`,
      );
    io.out(`  load average ${loadAverage(2, ' ')}`);
  } finally {
    remove();
  }
}

export const serverPointSelect: MicroBench = {
  name: 'server-point-select',
  title: "one session's prepared point select: through the MySQL protocol vs through the API",
  about: `sysbench oltp_point_select's statement, prepared, on one session: through the API
(Session.prepare().run), the server's side alone (COM_STMT_EXECUTE payloads in, replies out), and
through \`enginekit serve\` in a child process (--threads 0: the session on its main thread; once
more with --threads 1, on a worker thread) with mysql2's execute (binary protocol), one statement
in flight, over a unix socket and loopback TCP. With sysbench on the PATH, its oltp_point_select
at 1 thread too (its own table of the same size, 10 s).`,
  options: {
    rows: { kind: 'number', default: '10000', about: 'rows of sbtest1' },
    ops: { kind: 'number', default: '20000', about: 'selects per run' },
    runs: { kind: 'number', default: '3', about: 'timed runs (the median is printed)' },
  },
  run,
};
