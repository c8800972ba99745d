// `enginekit serve --threads 2` under SIGKILL: sessions on worker threads write through the one
// redo log, so an acknowledged commit survives a crash whichever worker ran it. A table of 100
// accounts, then 8 mysql2 connections run transfer transactions (BEGIN; UPDATE a; UPDATE b;
// INSERT a ledger row; COMMIT) until the server is killed at a random moment; after each kill the
// file is recovered here and checked: the tables exist, every acknowledged ledger id is there, the
// total is unchanged, every balance is its start plus the ledger's transfers (nothing uncommitted
// visible), every index consistent. Five kill cycles on the same file, the server restarted on
// it each time with the same command (the socket the killed server left is replaced). The server
// runs the built package (rebuilt when stale).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/index.js';
import { TableHandler } from '../../../src/handler/table-handler.js';

const engineDir = join(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'engine-redo-shared-serve-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACCOUNTS = 100;
const START = 1000;

function serve(path: string, socket: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(engineDir, 'dist', 'cli.js'),
      'serve',
      '--db',
      path,
      '--create',
      '--socket',
      socket,
      '--threads',
      '2',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ENGINEKIT_PASSWORD: 'bank' } },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d) => {
      if (String(d).includes('listening on')) resolve(child);
      else reject(new Error(`serve said ${String(d)}`));
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const retryable = (e: unknown): boolean => {
  const n = (e as { errno?: number }).errno;
  return n === 1213 || n === 1205;
};

describe('enginekit serve --threads 2, SIGKILL during transfer transactions', () => {
  it('every acknowledged transfer survives each kill; the total is constant; the indexes are consistent', async () => {
    const path = join(dir, 'bank.ekdb');
    let seed = 777;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 48271) + 11) >>> 0;
      return seed % n;
    };
    const acked = new Set<number>();
    let nextId = 1;
    let total = 0;
    for (let cycle = 0; cycle < 5; cycle++) {
      // A killed server leaves its socket file behind: the same command replaces it.
      const socket = join(dir, 'bank.sock');
      const server = await serve(path, socket);
      const exited = new Promise<NodeJS.Signals | null>((r) => server.once('exit', (_c, s) => r(s)));
      const conns = await Promise.all(
        Array.from({ length: 8 }, () =>
          mysql.createConnection({ socketPath: socket, user: 'root', password: 'bank', database: 'test' }),
        ),
      );
      if (cycle === 0) {
        await conns[0]!.query('CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL)');
        await conns[0]!.query(
          'CREATE TABLE ledger (id INT PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amt INT NOT NULL)',
        );
        const rows = Array.from({ length: ACCOUNTS }, (_, i) => `(${i}, ${START})`).join(', ');
        await conns[0]!.query(`INSERT INTO acct VALUES ${rows}`);
      }
      const target = cycle === 0 ? 400 : 150 + rnd(250);
      let ackedNow = 0;
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        setTimeout(() => server.kill('SIGKILL'), rnd(30));
      };
      await Promise.all(
        conns.map(async (c) => {
          for (;;) {
            const id = nextId++;
            const a = rnd(ACCOUNTS);
            const b = (a + 1 + rnd(ACCOUNTS - 1)) % ACCOUNTS;
            const amt = 1 + rnd(50);
            try {
              await c.query('BEGIN');
              await c.query(`UPDATE acct SET bal = bal - ${amt} WHERE id = ${a}`);
              await c.query(`UPDATE acct SET bal = bal + ${amt} WHERE id = ${b}`);
              await c.query(`INSERT INTO ledger VALUES (${id}, ${a}, ${b}, ${amt})`);
              await c.query('COMMIT');
            } catch (e) {
              if (!retryable(e)) return; // the server is gone
              await c.query('ROLLBACK').catch(() => undefined);
              continue;
            }
            acked.add(id);
            if (++ackedNow >= target) kill();
          }
        }),
      );
      expect(await exited).toBe('SIGKILL');
      for (const c of conns) c.destroy();
      total += ackedNow;

      const db = Database.open(path);
      try {
        expect(db.recovery).not.toBeNull();
        const acct = db.table('acct');
        const ledger = db.table('ledger');
        acct.checkIndexes();
        ledger.checkIndexes();
        const bal = new Map<number, number>();
        new TableHandler(acct).rndScan((r) => {
          const [id, v] = r.toArray() as [number, number];
          bal.set(id, v);
          return true;
        });
        expect(bal.size).toBe(ACCOUNTS);
        expect([...bal.values()].reduce((s, v) => s + v, 0)).toBe(ACCOUNTS * START);
        const want = new Map<number, number>(Array.from({ length: ACCOUNTS }, (_, i) => [i, START]));
        const ids = new Set<number>();
        new TableHandler(ledger).rndScan((r) => {
          const [id, src, dst, amt] = r.toArray() as [number, number, number, number];
          ids.add(id);
          want.set(src, want.get(src)! - amt);
          want.set(dst, want.get(dst)! + amt);
          return true;
        });
        for (const id of acked) expect(ids.has(id), `acknowledged transfer ${id} missing`).toBe(true);
        // At most the transfers whose COMMIT was in flight are there without an acknowledgement:
        // one per connection (a group commit can make all of them durable before any OK is sent).
        expect(ids.size - acked.size).toBeLessThanOrEqual(conns.length);
        expect(bal).toEqual(want);
        for (const id of ids) acked.add(id);
      } finally {
        db.close();
      }
    }
    expect(total).toBeGreaterThanOrEqual(400 + 3 * 150);
  }, 600_000);
});
