// Real crashes: a child process runs autocommit INSERTs through a Session on the built engine,
// acknowledging each one on stdout once it returns; it is killed with SIGKILL at random moments,
// the database is reopened (recovery) and checked against the ledger of acknowledged commits,
// and the child goes on from there. With innodb_flush_log_at_trx_commit=1 no acknowledged
// commit is ever missing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/index.js';
import { TableHandler } from '../../../src/handler/table-handler.js';

const child = join(import.meta.dirname, '..', '..', 'helpers', 'redo-kill-child.js');
const dist = join(import.meta.dirname, '..', '..', '..', 'dist', 'index.js');
if (!existsSync(dist)) throw new Error(`${dist} is missing: run pnpm build first`);
const dir = mkdtempSync(join(tmpdir(), 'engine-redo-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS = { innodb_page_size: 4096, innodb_buffer_pool_size: 32 * 4096, innodb_log_file_size: 131072 };

/** Runs the child until `acks` more inserts are acknowledged plus a random delay, then SIGKILLs it. */
function runAndKill(
  path: string,
  first: number,
  acks: number,
  delayMs: number,
): Promise<{ last: number; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, path, '1', String(first)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let err = '';
    let last = first - 1;
    let killing = false;
    const lines: string[] = [];
    const timer = setTimeout(() => {
      if (!killing) p.kill('SIGKILL');
    }, 30_000);
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i = buf.indexOf('\n');
      while (i >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        lines.push(line);
        if (line.startsWith('ack ')) last = Number(line.slice(4));
        i = buf.indexOf('\n');
      }
      if (!killing && last - first + 1 >= acks) {
        killing = true;
        setTimeout(() => p.kill('SIGKILL'), delayMs);
      }
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`child ended without SIGKILL: ${err}`));
      else resolve({ last, lines });
    });
  });
}

describe('SIGKILL at random moments, flush_log_at_trx_commit=1', () => {
  it('every acknowledged commit survives each kill; the trees and indexes stay consistent', async () => {
    const path = join(dir, 'kill.ekdb');
    let next = 0;
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 48271) + 11) >>> 0;
      return seed % n;
    };
    let recoveredRounds = 0;
    let parentRecoveries = 0;
    for (let round = 0; round < 5; round++) {
      const { last, lines } = await runAndKill(path, next, 20 + rnd(60), rnd(40));
      if (lines.some((l) => l.startsWith('ready recovered'))) recoveredRounds++;
      const db = Database.open(path, OPTS);
      if (db.recovery !== null) parentRecoveries++;
      try {
        const t = db.table('k');
        t.checkIndexes();
        for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
        const ids: number[] = [];
        new TableHandler(t).rndScan((r) => {
          ids.push(r.toArray()[0] as number);
          return true;
        });
        // Every acknowledged id is there; beyond the last one at most the insert in flight.
        for (let id = 0; id <= last; id++)
          expect(ids.includes(id), `acknowledged id ${id} missing`).toBe(true);
        const beyond = ids.filter((id) => id > last);
        expect(beyond.length).toBeLessThanOrEqual(1);
        expect(t.rows).toBe(ids.length);
        next = Math.max(last, ...ids) + 1;
      } finally {
        db.close();
      }
    }
    // Each reopen in the parent recovers; the child then opens a clean file.
    expect(next).toBeGreaterThan(100);
    expect(recoveredRounds).toBe(0);
    expect(parentRecoveries).toBeGreaterThan(0);
  }, 60_000);
});
