// Files the engine creates are the owner's alone (0600), a crashed process's spill directories
// do not stay in the temp directory, and `enginekit sql` refuses a --db that is not a regular
// file at once (a FIFO would block its open forever). The CLI cases run the built binary
// (dist/cli.js: build first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'engine-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sql = (args: string[]) => {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [cli, 'sql', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, HOME: dir },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
};

describe('files', () => {
  it('the database, redo log and doublewrite files are created 0600', () => {
    const old = process.umask(0o022);
    try {
      const sub = join(dir, 'modes');
      mkdirSync(sub);
      const db = Database.create(join(sub, 'm.ekdb'));
      const s = new Session(db);
      s.query('CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10))');
      s.query("INSERT INTO t VALUES (1, 'x'), (2, 'y')");
      s.close();
      db.close();
      const files = readdirSync(sub);
      expect(files.length).toBeGreaterThan(1);
      for (const f of files) expect([f, statSync(join(sub, f)).mode & 0o777]).toEqual([f, 0o600]);
    } finally {
      process.umask(old);
    }
  });

  it('the sql history file is 0600', () => {
    const home = join(dir, 'home');
    mkdirSync(home);
    const r = spawnSync(process.execPath, [cli, 'sql', '--db', join(dir, 'h.ekdb'), '--create'], {
      encoding: 'utf8',
      timeout: 20_000,
      input: 'SELECT 1;\n',
      env: { ...process.env, HOME: home },
    });
    expect(r.status).toBe(0);
    expect(statSync(join(home, '.enginekit_history')).mode & 0o777).toBe(0o600);
  });
});

describe('leftovers', () => {
  it('a spill directory of a dead process is removed when a command starts', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(gone.stdout.toString());
    const left = join(tmpdir(), `enginekit-sort-${pid}-LeFt01`);
    mkdirSync(left);
    writeFileSync(join(left, 'spill-0.tmp'), Buffer.alloc(4096));
    const live = join(tmpdir(), `enginekit-join-${process.pid}-LiVe01`);
    mkdirSync(live);
    try {
      const r = sql(['--db', join(dir, 'l.ekdb'), '--create', '-e', 'SELECT 1']);
      expect(r.status).toBe(0);
      expect(existsSync(left)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      rmSync(left, { recursive: true, force: true });
      rmSync(live, { recursive: true, force: true });
    }
  });

  it('sql --db on a FIFO, a socket, a device or a directory refuses at once, naming it', async () => {
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const sockPath = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(sockPath, r));
    try {
      const cases: Array<[string, string]> = [
        [fifo, 'a FIFO (named pipe)'],
        [sockPath, 'a socket'],
        ['/dev/null', 'a character device'],
        [dir, 'a directory'],
      ];
      for (const [path, what] of cases) {
        const r = sql(['--db', path, '-e', 'SELECT 1']);
        expect(r.status, path).toBe(1);
        expect(r.stderr, path).toBe(`enginekit: sql: ${path} is ${what}, not a database file\n`);
        expect(r.ms, path).toBeLessThan(10_000);
      }
    } finally {
      server.close();
    }
  });
});
