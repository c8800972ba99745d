// DDL under real crashes: a child process runs index builds (some failing with a duplicate key)
// and copying ALTER TABLEs on one table and is killed with SIGKILL at random moments. Every
// reopen finds the table whole: all its rows, every index agreeing with them, and no leftover of
// the statement that was cut short.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../../src/index.js';

const child = join(import.meta.dirname, '..', '..', 'helpers', 'ddl-kill-child.js');
const dist = join(import.meta.dirname, '..', '..', '..', 'dist', 'index.js');
if (!existsSync(dist)) throw new Error(`${dist} is missing: run pnpm build first`);
const dir = mkdtempSync(join(tmpdir(), 'engine-ddl-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS = { innodb_page_size: 4096, innodb_buffer_pool_size: 64 * 4096, innodb_log_file_size: 1 << 20 };

/** Runs the child until it has done `steps` statements, waits `delayMs` more, then SIGKILLs it. */
function runAndKill(path: string, steps: number, delayMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    let err = '';
    let done = 0;
    let killing = false;
    const timer = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      done += (buf.match(/^step /gm) ?? []).length;
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
      if (!killing && done >= steps) {
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
      else resolve(done);
    });
  });
}

describe('DDL killed at random moments', () => {
  it('every reopen finds the table whole, with no leftover of the cut statement', async () => {
    const path = join(dir, 'k.ekdb');
    // a seeded sequence of kill points, so a failure can be replayed
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let cycle = 0; cycle < 5; cycle++) {
      await runAndKill(path, 1 + (next() % 4), next() % 120);
      const db = Database.open(path, OPTS);
      try {
        expect(
          db
            .tables()
            .map((t) => t.name)
            .filter((n) => n.startsWith('#alter-')),
        ).toEqual([]);
        const t = db.table('t');
        t.checkIndexes();
        for (const ix of [t.primary, ...t.secondary]) ix.tree.checkValid();
        expect(t.secondary.map((x) => x.name)).not.toContain('u');
        const s = new Session(db);
        expect(s.query('SELECT COUNT(*), SUM(id) FROM t').rows[0]).toEqual([2000, '1999000']);
        expect(s.query('SELECT COUNT(*) FROM t WHERE v = 3').rows[0]![0]).toBe(286);
      } finally {
        db.close();
      }
    }
  });
});
