// One process owns a database file: a second process that opens it for writing is refused while
// the first lives (before anything is read or written), and takes over the lock once the first
// died — a SIGKILL leaves a stale lock file that the next open replaces. Read-only opens and the
// threads of the owning process are not refused. The other process runs the built package.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFresh } from '@enginekit/vitest-config/build-fresh';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/index.js';

const engineDir = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'engine-file-lock-'));
beforeAll(() => buildFresh(engineDir), 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that opens `path` and holds it until killed; resolves once it has it open. */
function holder(path: string): Promise<ReturnType<typeof spawn>> {
  const code = `
    import { Database } from ${JSON.stringify(join(engineDir, 'dist', 'index.js'))};
    const db = Database.open(${JSON.stringify(path)}, { innodb_log_file_size: 1 << 20 });
    console.log('open');
    setInterval(() => db.redo, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
  });
}

describe('the database file lock', () => {
  it('refuses a second process while the first lives; takes over after a SIGKILL', async () => {
    const path = join(dir, 'locked.ekdb');
    Database.create(path, { innodb_log_file_size: 1 << 20 }).close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const child = await holder(path);
    try {
      expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(child.pid));
      const before = statSync(path).mtimeMs;
      expect(() => Database.open(path, { innodb_log_file_size: 1 << 20 })).toThrow(
        new RegExp(`unable to lock .*locked\\.ekdb: process ${child.pid} has it open`),
      );
      expect(statSync(path).mtimeMs).toBe(before);
      // a read-only look is allowed (it writes nothing)
      const ro = Database.open(path, { readOnly: true });
      ro.close();
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    // the holder died without removing its lock: the next open takes it over
    expect(existsSync(`${path}.lock`)).toBe(true);
    const db = Database.open(path, { innodb_log_file_size: 1 << 20 });
    expect(readFileSync(`${path}.lock`, 'utf8').trim()).toBe(String(process.pid));
    db.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
