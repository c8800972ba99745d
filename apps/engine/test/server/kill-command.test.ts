// KILL's privileges and COM_PROCESS_KILL (command 0x0c, the deprecated kill older clients send
// through mysql_kill()), on sessions on the main thread and on worker threads, as MariaDB answers:
// a connection of one's own user may be killed; another user's needs CONNECTION ADMIN (here:
// global ALL), else 1095 ER_KILL_DENIED_ERROR (HY000) "You are not owner of thread N"; an unknown
// id is 1094 ER_NO_SUCH_THREAD (HY000) "Unknown thread id: N" (MariaDB 10.11's texts, `perror
// 1094 1095`). COM_PROCESS_KILL kills the whole connection (MariaDB's KILL_CONNECTION_HARD) and
// answers OK.
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

const engineDir = join(import.meta.dirname, '..', '..');
beforeAll(() => buildFresh(engineDir), 300_000);

function frame(seq: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(4);
  h.writeUIntLE(payload.length, 0, 3);
  h[3] = seq;
  return Buffer.concat([h, payload]);
}

/** The packets' payloads in `b`. */
function packets(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i + 4 <= b.length; ) {
    const n = b.readUIntLE(i, 3);
    out.push(b.subarray(i + 4, i + 4 + n));
    i += 4 + n;
  }
  return out;
}

/** Logs in as `user` (empty password) over a bare socket, sends `command`, returns the reply's packets. */
function rawCommand(port: number, user: string, command: Buffer): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const sock = netConnect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let phase = 0;
    const whole = (): boolean => got.length >= 4 && got.length >= 4 + got.readUIntLE(0, 3);
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (phase === 0 && whole()) {
        got = Buffer.alloc(0);
        phase = 1;
        // HandshakeResponse41: PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH, empty auth response
        const body = Buffer.concat([
          Buffer.from([0x00, 0x82, 0x08, 0x00]),
          Buffer.from([0, 0, 0, 1, 45]),
          Buffer.alloc(23),
          Buffer.from(`${user}\0`),
          Buffer.from([0]),
          Buffer.from('mysql_native_password\0'),
        ]);
        sock.write(frame(1, body));
      } else if (phase === 1 && whole()) {
        if (got[4] !== 0x00) reject(new Error(`login as ${user} failed`));
        got = Buffer.alloc(0);
        phase = 2;
        sock.write(frame(0, command));
      } else if (phase === 2 && whole()) {
        sock.destroy();
        resolve(packets(got));
      }
    });
    sock.on('error', reject);
  });
}

const processKill = (id: number): Buffer => {
  const b = Buffer.alloc(5);
  b[0] = 0x0c;
  b.writeUInt32LE(id, 1);
  return b;
};

/** An ERR packet's number, SQLSTATE and message. */
function err(p: Buffer): { errno: number; sqlState: string; message: string } {
  expect(p[0]).toBe(0xff);
  return {
    errno: p.readUInt16LE(1),
    sqlState: p.subarray(4, 9).toString(),
    message: p.subarray(9).toString(),
  };
}

/** Settles once the server has ended the connection (a killed idle one is told 1927, then closed). */
function killedNotice(c: mysql.Connection): Promise<boolean> {
  return new Promise((resolve) => c.on('error', () => resolve(true)));
}

describe.each([
  ['sessions on the main thread', 0],
  ['sessions on 2 worker threads', 2],
])('KILL privileges and COM_PROCESS_KILL: %s', (_name, threads) => {
  let srv: Running;

  beforeAll(async () => {
    srv = await startServer({}, threads);
    const c = await srv.connect();
    await c.query("CREATE USER 'u'@'localhost'");
    await c.query("GRANT SELECT ON test.* TO 'u'@'localhost'");
    c.destroy();
  }, 60_000);

  afterAll(async () => {
    await srv?.stop();
  });

  it('COM_PROCESS_KILL from an administrator closes the connection and answers OK', async () => {
    const victim = await srv.connect();
    const id = victim.threadId!;
    const told = killedNotice(victim);
    const reply = await rawCommand(srv.port, 'root', processKill(id));
    expect(reply.length).toBe(1);
    expect(reply[0]![0]).toBe(0x00);
    expect(await told).toBe(true);
    await expect(victim.query('SELECT 1')).rejects.toThrow();
  });

  it("another user's connection: 1095 for KILL, KILL QUERY and COM_PROCESS_KILL; the connection stays", async () => {
    const rootConn = await srv.connect();
    const id = rootConn.threadId!;
    const u = await srv.connect({ user: 'u', database: 'test' });
    const denied = { errno: 1095, sqlState: 'HY000', message: `You are not owner of thread ${id}` };
    await expect(u.query(`KILL ${id}`)).rejects.toMatchObject(denied);
    await expect(u.query(`KILL QUERY ${id}`)).rejects.toMatchObject(denied);
    expect(err((await rawCommand(srv.port, 'u', processKill(id)))[0]!)).toEqual(denied);
    const [rows] = await rootConn.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it("one's own user's connection may be killed without privileges; an unknown id is 1094", async () => {
    const mine = await srv.connect({ user: 'u', database: 'test' });
    const killer = await srv.connect({ user: 'u', database: 'test' });
    const told = killedNotice(mine);
    await killer.query(`KILL ${mine.threadId!}`);
    expect(await told).toBe(true);
    const unknown = { errno: 1094, sqlState: 'HY000', message: 'Unknown thread id: 987654' };
    await expect(killer.query('KILL 987654')).rejects.toMatchObject(unknown);
    expect(err((await rawCommand(srv.port, 'u', processKill(987654)))[0]!)).toEqual(unknown);
  });
});
