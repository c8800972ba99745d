// `enginekit serve` end to end through the built binary (dist/cli.js: build first): the startup
// line, the pid file, a client over TCP and over a unix socket, clean shutdown on SIGTERM and
// SIGINT (the data is in the file afterwards), and usage errors.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVE } from '../../src/commands/usage.js';
import { Database } from '../../src/storage/database.js';
import { Session } from '../../src/session/session.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'enginekit-serve-'));
  dirs.push(d);
  return d;
}

/** Starts the server; resolves with the child and its startup line. */
function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; line: string; exited: Promise<number | null>; stderr: () => string }> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ENGINEKIT_PASSWORD: '', ...env },
  });
  children.push(child);
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl), exited, stderr: () => err });
    });
    child.stderr!.on('data', (d) => {
      err += String(d);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`no startup line: ${err}`)), 20_000).unref();
  });
}

describe('enginekit serve', () => {
  it('listens on loopback, writes the pid file, shuts down on SIGTERM with the data flushed', async () => {
    const d = tmp();
    const db = join(d, 'served.db');
    const pid = join(d, 'served.pid');
    const { child, line, exited } = await serve([
      '--db',
      db,
      '--create',
      '--port',
      '0',
      '--pid-file',
      pid,
      '--user',
      'u',
      '--password',
      'p',
    ]);
    const m = /listening on 127\.0\.0\.1:(\d+)$/.exec(line);
    expect(m, line).not.toBeNull();
    expect(readFileSync(pid, 'utf8').trim()).toBe(String(child.pid));
    const c = await mysql.createConnection({
      host: '127.0.0.1',
      port: Number(m![1]),
      user: 'u',
      password: 'p',
    });
    await c.query('CREATE TABLE kept (id INT PRIMARY KEY, name VARCHAR(10))');
    await c.execute('INSERT INTO kept VALUES (?, ?)', [1, 'one']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    c.destroy();
    expect(existsSync(pid)).toBe(false);
    const reopened = Database.open(db);
    try {
      expect(new Session(reopened).query('SELECT * FROM kept').rows).toEqual([[1, 'one']]);
    } finally {
      reopened.close();
    }
  });

  it('serves a unix socket and stops on SIGINT, removing the socket', async () => {
    const d = tmp();
    const sock = join(d, 'e.sock');
    const { child, line, exited } = await serve(['--db', join(d, 's.db'), '--create', '--socket', sock], {
      ENGINEKIT_PASSWORD: 'from-env',
    });
    expect(line).toContain(`listening on unix socket ${sock}`);
    const c = await mysql.createConnection({ socketPath: sock, user: 'root', password: 'from-env' });
    const [r] = await c.query('SELECT @@version AS v');
    expect(r).toEqual([{ v: '8.0.36-enginekit' }]);
    await c.end();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // The socket is gone; the database keeps its redo log and doublewrite files beside it.
    expect(readdirSync(d).filter((f) => !/\.ib_(logfile\d+|doublewrite)$/.test(f))).toEqual(['s.db']);
  });

  it('after a SIGKILL the same command starts again; a second server on the same file or socket is refused', async () => {
    const d = tmp();
    const sock = join(d, 'k.sock');
    const db = join(d, 'k.db');
    const env = { ENGINEKIT_PASSWORD: 'pw' };
    const first = await serve(['--db', db, '--create', '--socket', sock], env);
    const c = await mysql.createConnection({ socketPath: sock, user: 'root', password: 'pw' });
    await c.query('CREATE TABLE t (id INT PRIMARY KEY)');
    await c.query('INSERT INTO t VALUES (1)');
    c.destroy();
    // while it runs: another server on its file is refused, and so is its socket
    const other = spawnSync(process.execPath, [cli, 'serve', '--db', db, '--port', '0'], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(other.status).toBe(1);
    expect(other.stderr).toContain(`process ${first.child.pid} has it open`);
    const sql = spawnSync(process.execPath, [cli, 'sql', '--db', db, '-e', 'INSERT INTO t VALUES (2)'], {
      encoding: 'utf8',
    });
    expect(sql.status).not.toBe(0);
    expect(sql.stderr).toContain('unable to lock');
    first.child.kill('SIGKILL');
    await first.exited;
    // a crash leaves the socket file and the lock file: the same command starts anyway
    expect(existsSync(sock)).toBe(true);
    const again = await serve(['--db', db, '--socket', sock], env);
    const c2 = await mysql.createConnection({
      socketPath: sock,
      user: 'root',
      password: 'pw',
      database: 'test',
    });
    const [rows] = await c2.query({ sql: 'SELECT id FROM t', rowsAsArray: true });
    expect(rows).toEqual([[1]]);
    await c2.end();
    const second = spawnSync(
      process.execPath,
      [cli, 'serve', '--db', join(d, 'other.db'), '--create', '--socket', sock],
      {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      },
    );
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`socket ${sock} is in use by another server`);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('refuses a database path that does not exist unless --create, and a directory, naming the path', () => {
    const d = tmp();
    const typo = join(d, 'typo.db');
    const r = spawnSync(process.execPath, [cli, 'serve', '--db', typo, '--port', '0'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([
      1,
      `enginekit: serve: ${typo} does not exist; add --create to create a new database there\n`,
    ]);
    expect(readdirSync(d)).toEqual([]);
    const dir = spawnSync(process.execPath, [cli, 'serve', '--db', d, '--create', '--port', '0'], {
      encoding: 'utf8',
    });
    expect([dir.status, dir.stderr]).toEqual([
      1,
      `enginekit: serve: ${d} is a directory, not a database file\n`,
    ]);
  });

  it("docs/server.md's option table lists every option serve --help prints", () => {
    const help = spawnSync(process.execPath, [cli, 'serve', '--help'], { encoding: 'utf8' }).stdout;
    const synopsis = help.split('\n')[0] ?? '';
    const inHelp = [...synopsis.matchAll(/--([a-z_-]+)/g)].map((m) => m[1]);
    expect(inHelp).toEqual(expect.arrayContaining([...SERVE.spec.flags, 'db', 'port', 'threads']));
    const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'server.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => l.startsWith('| `--'));
    const documented = new Set(
      rows.flatMap((r) => [...(r.split(' | ')[0] ?? '').matchAll(/`--([a-z_-]+)/g)].map((m) => m[1])),
    );
    for (const option of inHelp) expect(documented.has(option), `--${option}`).toBe(true);
  });

  it('never serves a password-less administrator: a random password is printed once', async () => {
    const d = tmp();
    const db = join(d, 'r.db');
    const first = await serve(['--db', db, '--create', '--port', '0']);
    const port = Number(/:(\d+)$/.exec(first.line)![1]);
    await new Promise((r) => setTimeout(r, 200));
    const m = /the account 'root'@'localhost' has the password (\S+) \(shown once/.exec(first.stderr());
    expect(m, first.stderr()).not.toBeNull();
    const denied = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }).then(
      () => 0,
      (e: { errno: number }) => e.errno,
    );
    expect(denied).toBe(1045);
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: m![1]! });
    await c.query('SELECT 1');
    c.destroy();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // the account keeps its password: a second start prints none
    const second = await serve(['--db', db, '--port', '0']);
    await new Promise((r) => setTimeout(r, 200));
    expect(second.stderr()).not.toContain('password');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('takes the password from --password-file, and warns about --password', async () => {
    const d = tmp();
    const file = join(d, 'pw');
    writeFileSync(file, 's3cret\n', { mode: 0o600 });
    const a = await serve(['--db', join(d, 'f.db'), '--create', '--port', '0', '--password-file', file]);
    const port = Number(/:(\d+)$/.exec(a.line)![1]);
    const c = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: 's3cret' });
    await c.query('SELECT 1');
    c.destroy();
    expect(a.stderr()).toBe('');
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    const b = await serve(['--db', join(d, 'f.db'), '--port', '0', '--password', 'other']);
    await new Promise((r) => setTimeout(r, 200));
    expect(b.stderr()).toContain('warning: --password is visible to other users');
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  });

  it('refuses bad options with a usage error', () => {
    const r = spawnSync(
      process.execPath,
      [cli, 'serve', '--db', 'x.db', '--socket', '/tmp/x', '--port', '1'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--socket replaces --port and --bind');
    const r2 = spawnSync(process.execPath, [cli, 'serve'], { encoding: 'utf8' });
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain('serve: --db is required');
  });
});
