// The server through the real mysql2 client on loopback: text results and their column
// definitions, prepared statements, errors with MySQL's numbers, what clients send first,
// databases, status counters, authentication and the connection limits.
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';
import { MysqlServer } from '../../src/server/server.js';
import { failure, type Running, startServer } from '../helpers/server-helpers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
async function server(opts: Parameters<typeof startServer>[0] = {}): Promise<Running> {
  const r = await startServer(opts);
  running.push(r);
  return r;
}

describe('queries', () => {
  it('answers a query with rows and MySQL column definitions', async () => {
    const s = await server();
    const c = await s.connect();
    await c.query('CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10), c DECIMAL(10,2), d DATE, e DOUBLE)');
    const [ins] = await c.query("INSERT INTO t VALUES (1,'x',1.5,'2020-01-02',2.5),(2,NULL,NULL,NULL,NULL)");
    expect((ins as mysql.ResultSetHeader).affectedRows).toBe(2);
    const [rows, fields] = await c.query({ sql: 'SELECT * FROM t ORDER BY a', dateStrings: true });
    expect(rows).toEqual([
      { a: 1, b: 'x', c: '1.50', d: '2020-01-02', e: 2.5 },
      { a: 2, b: null, c: null, d: null, e: null },
    ]);
    const f = fields.map((x) => [x.name, x.columnType, x.decimals, x.flags, x.characterSet, x.columnLength]);
    // as MariaDB describes the columns (test/server/result-metadata.test.ts holds its recording):
    // `a` NOT NULL, PRIMARY KEY, part of a key, without a default (1 | 2 | 16384 | 4096)
    expect(f).toEqual([
      ['a', mysql.Types.LONG, 0, 20483, 63, 11],
      ['b', mysql.Types.VAR_STRING, 0, 0, 45, 40],
      ['c', mysql.Types.NEWDECIMAL, 2, 0, 63, 12],
      ['d', mysql.Types.DATE, 0, 128, 63, 10],
      ['e', mysql.Types.DOUBLE, 31, 0, 63, 22],
    ]);
    // the same statement through the API, as the oracle for values
    const api = new Session(s.db).query('SELECT * FROM t ORDER BY a');
    expect((rows as Record<string, unknown>[]).map((r) => Object.values(r))).toEqual(api.rows);
  });

  it('sends BigInt values beyond 2^53 exactly', async () => {
    const s = await server();
    const c = await s.connect({ supportBigNumbers: true, bigNumberStrings: true });
    const [rows] = await c.query(
      'SELECT 9007199254740993 AS k, 9223372036854775807 - 1 AS m, -9007199254740995 AS n',
    );
    expect(rows).toEqual([{ k: '9007199254740993', m: '9223372036854775806', n: '-9007199254740995' }]);
    const [prow] = await c.execute('SELECT ? + 1 AS j, ? AS k', [
      mysql.TypedParameter.LONGLONG(9007199254740993n),
      mysql.TypedParameter.LONGLONG(-9007199254740995n),
    ]);
    expect(prow).toEqual([{ j: '9007199254740994', k: '-9007199254740995' }]);
    // a plain BigInt travels as a string (mysql2 sends it as VAR_STRING), exact all the same
    const [srow] = await c.execute('SELECT ? AS k', [9007199254740993n]);
    expect(srow).toEqual([{ k: '9007199254740993' }]);
    const c2 = await s.connect({ supportBigNumbers: true, bigNumberStrings: false });
    const [asBig] = await c2.execute('SELECT ? AS k', [mysql.TypedParameter.BIGINT(9223372036854775807n)]);
    expect(asBig).toEqual([{ k: '9223372036854775807' }]);
  });

  it('stored BIGINT and DECIMAL(65,30) values travel exactly in text and binary rows', async () => {
    const s = await server();
    const c = await s.connect({ supportBigNumbers: true, bigNumberStrings: true });
    const d = '-12345678901234567890123456789012345.123456789012345678901234567890';
    await c.query('CREATE TABLE w (id BIGINT PRIMARY KEY, d DECIMAL(65,30))');
    await c.query(`INSERT INTO w VALUES (-9223372036854775808, ${d}), (9223372036854775807, 0.5)`);
    const want = [
      { id: '-9223372036854775808', d },
      { id: '9223372036854775807', d: '0.500000000000000000000000000000' },
    ];
    const [text] = await c.query('SELECT id, d FROM w ORDER BY id');
    expect(text).toEqual(want);
    const [binary] = await c.execute('SELECT id, d FROM w WHERE id <> ? ORDER BY id', [0]);
    expect(binary).toEqual(want);
    const [one] = await c.execute('SELECT d FROM w WHERE id = ?', [
      mysql.TypedParameter.LONGLONG(9223372036854775807n),
    ]);
    expect(one).toEqual([{ d: want[1]!.d }]);
  });

  it('returns a large result in full', async () => {
    const s = await server();
    const c = await s.connect();
    await c.query('CREATE TABLE l (id INT PRIMARY KEY, s VARCHAR(200))');
    const batch: string[] = [];
    for (let i = 0; i < 30_000; i++) batch.push(`(${i}, '${'v'.repeat(i % 200)}')`);
    for (let i = 0; i < batch.length; i += 5000)
      await c.query(`INSERT INTO l VALUES ${batch.slice(i, i + 5000).join(',')}`);
    const [rows] = await c.query('SELECT id, s FROM l ORDER BY id');
    const r = rows as { id: number; s: string }[];
    expect(r.length).toBe(30_000);
    for (let i = 0; i < r.length; i += 997) expect(r[i]).toEqual({ id: i, s: 'v'.repeat(i % 200) });
    const [prows] = await c.execute('SELECT id, s FROM l WHERE id >= ?', [0]);
    expect((prows as unknown[]).length).toBe(30_000);
    expect((prows as unknown[])[29_999]).toEqual({ id: 29_999, s: 'v'.repeat(29_999 % 200) });
  });

  it('reports errors with their numbers and SQLSTATEs', async () => {
    const s = await server();
    const c = await s.connect();
    expect(await failure(c.query('SELECT * FROM nope'))).toMatchObject({ errno: 1146, sqlState: '42S02' });
    expect(await failure(c.query('SELEC 1'))).toMatchObject({ errno: 1064, sqlState: '42000' });
    await c.query('CREATE TABLE u (a INT PRIMARY KEY)');
    await c.query('INSERT INTO u VALUES (1)');
    expect(await failure(c.query('INSERT INTO u VALUES (1)'))).toMatchObject({
      errno: 1062,
      sqlState: '23000',
    });
    expect(await failure(c.execute('SELECT nope FROM u WHERE a = ?', [1]))).toMatchObject({
      errno: 1054,
      sqlState: '42S22',
    });
    // multi-statements are off: the second statement is a syntax error, the first never runs
    expect(await failure(c.query('INSERT INTO u VALUES (2); SELECT 1'))).toMatchObject({
      errno: 1064,
      sqlState: '42000',
    });
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM u');
    expect(rows).toEqual([{ n: 1 }]);
    // the connection is still usable after every error
    const [one] = await c.query('SELECT 1 AS x');
    expect(one).toEqual([{ x: 1 }]);
  });
});

