// Result sets streamed to the client as the executor produces them, on `serve` with worker
// threads, through the real mysql2 client: a large result arrives complete and in order (text and
// binary protocol); the first rows of a slow statement arrive while it still runs ("Sending
// data"); a client that stops reading holds the statement back ("Writing to net") and the
// server's memory stays bounded; an error after rows went out ends the result with an ERR after
// them; KILL QUERY ends a statement that waits for its client with 1317; net_write_timeout drops a
// client that does not read; a locking read that waits for a row lock after rows went out sends
// every row once. The workers run the built package (dist/session-worker.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type { Connection as CoreConnection } from 'mysql2';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerSessionHost } from '../../src/server/worker-session-host.js';
import { type Running, startServer } from '../helpers/server-helpers.js';

const engineDir = join(import.meta.dirname, '..', '..');
/** Rows of t. */
const N = 20_000;

/** The callback-style connection under a promise one (its query streams and its socket). */
type Core = CoreConnection & { readonly stream: Socket };
function coreOf(c: mysql.Connection): Core {
  return (c as unknown as { connection: Core }).connection;
}

let srv: Running;
let host: WorkerSessionHost;

beforeAll(async () => {
  await buildFresh(engineDir);
  srv = await startServer({}, 2);
  host = srv.server.host as WorkerSessionHost;
  const c = await srv.connect();
  await c.query('CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(100) NOT NULL)');
  for (let at = 0; at < N; at += 2000) {
    const values = Array.from({ length: 2000 }, (_, i) => {
      const id = at + i + 1;
      return `(${id}, ${id % 97}, '${`row ${id} `.padEnd(60, 'x')}')`;
    }).join(',');
    await c.query(`INSERT INTO t VALUES ${values}`);
  }
  c.destroy();
}, 300_000);

afterAll(async () => {
  await srv?.stop();
});

/** What a streamed statement delivered: its rows, when the first came, and how it ended. */
interface Streamed {
  readonly rows: unknown[][];
  /** performance.now() of the first row (0: none). */
  firstAt: number;
  /** The process list's command and state of the connection when the first row arrived. */
  firstSeen: { command: string; state: string } | undefined;
  /** mysql2's complaints about the packets (a sequence id out of order). */
  readonly warnings: string[];
  readonly done: Promise<{ errno: number | undefined; at: number }>;
}

/** Runs `sql` (text protocol, or binary with `params`) and collects rows as mysql2 parses them. */
function stream(c: mysql.Connection, sql: string, params?: number[]): Streamed {
  const core = coreOf(c);
  const id = c.threadId!;
  const q =
    params === undefined
      ? core.query({ sql, rowsAsArray: true })
      : core.execute({ sql, rowsAsArray: true }, params);
  const out: Streamed = {
    rows: [],
    firstAt: 0,
    firstSeen: undefined,
    warnings: [],
    done: new Promise((resolve) => {
      let errno: number | undefined;
      q.on('error', (e: { errno?: number }) => {
        errno = e.errno;
      });
      q.on('end', () => resolve({ errno, at: performance.now() }));
    }),
  };
  core.on('warn', (e: Error) => out.warnings.push(e.message));
  q.on('result', (row: unknown) => {
    if (out.rows.length === 0) {
      out.firstAt = performance.now();
      const e = host.processList.get(id);
      out.firstSeen = e === undefined ? undefined : { command: e.command, state: e.state };
    }
    out.rows.push(row as unknown[]);
  });
  return out;
}

/** Waits until connection `id` shows `state` in the process list. */
async function stateOf(id: number, state: string, ms = 20_000): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (host.processList.get(id)?.state === state) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`connection ${id} never showed "${state}" (now "${host.processList.get(id)?.state}")`);
}

