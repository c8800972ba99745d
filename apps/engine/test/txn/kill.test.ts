// Real crashes of long transactions and checkpoints: a child process on the built engine is
// killed with SIGKILL inside a 50,000-row transaction (recovery rolls it back from its undo
// pages) and while it writes checkpoints between acknowledged commits (none is lost).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const child = join(import.meta.dirname, '..', 'helpers', 'big-trx-child.js');
const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
if (!existsSync(dist)) throw new Error(`${dist} is missing: run pnpm build first`);
const dir = mkdtempSync(join(tmpdir(), 'engine-txn-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTS = { innodb_page_size: 4096, innodb_buffer_pool_size: 256 * 4096, innodb_log_file_size: 1 << 20 };

/** Runs the child until `until(lines)` holds, waits `delayMs`, SIGKILLs it; returns its lines. */
function runAndKill(args: string[], until: (line: string) => boolean, delayMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buf = '';
    let err = '';
    let killing = false;
    const timer = setTimeout(() => p.kill('SIGKILL'), 90_000);
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i = buf.indexOf('\n');
      while (i >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        lines.push(line);
        if (!killing && until(line)) {
          killing = true;
          setTimeout(() => p.kill('SIGKILL'), delayMs);
        }
        i = buf.indexOf('\n');
      }
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`child ended without SIGKILL: ${err}`));
      else resolve(lines);
    });
  });
}

function check(path: string): { rows: number; ids: Set<number>; rolledBack: number } {
  const db = Database.open(path, OPTS);
  try {
    const t = db.table('t');
    t.checkIndexes();
    const ids = new Set<number>();
    for (const r of new Session(db).query('SELECT id FROM t').rows) ids.add(Number(r[0]));
    return { rows: ids.size, ids, rolledBack: db.recoveredRollbacks };
  } finally {
    db.close();
  }
}

describe('SIGKILL of long transactions and checkpoints', () => {
  it('a kill inside a 50,000-row transaction: recovery rolls it back from its undo pages', async () => {
    const path = join(dir, 'big.ekdb');
    const lines = await runAndKill(['big', path], (l) => l === 'rows 30000', 20);
    expect(lines).not.toContain('committed');
    const after = check(path);
    expect(after.rolledBack).toBe(1);
    expect(after.rows).toBe(1000);
    // and the next open finds nothing more to roll back
    expect(check(path).rolledBack).toBe(0);
  });

  it('kills between and during checkpoints lose no acknowledged commit', async () => {
    const path = join(dir, 'ckpt.ekdb');
    let next = 5000;
    const acked = new Set<number>();
    for (let cycle = 0; cycle < 4; cycle++) {
      const lines = await runAndKill(
        ['ckpt', path, String(next)],
        (l) => l === `ack ${next + 100 + cycle * 37}`,
        cycle * 7,
      );
      for (const l of lines) if (l.startsWith('ack ')) acked.add(Number(l.slice(4)));
      const { ids } = check(path);
      for (const id of acked) expect(ids.has(id), `acknowledged ${id}`).toBe(true);
      next = Math.max(...ids) + 1;
    }
  });
});