describe('what clients send first', () => {
  it('answers the client preamble, SET NAMES, @@version and @@autocommit', async () => {
    const s = await server();
    const c = await s.connect();
    const [vc] = await c.query('SELECT @@version_comment LIMIT 1');
    expect(vc).toEqual([{ '@@version_comment': 'enginekit' }]);
    await c.query('SET NAMES utf8mb4');
    const [v] = await c.query('SELECT @@version AS v, @@autocommit AS ac');
    expect(v).toEqual([{ v: '8.0.36-enginekit', ac: 1 }]);
    await c.query("SET optimizer_switch='index_merge=off'");
    const [sw] = await c.query("SHOW VARIABLES LIKE 'optimizer_switch'");
    expect((sw as { Value: string }[])[0]!.Value).toContain('index_merge=off');
  });

  it('answers USE, SHOW DATABASES, CREATE/DROP DATABASE through the engine', async () => {
    const s = await server();
    const c = await s.connect();
    await c.query('USE test');
    expect(await failure(c.query('USE other'))).toMatchObject({ errno: 1049, sqlState: '42000' });
    const [dbs] = await c.query('SHOW DATABASES');
    expect(dbs).toEqual([{ Database: 'information_schema' }, { Database: 'mysql' }, { Database: 'test' }]);
    const [none] = await c.query("SHOW DATABASES LIKE 'x%'");
    expect(none).toEqual([]);
    expect(await failure(c.query('CREATE DATABASE test'))).toMatchObject({ errno: 1007 });
    const [ok] = await c.query('CREATE DATABASE IF NOT EXISTS test');
    expect((ok as mysql.ResultSetHeader).warningStatus).toBe(1);
    const [created] = await c.query('CREATE DATABASE sbtest');
    expect((created as mysql.ResultSetHeader).affectedRows).toBe(1);
    expect(await failure(c.query('DROP DATABASE nosuch'))).toMatchObject({ errno: 1008 });
    const [d] = await c.query('DROP DATABASE IF EXISTS nosuch');
    expect((d as mysql.ResultSetHeader).warningStatus).toBe(1);
    // connecting with the database named
    const c2 = await s.connect({ database: 'sbtest' });
    const [db] = await c2.query('SELECT DATABASE() AS d');
    expect(db).toEqual([{ d: 'sbtest' }]);
    expect(await failure(s.connect({ database: 'nosuch' }))).toMatchObject({ errno: 1049 });
  });

  it('keeps Threads_connected, Questions and Com_* in SHOW STATUS', async () => {
    const s = await server();
    const c = await s.connect();
    const c2 = await s.connect();
    await c2.query('SELECT 1');
    await c.query('SELECT 1');
    await c.query('SELECT 2');
    await c.execute('SELECT ? AS x', [1]);
    await c.query('SHOW DATABASES');
    const [rows] = await c.query('SHOW STATUS');
    const st = Object.fromEntries(
      (rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, Number(r.Value)]),
    );
    expect(st.Threads_connected).toBe(2);
    expect(st.Com_select).toBe(3);
    expect(st.Com_stmt_prepare).toBe(1);
    expect(st.Com_stmt_execute).toBe(1);
    expect(st.Com_show_databases).toBe(1);
    // SELECT 1, SELECT 2, the execution, SHOW DATABASES, SHOW STATUS (not the prepare)
    expect(st.Questions).toBe(5);
    const [g] = await c.query("SHOW GLOBAL STATUS LIKE 'Com_select'");
    expect(g).toEqual([{ Variable_name: 'Com_select', Value: '4' }]);
    c2.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const [after] = await c.query("SHOW STATUS LIKE 'Threads_connected'");
    expect(after).toEqual([{ Variable_name: 'Threads_connected', Value: '1' }]);
  });

  it('answers COM_PING', async () => {
    const s = await server();
    const c = await s.connect();
    await c.ping();
  });
});