describe('results streamed to the client', () => {
  it('a result of 20,000 rows arrives complete and in order, in the text and the binary protocol', async () => {
    const c = await srv.connect();
    const text = stream(c, 'SELECT id, v, s FROM t');
    expect((await text.done).errno).toBeUndefined();
    expect(text.rows.length).toBe(N);
    expect(text.warnings).toEqual([]);
    text.rows.forEach((r, i) => {
      expect(r[0]).toBe(i + 1);
      expect(r[1]).toBe((i + 1) % 97);
      expect(String(r[2]).startsWith(`row ${i + 1} `)).toBe(true);
    });
    const bin = stream(c, 'SELECT id, v, s FROM t WHERE id > ?', [0]);
    expect((await bin.done).errno).toBeUndefined();
    expect(bin.rows).toEqual(text.rows);
    expect(bin.warnings).toEqual([]);
    // the connection goes on after a streamed result
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM t');
    expect(rows).toEqual([{ n: N }]);
  });

  it('the first rows of a slow statement arrive while it still runs, shown as "Sending data"', async () => {
    const c = await srv.connect();
    // every row is over a chunk (70,000 bytes) and costs a scan of 20,000 rows
    const slow = stream(
      c,
      "SELECT a.id, REPEAT('z', 70000) AS pad, (SELECT COUNT(*) FROM t b WHERE b.v = a.id % 97) AS n FROM t a WHERE a.id <= 40",
    );
    const end = await slow.done;
    expect(end.errno).toBeUndefined();
    expect(slow.warnings).toEqual([]);
    expect(slow.rows.map((r) => r[0])).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // still running when its first row arrived (waiting, at most, for the client to read more)
    expect(slow.firstSeen?.command).toBe('Query');
    expect(['Sending data', 'Writing to net']).toContain(slow.firstSeen?.state);
    console.log(
      `slow statement: first row after the statement began, ${(end.at - slow.firstAt).toFixed(0)} ms before its end`,
    );
    expect(end.at - slow.firstAt).toBeGreaterThan(0);
  });

  it('an error after rows went out ends the result with an ERR after them (1242 at row 3000)', async () => {
    // MariaDB 10.11 sends the rows before the failing one, then the ERR: recorded with mysql2's
    // query stream against a private mariadbd,
    //   SELECT t.seq, (SELECT s.seq FROM seq_1_to_3 s WHERE s.seq <= IF(t.seq = 3000, 2, 1)) x
    //   FROM seq_1_to_5000 t
    // → 2999 rows, then error 1242 (21000) "Subquery returns more than 1 row"
    const c = await srv.connect();
    const res = stream(
      c,
      'SELECT a.id, a.s, (SELECT b.id FROM t b WHERE b.id <= IF(a.id = 3000, 2, 1)) AS x FROM t a',
    );
    expect((await res.done).errno).toBe(1242);
    expect(res.rows.length).toBe(2999);
    expect(res.warnings).toEqual([]);
    expect(res.rows[2998]![0]).toBe(2999);
    const [rows] = await c.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('a client that stops reading holds its statement back ("Writing to net"); KILL QUERY ends it with 1317', async () => {
    const c = await srv.connect();
    const killer = await srv.connect();
    const id = c.threadId!;
    const big = stream(c, "SELECT id, REPEAT('k', 100000) AS pad FROM t");
    // the client reads nothing more from its socket (the query has gone out)
    coreOf(c).stream.pause();
    await stateOf(id, 'Writing to net');
    // the kernel's socket buffers still take a few chunks after the client stops reading (each
    // one lets the statement send again for a moment): SHOW PROCESSLIST shows the wait once they
    // are full
    let mine: { Id: number; Command: string; State: string } | undefined;
    for (const until = performance.now() + 20_000; performance.now() < until; ) {
      const [list] = await killer.query('SHOW PROCESSLIST');
      mine = (list as Array<{ Id: number; Command: string; State: string }>).find((r) => r.Id === id);
      if (mine?.State === 'Writing to net') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(mine).toMatchObject({ Command: 'Query', State: 'Writing to net' });
    await killer.query(`KILL QUERY ${id}`);
    coreOf(c).stream.resume();
    const end = await big.done;
    expect(end.errno).toBe(1317);
    expect(big.warnings).toEqual([]);
    // some rows came before the ERR, far from all 20,000 (about 2 GB)
    expect(big.rows.length).toBeGreaterThan(0);
    expect(big.rows.length).toBeLessThan(N);
    big.rows.forEach((r, i) => {
      expect(r[0]).toBe(i + 1);
    });
    const [rows] = await c.query('SELECT 2 AS two');
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('a client that does not read for net_write_timeout seconds is dropped and its statement ends', async () => {
    const c = await srv.connect();
    const other = await srv.connect();
    const id = c.threadId!;
    await c.query('SET SESSION net_write_timeout = 1');
    const closed = new Promise<void>((resolve) => coreOf(c).stream.once('close', () => resolve()));
    stream(c, "SELECT id, REPEAT('w', 100000) AS pad FROM t");
    coreOf(c).stream.pause();
    await stateOf(id, 'Writing to net');
    const t0 = performance.now();
    // the server closes the connection about a second after its statement began to wait
    for (let i = 0; i < 300 && host.processList.get(id) !== undefined; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(host.processList.get(id)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(5000);
    coreOf(c).stream.resume();
    await closed;
    const [rows] = await other.query('SELECT 3 AS three');
    expect(rows).toEqual([{ three: 3 }]);
  });

  it('a locking read that waits for a row lock after rows went out sends every row once, in order', async () => {
    const reader = await srv.connect();
    const writer = await srv.connect();
    await writer.query('BEGIN');
    await writer.query(`UPDATE t SET v = 1000 WHERE id = ${N - 10}`);
    const res = stream(reader, 'SELECT id, v, s FROM t FOR UPDATE');
    await stateOf(reader.threadId!, 'Waiting for row lock');
    // rows before the locked one have gone to the client already
    await writer.query('COMMIT');
    expect((await res.done).errno).toBeUndefined();
    expect(res.rows.length).toBe(N);
    expect(res.warnings).toEqual([]);
    res.rows.forEach((r, i) => {
      expect(r[0]).toBe(i + 1);
    });
    expect(res.rows[N - 11]![1]).toBe(1000);
    await writer.query(`UPDATE t SET v = ${(N - 10) % 97} WHERE id = ${N - 10}`);
  });
});

describe('the memory of `enginekit serve --threads 2` while its client does not read', () => {
  it('a 400 MB result read by a paused client keeps the server under 120 MB above its start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-stream-'));
    const socket = join(dir, 'serve.sock');
    const child = spawn(
      process.execPath,
      [
        join(engineDir, 'dist', 'cli.js'),
        'serve',
        '--db',
        join(dir, 's.ekdb'),
        '--create',
        '--socket',
        socket,
        '--threads',
        '2',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ENGINEKIT_PASSWORD: 'm' } },
    );
    const rss = (): number => {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return Number(m![1]) * 1024;
    };
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const opts = { socketPath: socket, user: 'root', password: 'm', database: 'test' };
      const c = await mysql.createConnection(opts);
      const admin = await mysql.createConnection(opts);
      await admin.query('CREATE TABLE r (id INT PRIMARY KEY)');
      await admin.query(
        `INSERT INTO r VALUES ${Array.from({ length: 400 }, (_, i) => `(${i + 1})`).join(',')}`,
      );
      // warm up: the same statement over a few rows
      await c.query('SELECT id, REPEAT(CHAR(65 + id % 26), 1048576) AS s FROM r WHERE id <= 4');
      const before = rss();
      let got = 0;
      let bytes = 0;
      const q = coreOf(c).query({
        sql: 'SELECT id, REPEAT(CHAR(65 + id % 26), 1048576) AS s FROM r',
        rowsAsArray: true,
      });
      coreOf(c).stream.pause();
      q.on('result', (row: unknown) => {
        const r = row as [number, string];
        expect(r[0]).toBe(got + 1);
        got++;
        bytes += r[1].length;
      });
      const ended = new Promise<number | undefined>((resolve) => {
        let errno: number | undefined;
        q.on('error', (e: { errno?: number }) => {
          errno = e.errno;
        });
        q.on('end', () => resolve(errno));
      });
      // the statement is held back by the client that does not read
      let state = '';
      for (let i = 0; i < 500 && state !== 'Writing to net'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const [list] = await admin.query('SHOW PROCESSLIST');
        state = (list as Array<{ Id: number; State: string }>).find((x) => x.Id === c.threadId)?.State ?? '';
      }
      expect(state).toBe('Writing to net');
      await new Promise((r) => setTimeout(r, 1000));
      const held = rss() - before;
      console.log(
        `server RSS while a paused client reads a 400 MiB result: +${(held / 2 ** 20).toFixed(1)} MiB`,
      );
      expect(held).toBeLessThan(120 * 2 ** 20);
      coreOf(c).stream.resume();
      expect(await ended).toBeUndefined();
      expect(got).toBe(400);
      expect(bytes).toBe(400 * 1048576);
      c.destroy();
      admin.destroy();
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
