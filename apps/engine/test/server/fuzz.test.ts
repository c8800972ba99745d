// Random and truncated packets from many raw connections while a well-behaved mysql2
// connection keeps asking questions whose answers are known: every bad connection is closed
// (with an ERR where a reply is possible), the good one never sees a wrong answer, the server
// keeps accepting.
import { connect as netConnect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Running, startServer } from '../helpers/server-helpers.js';

/** A small seeded generator (xorshift32), so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

function frame(seq: number, payload: Buffer): Buffer {
  const h = Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, payload.length >> 16, seq]);
  return Buffer.concat([h, payload]);
}

const LOGIN = Buffer.concat([
  Buffer.from([0x00, 0x82, 0x08, 0x00, 0, 0, 0, 1, 45]),
  Buffer.alloc(23),
  Buffer.from('root\0'),
  Buffer.from([0]),
  Buffer.from('mysql_native_password\0'),
]);

const COMMANDS = [0x01, 0x02, 0x03, 0x04, 0x0e, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x63, 0x00, 0xff];

/** One hostile client: what it sends is drawn from `r`; resolves when the connection has closed (or after 5 s). */
function hostile(port: number, r: () => number): Promise<{ closedByServer: boolean; bytes: Buffer }> {
  return new Promise((resolve) => {
    const sock: Socket = netConnect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve({ closedByServer, bytes: got });
    };
    const timer = setTimeout(() => finish(false), 5000);
    const mode = Math.floor(r() * 4);
    const randomBytes = (n: number): Buffer =>
      Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
    let greeted = false;
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (greeted) return;
      greeted = true;
      if (mode === 0) {
        // garbage instead of a handshake response
        sock.write(randomBytes(1 + Math.floor(r() * 64)));
        setTimeout(() => sock.end(), 50);
      } else if (mode === 1) {
        // a truncated handshake response, then the client goes away
        const cut = Math.floor(r() * LOGIN.length);
        sock.write(frame(1, LOGIN.subarray(0, cut)));
        setTimeout(() => sock.end(), 50);
      } else {
        // log in, then random commands; some frames truncated or with a wrong sequence id
        sock.write(frame(1, LOGIN));
        setTimeout(() => {
          const n = 1 + Math.floor(r() * 6);
          for (let i = 0; i < n && !sock.destroyed; i++) {
            const body = Buffer.concat([
              Buffer.from([COMMANDS[Math.floor(r() * COMMANDS.length)]!]),
              randomBytes(Math.floor(r() * 40)),
            ]);
            const f = frame(r() < 0.8 ? 0 : Math.floor(r() * 256), body);
            sock.write(
              mode === 3 && i === n - 1 ? f.subarray(0, Math.max(1, Math.floor(r() * f.length))) : f,
            );
          }
          setTimeout(() => sock.end(), 50);
        }, 5);
      }
    });
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
  });
}

describe('fuzzing the protocol', () => {
  const running: Running[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
  });

  it('closes bad connections, never the server, and keeps answering a good one', async () => {
    const s = await startServer();
    running.push(s);
    const good = await s.connect();
    await good.query('CREATE TABLE acc (id INT PRIMARY KEY, v INT)');
    const rows = Array.from({ length: 50 }, (_, i) => `(${i}, ${i * 3})`).join(',');
    await good.query(`INSERT INTO acc VALUES ${rows}`);

    let stop = false;
    let checks = 0;
    const checker = (async () => {
      let i = 0;
      while (!stop) {
        const k = i++ % 50;
        const [a] = await good.execute('SELECT v FROM acc WHERE id = ?', [k]);
        expect(a).toEqual([{ v: k * 3 }]);
        const [b] = await good.query('SELECT COUNT(*) AS n, SUM(v) AS s FROM acc');
        expect(b).toEqual([{ n: 50, s: '3675' }]);
        checks++;
      }
    })();

    const seed = Number(process.env.FUZZ_SEED ?? 20261201);
    const r = rng(seed);
    let closed = 0;
    const errnos = new Set<number>();
    const total = 160;
    for (let batch = 0; batch < total / 16; batch++) {
      const results = await Promise.all(Array.from({ length: 16 }, () => hostile(s.port, r)));
      for (const res of results) {
        if (res.closedByServer) closed++;
        // whatever came back is well-framed: the greeting, then OK / ERR / result packets
        for (let i = 0; i + 4 <= res.bytes.length; ) {
          const n = res.bytes.readUIntLE(i, 3);
          expect(i + 4 + n).toBeLessThanOrEqual(res.bytes.length);
          if (res.bytes[i + 4] === 0xff && n >= 3) errnos.add(res.bytes.readUInt16LE(i + 5));
          i += 4 + n;
        }
      }
    }
    stop = true;
    await checker;
    expect(checks, `seed ${seed}`).toBeGreaterThan(0);
    // the error paths were reached: malformed packets, wrong sequence ids, unknown commands
    expect([...errnos].filter((e) => [1835, 1156, 1047].includes(e)).sort(), `seed ${seed}`).toEqual([
      1047, 1156, 1835,
    ]);
    // every hostile connection ended, none left open on the server
    expect(closed, `seed ${seed}`).toBe(total);
    // still accepting, still correct
    const fresh = await s.connect();
    const [one] = await fresh.query('SELECT SUM(v) AS s FROM acc');
    expect(one).toEqual([{ s: '3675' }]);
    await new Promise((res) => setTimeout(res, 1200));
    expect(s.server.host.connected).toBe(2);
  });
});