describe('authentication and limits', () => {
  it('accepts the right password and refuses a wrong one with 1045 only', async () => {
    const s = await server({ user: 'app', password: 's3cret' });
    const c = await s.connect();
    const [r] = await c.query('SELECT 1 AS one');
    expect(r).toEqual([{ one: 1 }]);
    const bad = await failure(s.connect({ password: 'wrong' }));
    expect(bad).toEqual({
      errno: 1045,
      sqlState: '28000',
      message: "Access denied for user 'app'@'127.0.0.1' (using password: YES)",
    });
    expect(await failure(s.connect({ password: '' }))).toMatchObject({ errno: 1045 });
    expect(await failure(s.connect({ user: 'root', password: 's3cret' }))).toMatchObject({ errno: 1045 });
    // no session was opened for a refused client
    expect(s.server.host.connected).toBe(1);
  });

  it('refuses connections past max_connections with 1040', async () => {
    const s = await server({ max_connections: 3 });
    await s.connect();
    await s.connect();
    const third = await s.connect();
    expect(await failure(s.connect())).toMatchObject({ errno: 1040, sqlState: '08004' });
    // a place frees when a connection ends
    third.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await s.connect();
    const [r] = await again.query('SELECT @@max_connections AS m');
    expect(r).toEqual([{ m: 3 }]);
  });

  it('closes a connection that sends a packet over max_allowed_packet with 1153', async () => {
    const s = await server({ max_allowed_packet: 4096 });
    const c = await s.connect();
    const e = await failure(c.query(`SELECT '${'x'.repeat(5000)}'`));
    expect(e).toMatchObject({ errno: 1153, sqlState: '08S01' });
    const c2 = await s.connect();
    const [r] = await c2.query(`SELECT '${'y'.repeat(1000)}' AS v`);
    expect((r as { v: string }[])[0]!.v.length).toBe(1000);
  });

  it('closes a connection idle past wait_timeout with 4031', async () => {
    const s = await server({ wait_timeout: 3600 });
    const watcher = await s.connect();
    const c = await s.connect();
    const gone = new Promise<unknown>((resolve) => c.on('error', resolve));
    await c.query('SET SESSION wait_timeout = 1');
    const e = (await gone) as { code: unknown };
    expect(e.code).toBe(4031);
    await expect(c.query('SELECT 1')).rejects.toThrow();
    const [r] = await watcher.query("SHOW STATUS LIKE 'Threads_connected'");
    expect(r).toEqual([{ Variable_name: 'Threads_connected', Value: '1' }]);
  });

  it('binds to loopback by default and serves a unix socket', async () => {
    const s = await server();
    expect(s.server.address).toMatchObject({ host: '127.0.0.1' });
    const dir = mkdtempSync(join(tmpdir(), 'enginekit-sock-'));
    const db = Database.temporary();
    const sock = join(dir, 'enginekit.sock');
    const srv = new MysqlServer(db, { socket: sock });
    try {
      await srv.listen();
      const c = await mysql.createConnection({ socketPath: sock, user: 'root' });
      const [r] = await c.query('SELECT 2 AS two');
      expect(r).toEqual([{ two: 2 }]);
      await c.end();
    } finally {
      await srv.close();
      db.close();
      expect(readdirSync(dir)).toEqual([]);
      rmSync(dir, { recursive: true });
    }
  });
});

