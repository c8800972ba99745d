// Single-session prepared point select (sysbench oltp_point_select's statement) through the
// MySQL protocol vs through the API, on the built package:
//   node bench/server-point-select.js            10,000 rows, 20,000 selects per run, 3 runs
//   POINT_ROWS=100000 POINT_OPS=50000 node bench/server-point-select.js
// The server runs in a child process (`enginekit serve --threads 0`: the session on its main
// thread; once more with --threads 1, the session on a worker thread) so the client's work is
// not counted against it; the client is mysql2 with `execute` (COM_STMT_EXECUTE, binary protocol), one
// statement in flight at a time, over a unix socket and over loopback TCP. When `sysbench` is
// on the PATH (Debian package sysbench 1.0.20), its oltp_point_select at 1 thread runs too
// (libmysqlclient's C client over the unix socket, its own table of the same size, 10 s).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { Database, Session, MysqlServer } from '../dist/index.js';

const rows = Number(process.env.POINT_ROWS ?? 10_000);
const ops = Number(process.env.POINT_OPS ?? 20_000);
const runs = Number(process.env.POINT_RUNS ?? 3);
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'point-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const SQL = 'SELECT c FROM sbtest1 WHERE id = ?';

function fill(session) {
  session.query('CREATE TABLE sbtest1 (id INT PRIMARY KEY, k INT, c VARCHAR(120), pad VARCHAR(60))');
  for (let i = 0; i < rows; i += 1000) {
    const vals = [];
    for (let j = i; j < Math.min(rows, i + 1000); j++)
      vals.push(
        `(${j + 1}, ${(j * 7919) % rows}, '${String(j).padStart(10, '0').repeat(11)}', '${'p'.repeat(59)}')`,
      );
    session.query(`INSERT INTO sbtest1 VALUES ${vals.join(',')}`);
  }
}

/** Deterministic ids spread over the table. */
const ids = Array.from({ length: ops }, (_, i) => ((i * 2654435761) % rows) + 1);

/** The administrator's password of the servers this run starts (serve never runs without one). */
const PASSWORD = randomBytes(12).toString('hex');

function startServer(args) {
  const child = spawn(process.execPath, [cli, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ENGINEKIT_PASSWORD: PASSWORD },
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve({ child, line: String(d).trim() }));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
}

try {
  // the API: one session, one prepared statement
  const apiFile = join(dir, 'api.db');
  const db = Database.create(apiFile);
  const s = new Session(db);
  fill(s);
  const stmt = s.prepare(SQL);
  for (let i = 0; i < 2000; i++) stmt.run([ids[i]]);
  // the server's side alone, no socket: COM_STMT_EXECUTE payloads in, reply bytes out, taking
  // turns with the API run so both see the same machine load
  const server = new MysqlServer(db);
  const handle = server.host.open(1);
  handle.handle(Buffer.concat([Buffer.from([0x16]), Buffer.from(SQL)]));
  // COM_STMT_EXECUTE, statement 1, no cursor, 1 iteration, bitmap 0, types bound: LONGLONG
  const exec = Buffer.from([0x17, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  const payloads = ids.map((id) => {
    const b = Buffer.from(exec);
    b.writeBigInt64LE(BigInt(id), 14);
    return b;
  });
  for (let i = 0; i < 2000; i++) handle.handle(payloads[i]);
  const api = [];
  const side = [];
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    for (let i = 0; i < ops; i++) stmt.run([ids[i]]);
    api.push(ops / ((performance.now() - t) / 1000));
    t = performance.now();
    for (let i = 0; i < ops; i++) handle.handle(payloads[i]);
    side.push(ops / ((performance.now() - t) / 1000));
  }
  handle.close();
  db.close();

  // the protocol: the same file served, over a unix socket and over TCP
  const results = { api: median(api), side: median(side) };
  for (const via of ['socket', 'tcp', 'worker']) {
    const sock = join(dir, 'bench.sock');
    const { child, line } = await startServer(
      via === 'tcp'
        ? ['--db', apiFile, '--port', '0', '--threads', '0']
        : ['--db', apiFile, '--socket', sock, '--threads', via === 'worker' ? '1' : '0'],
    );
    try {
      const port = Number(/:(\d+)$/.exec(line)?.[1] ?? 0);
      const c = await mysql.createConnection(
        via === 'tcp'
          ? { host: '127.0.0.1', port, user: 'root', password: PASSWORD }
          : { socketPath: sock, user: 'root', password: PASSWORD },
      );
      for (let i = 0; i < 2000; i++) await c.execute(SQL, [ids[i]]);
      const got = [];
      for (let r = 0; r < runs; r++) {
        const t = performance.now();
        for (let i = 0; i < ops; i++) await c.execute(SQL, [ids[i]]);
        got.push(ops / ((performance.now() - t) / 1000));
      }
      await c.end();
      results[via] = median(got);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  // sysbench, if installed: its own prepare on a fresh file, one thread
  const which = spawnSync('sh', ['-c', 'command -v sysbench'], { encoding: 'utf8' });
  if (which.status === 0) {
    const sock = join(dir, 'sysbench.sock');
    const { child } = await startServer([
      '--db',
      join(dir, 'sysbench.db'),
      '--create',
      '--socket',
      sock,
      '--threads',
      '0',
    ]);
    try {
      const common = [
        'oltp_point_select',
        '--db-driver=mysql',
        `--mysql-socket=${sock}`,
        '--mysql-user=root',
        `--mysql-password=${PASSWORD}`,
        '--mysql-db=test',
        '--tables=1',
        `--table-size=${rows}`,
      ];
      const prep = spawnSync('sysbench', [...common, 'prepare'], { encoding: 'utf8' });
      if (prep.status !== 0) throw new Error(`sysbench prepare failed: ${prep.stdout}${prep.stderr}`);
      const run = spawnSync('sysbench', [...common, '--threads=1', '--time=10', 'run'], { encoding: 'utf8' });
      const qps = /queries:\s+\d+\s+\(([\d.]+) per sec/.exec(run.stdout);
      const p95 = /95th percentile:\s+([\d.]+)/.exec(run.stdout);
      if (qps === null) throw new Error(`sysbench run failed: ${run.stdout}${run.stderr}`);
      results.sysbench = Number(qps[1]);
      results.sysbenchP95 = p95 === null ? undefined : Number(p95[1]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  const fmt = (x) => `${Math.round(x).toLocaleString('en-US')}/s`;
  console.log(`prepared point select, ${rows} rows, ${ops} selects × ${runs} runs (median):`);
  console.log(`  API (Session.prepare().run)        ${fmt(results.api)}`);
  console.log(
    `  server side only (payload → reply)  ${fmt(results.side)}  = ${(results.side / results.api).toFixed(3)}× API`,
  );
  console.log(
    `  protocol, unix socket (mysql2)     ${fmt(results.socket)}  = ${(results.socket / results.api).toFixed(3)}× API`,
  );
  console.log(
    `  protocol, loopback TCP (mysql2)    ${fmt(results.tcp)}  = ${(results.tcp / results.api).toFixed(3)}× API`,
  );
  console.log(
    `  protocol, unix socket, session on a worker thread (serve --threads 1)  ${fmt(results.worker)}  = ${(results.worker / results.api).toFixed(3)}× API`,
  );
  if (results.sysbench !== undefined)
    console.log(
      `  sysbench oltp_point_select, 1 thread  ${fmt(results.sysbench)}  = ${(results.sysbench / results.api).toFixed(3)}× API (p95 ${results.sysbenchP95} ms)`,
    );
  console.log(
    `  load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