describe('commands without a client API', () => {
  function frame(seq: number, payload: Buffer): Buffer {
    return Buffer.concat([
      Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, payload.length >> 16, seq]),
      payload,
    ]);
  }

  /**
   * A raw client: handshake as root with no password, then `frames` (already framed) sent in one
   * write; resolves with every byte after the login's OK, and whether the server closed.
   */
  async function rawSession(port: number, frames: Buffer[]): Promise<{ bytes: Buffer; closed: boolean }> {
    return new Promise((resolve, reject) => {
      const sock = netConnect(port, '127.0.0.1');
      let got = Buffer.alloc(0);
      let phase = 0;
      let closed = false;
      sock.on('close', () => {
        closed = true;
      });
      sock.on('data', (d) => {
        got = Buffer.concat([got, d]);
        if (phase === 0 && got.length >= 4 && got.length >= 4 + got.readUIntLE(0, 3)) {
          got = Buffer.alloc(0);
          phase = 1;
          // HandshakeResponse41: PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH, empty auth
          const body = Buffer.concat([
            Buffer.from([0x00, 0x82, 0x08, 0x00]),
            Buffer.from([0, 0, 0, 1, 45]),
            Buffer.alloc(23),
            Buffer.from('root\0'),
            Buffer.from([0]),
            Buffer.from('mysql_native_password\0'),
          ]);
          sock.write(frame(1, body));
        } else if (phase === 1 && got.length >= 4 && got.length >= 4 + got.readUIntLE(0, 3)) {
          expect(got[4]).toBe(0x00);
          got = Buffer.alloc(0);
          phase = 2;
          sock.write(Buffer.concat(frames));
          setTimeout(() => {
            sock.destroy();
            resolve({ bytes: got, closed });
          }, 250);
        }
      });
      sock.on('error', reject);
    });
  }

  async function raw(port: number, command: Buffer): Promise<Buffer> {
    return (await rawSession(port, [frame(0, command)])).bytes;
  }

  function packets(b: Buffer): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i + 4 <= b.length; ) {
      const n = b.readUIntLE(i, 3);
      out.push(b.subarray(i + 4, i + 4 + n));
      i += 4 + n;
    }
    return out;
  }

  it('COM_INIT_DB accepts the database and refuses another', async () => {
    const s = await server();
    const ok = packets(await raw(s.port, Buffer.concat([Buffer.from([0x02]), Buffer.from('test')])));
    expect(ok.length).toBe(1);
    expect(ok[0]![0]).toBe(0x00);
    const err = packets(await raw(s.port, Buffer.concat([Buffer.from([0x02]), Buffer.from('nope')])));
    expect(err[0]![0]).toBe(0xff);
    expect(err[0]!.readUInt16LE(1)).toBe(1049);
    expect(err[0]!.subarray(3, 9).toString()).toBe('#42000');
  });

  it('COM_FIELD_LIST lists a table’s column definitions then EOF', async () => {
    const s = await server();
    const c = await s.connect();
    await c.query('CREATE TABLE f (id INT PRIMARY KEY, name VARCHAR(20))');
    const p = packets(await raw(s.port, Buffer.concat([Buffer.from([0x04]), Buffer.from('f\0')])));
    expect(p.length).toBe(3);
    expect(p[2]![0]).toBe(0xfe);
    // catalog "def", schema "test", table "f", org table "f", name "id"
    expect(p[0]!.subarray(0, 19).toString('latin1')).toBe('\x03def\x04test\x01f\x01f\x02id\x02id');
  });

  it('an unknown command gets 1047 and the connection stays', async () => {
    const s = await server();
    const p = packets(await raw(s.port, Buffer.from([0x63])));
    expect(p[0]![0]).toBe(0xff);
    expect(p[0]!.readUInt16LE(1)).toBe(1047);
  });

  it('COM_STMT_SEND_LONG_DATA supplies a parameter; COM_STMT_RESET drops it; unknown ids are 1243', async () => {
    const s = await server();
    const prepare = Buffer.concat([Buffer.from([0x16]), Buffer.from('SELECT ? AS v')]);
    const id1 = Buffer.from([1, 0, 0, 0]);
    // execute statement 1: bitmap 0, types bound (VAR_STRING), value 'ok'
    const exec = Buffer.concat([
      Buffer.from([0x17]),
      id1,
      Buffer.from([0, 1, 0, 0, 0, 0x00, 0x01, 0xfd, 0x00, 0x02]),
      Buffer.from('ok'),
    ]);
    // the same without the value: parameter 0 comes from long data
    const execLong = Buffer.concat([
      Buffer.from([0x17]),
      id1,
      Buffer.from([0, 1, 0, 0, 0, 0x00, 0x01, 0xfd, 0x00]),
    ]);
    const chunk = (text: string): Buffer =>
      Buffer.concat([Buffer.from([0x18]), id1, Buffer.from([0, 0]), Buffer.from(text)]);
    const badParam = Buffer.concat([Buffer.from([0x18]), id1, Buffer.from([5, 0]), Buffer.from('x')]);
    const reset = Buffer.concat([Buffer.from([0x1a]), id1]);
    const resetUnknown = Buffer.concat([Buffer.from([0x1a]), Buffer.from([9, 0, 0, 0])]);
    const r = await rawSession(s.port, [frame(0, prepare)]);
    // prepare OK: status 0, id 1, 1 column, 1 parameter; then the parameter definition and EOF,
    // the column definition (named v) and EOF
    const p = packets(r.bytes);
    expect(p[0]!.subarray(0, 9).toString('hex')).toBe('000100000001000100');
    expect(p.length).toBe(5);
    expect(p[3]!.includes(Buffer.from([1, 0x76]))).toBe(true);
    const all = await rawSession(s.port, [
      frame(0, prepare),
      frame(0, chunk('lo')),
      frame(0, chunk('ng')),
      frame(0, execLong),
      frame(0, exec),
      frame(0, chunk('dropped')),
      frame(0, reset),
      frame(0, exec),
      frame(0, badParam),
      frame(0, exec),
      frame(0, resetUnknown),
    ]);
    const q = packets(all.bytes);
    // rows are 0x00, a one-byte bitmap, then the value
    const rows = q
      .filter((x) => x[0] === 0x00 && x[1] === 0x00 && x[2] === x.length - 3)
      .map((x) => x.subarray(3).toString());
    // and one OK, for the reset
    expect(q.filter((x) => x.toString('hex') === '00000002000000').length).toBe(1);
    expect(rows).toEqual(['long', 'ok', 'ok']);
    const errs = q.filter((x) => x[0] === 0xff).map((x) => x.readUInt16LE(1));
    expect(errs).toEqual([1210, 1243]);
  });

  it('a command with a wrong sequence id, or a truncated one, gets an ERR and the connection closes', async () => {
    const s = await server();
    const bad = await rawSession(s.port, [frame(3, Buffer.from([0x0e]))]);
    const p = packets(bad.bytes);
    expect(p.length).toBe(1);
    expect(p[0]!.readUInt16LE(1)).toBe(1156);
    expect(bad.closed).toBe(true);
    const short = await rawSession(s.port, [frame(0, Buffer.from([0x17, 1, 0]))]);
    const q = packets(short.bytes);
    expect(q[0]!.readUInt16LE(1)).toBe(1835);
    expect(q[0]!.subarray(3, 9).toString()).toBe('#HY000');
    expect(short.closed).toBe(true);
    // the server still accepts
    const c = await s.connect();
    await c.ping();
  });
});
