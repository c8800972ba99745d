// The enginekit command end to end, through the built binary (dist/cli.js, built by `pnpm build`
// before the tests run): exit statuses, messages, and what each case leaves on disk — for every
// failure and interrupt, nothing but what was there before.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPageLsn, sealPage } from '@enginekit/buffer-pool';
import { TPCH_TABLES } from '@enginekit/tpch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, Session } from '../../src/index.js';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first`);
const dir = mkdtempSync(join(tmpdir(), 'engine-cli-cases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh private TMPDIR for one run, so leftovers can be seen. */
function privateTmp(): string {
  const t = join(dir, `tmp-${n++}`);
  mkdirSync(t);
  return t;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  tmp: string;
}

function run(args: readonly string[], cwd = dir): Run {
  const tmp = privateTmp();
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, TMPDIR: tmp },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, tmp };
}

/** Nothing in the private TMPDIR, and the stderr is short lines without a stack trace. */
function clean(r: Run): void {
  expect(readdirSync(r.tmp)).toEqual([]);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

/** Every file of a directory: its SHA-256, size and modification time. */
function snapshot(d: string): Record<string, { sha: string; size: number; mtimeMs: number }> {
  const out: Record<string, { sha: string; size: number; mtimeMs: number }> = {};
  for (const f of readdirSync(d)) {
    const st = statSync(join(d, f));
    out[f] = {
      sha: createHash('sha256')
        .update(readFileSync(join(d, f)))
        .digest('hex'),
      size: st.size,
      mtimeMs: st.mtimeMs,
    };
  }
  return out;
}

const tbl = join(dir, 'tbl');
beforeAll(() => {
  const g = run(['tpch', 'gen', '--sf', '0.05', '--out', tbl, '--quiet']);
  expect(g.status).toBe(0);
}, 120_000);

describe('--help, --version, usage', () => {
  it('every command answers --help and --version, exit 0', () => {
    const version = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
    ).version;
    for (const cmd of [[], ['tpch', 'gen'], ['tpch', 'load'], ['info'], ['demo']]) {
      const h = run([...cmd, '--help']);
      expect(h.status).toBe(0);
      expect(h.stdout).toMatch(/^usage: enginekit /);
      expect(h.stdout).toContain('1 input or data error');
      expect(h.stdout).toContain('2 usage error');
      expect(h.stdout).toContain('130 interrupted');
      const v = run([...cmd, '--version']);
      expect(v.status).toBe(0);
      expect(v.stdout).toBe(`enginekit ${version}\n`);
    }
    expect(run([]).stdout).toMatch(/^usage: enginekit <command>/);
  });

  it('an unknown option is named as unknown; every usage mistake is exit 2, no stack', () => {
    const cases: Array<[string[], string]> = [
      [['tpch', 'gen', '--frobnicate'], 'enginekit: tpch gen: unknown option --frobnicate'],
      [['info', '--frobnicate', 'x'], 'enginekit: info: unknown option --frobnicate'],
      [['tpch', 'gen', '--out'], 'enginekit: tpch gen: --out needs a value'],
      [
        ['tpch', 'gen', '--out', 'x', '--sf', '0'],
        "enginekit: tpch gen: --sf must be a positive number, got '0'",
      ],
      [
        ['tpch', 'gen', '--out', 'x', '--sf', '1.5'],
        "enginekit: tpch gen: --sf from 1 up must be an integer, got '1.5'",
      ],
      [
        ['tpch', 'gen', '--out', 'x', '--chunks', '2', '--step', '3'],
        'enginekit: tpch gen: --step 3 is beyond --chunks 2',
      ],
      [
        ['tpch', 'load', '--db', 'x', '--sf', '1', '--tbl', 'y'],
        'enginekit: tpch load: give exactly one of --sf N or --tbl DIR',
      ],
      [['tpch', 'load', '--sf', '1'], 'enginekit: tpch load: --db is required'],
      [['info'], 'enginekit: info: --db is required'],
      [['info', 'extra'], "enginekit: info: unexpected argument 'extra'"],
      [['frob'], "enginekit: unknown command 'frob'"],
      [['tpch', 'frob'], "enginekit: unknown tpch subcommand 'frob'"],
      [['tpch'], 'enginekit: tpch needs a subcommand: gen or load'],
    ];
    for (const [args, line] of cases) {
      const r = run(args);
      expect([args, r.status]).toEqual([args, 2]);
      expect(r.stderr.split('\n')[0]).toBe(line);
      expect(r.stderr.split('\n').length).toBeLessThanOrEqual(3);
      clean(r);
    }
  });

  it('info --quiet verifies and prints nothing', () => {
    const db = join(dir, 'quiet.ekdb');
    expect(run(['tpch', 'load', '--db', db, '--tbl', tbl, '--quiet']).status).toBe(0);
    const r = run(['info', '--db', db, '--quiet']);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
  }, 120_000);

  it('--sf takes any positive number: 1e-9 is one row per scaled table', () => {
    const out = join(dir, 'tiny');
    const r = run(['tpch', 'gen', '--sf', '1e-9', '--out', out, '--quiet']);
    expect(r.status).toBe(0);
    clean(r);
    expect(readFileSync(join(out, 'lineitem.tbl'), 'utf8').split('\n').length).toBeLessThanOrEqual(8);
    expect(readFileSync(join(out, 'part.tbl'), 'utf8').split('\n')).toHaveLength(2);
  }, 60_000);
});

describe('a load never loses a file', () => {
  it('refuses to replace a file that is not an enginekit database, byte for byte untouched', () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    const r = run(['tpch', 'load', '--db', notes, '--tbl', tbl, '--force']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `enginekit: tpch load: ${notes} exists and is not an enginekit database; not replacing it\n`,
    );
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    clean(r);
  });

  it('replaces an existing database only with --force', () => {
    const db = join(dir, 'keep.ekdb');
    expect(run(['tpch', 'load', '--db', db, '--tbl', tbl, '--quiet']).status).toBe(0);
    const before = readFileSync(db);
    const r = run(['tpch', 'load', '--db', db, '--tbl', tbl]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `enginekit: tpch load: ${db} already holds a database; add --force to replace it\n`,
    );
    expect(readFileSync(db).equals(before)).toBe(true);
    clean(r);
    const forced = run(['tpch', 'load', '--db', db, '--tbl', tbl, '--force', '--quiet']);
    expect([forced.status, forced.stderr]).toEqual([0, '']);
    clean(forced);
    expect(readdirSync(dir).filter((f) => f.includes('.loading-'))).toEqual([]);
  }, 120_000);

  it('checks the target before any work: a directory, a missing or non-directory parent', () => {
    mkdirSync(join(dir, 'adir'));
    writeFileSync(join(dir, 'afile'), 'x');
    const cases: Array<[string, string]> = [
      [join(dir, 'adir'), `${join(dir, 'adir')} is a directory, not a database file`],
      [join(dir, 'missing', 'x.ekdb'), `directory ${join(dir, 'missing')} does not exist`],
      [join(dir, 'afile', 'x.ekdb'), `${join(dir, 'afile')} is not a directory`],
    ];
    for (const [db, why] of cases) {
      const started = performance.now();
      const r = run(['tpch', 'load', '--db', db, '--sf', '0.01']);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`enginekit: tpch load: ${why}\n`);
      expect(performance.now() - started).toBeLessThan(5000); // no generation ran
      clean(r);
    }
  });

  it.skipIf(process.getuid?.() === 0)('a directory without write permission, before any work', () => {
    const ro = join(dir, 'readonly');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    try {
      const r = run(['tpch', 'load', '--db', join(ro, 'x.ekdb'), '--sf', '0.01']);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`enginekit: tpch load: cannot write in directory ${ro}: permission denied\n`);
      clean(r);
    } finally {
      chmodSync(ro, 0o755);
    }
  });

  it('a missing .tbl file is an input error (exit 1) naming it, found before any work', () => {
    const part = join(dir, 'part-tbl');
    mkdirSync(part);
    for (const t of TPCH_TABLES.filter((t) => t !== 'orders')) writeFileSync(join(part, `${t}.tbl`), '');
    const r = run(['tpch', 'load', '--db', join(dir, 'm.ekdb'), '--tbl', part]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`enginekit: tpch load: ${join(part, 'orders.tbl')} does not exist\n`);
    expect(existsSync(join(dir, 'm.ekdb'))).toBe(false);
    clean(r);
  });

  it('a bad .tbl line: one line, exit 1, no side file and no temp file left', () => {
    const bad = join(dir, 'bad-tbl');
    mkdirSync(bad);
    for (const t of TPCH_TABLES) writeFileSync(join(bad, `${t}.tbl`), readFileSync(join(tbl, `${t}.tbl`)));
    writeFileSync(
      join(bad, 'orders.tbl'),
      `${readFileSync(join(tbl, 'orders.tbl'), 'latin1')}99999999|1|O|1.00|1995-02-29|1-URGENT|Clerk#1|0|x|\n`,
      'latin1',
    );
    const db = join(dir, 'bad.ekdb');
    const r = run(['tpch', 'load', '--db', db, '--tbl', bad, '--sort-buffer-mb', '0.0625']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^enginekit: tpch load: orders\.tbl:75001: column o_orderdate DATE: bad date: '1995-02-29'\n$/,
    );
    expect(readdirSync(dir).filter((f) => f.startsWith('bad.ekdb'))).toEqual([]);
    clean(r);
  }, 120_000);

  it('tpch gen --out naming an existing file: one line, exit 1, the file untouched', () => {
    const f = join(dir, 'plain.txt');
    writeFileSync(f, 'keep');
    const r = run(['tpch', 'gen', '--out', f]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`enginekit: tpch gen: ${f} exists and is not a directory\n`);
    expect(readFileSync(f, 'utf8')).toBe('keep');
    clean(r);
  });
});

/** Starts a command; resolves with its outcome after `signal` was sent once `ready()` held. */
function interrupt(
  args: readonly string[],
  ready: (tmp: string) => boolean,
  signal: NodeJS.Signals,
): Promise<Run & { sawTemp: boolean }> {
  const tmp = privateTmp();
  const child = spawn(process.execPath, [cli, ...args], { cwd: dir, env: { ...process.env, TMPDIR: tmp } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let sawTemp = false;
  const isReady = (): boolean => {
    try {
      return ready(tmp);
    } catch {
      return false; // a directory removed while it was listed: look again
    }
  };
  const timer = setInterval(() => {
    if (isReady()) {
      sawTemp = true;
      clearInterval(timer);
      child.kill(signal);
    }
  }, 10);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      clearInterval(timer);
      resolve({ status, stdout, stderr, tmp, sawTemp });
    });
  });
}

/** Every file under `d`, recursively. */
function filesUnder(d: string): string[] {
  return readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('interrupts and signals', () => {
  it('SIGINT during a load (side file and sort runs on disk): exit 130, nothing left', async () => {
    const db = join(dir, 'int.ekdb');
    const side = (): string[] => readdirSync(dir).filter((f) => f.startsWith('int.ekdb.loading-'));
    const r = await interrupt(
      ['tpch', 'load', '--db', db, '--tbl', tbl, '--sort-buffer-mb', '0.0625'],
      (tmp) =>
        side().length > 0 && filesUnder(tmp).some((f) => f.includes('enginekit-sort-') || f.endsWith('.tmp')),
      'SIGINT',
    );
    expect(r.sawTemp).toBe(true);
    expect(r.status).toBe(130);
    expect(r.stderr).toBe('enginekit: tpch load: interrupted by SIGINT; partial and temp files removed\n');
    expect(side()).toEqual([]);
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(r.tmp)).toEqual([]);
  }, 120_000);

  it('SIGTERM while generating for a load: exit 143, the generated files removed', async () => {
    const db = join(dir, 'term.ekdb');
    const r = await interrupt(
      ['tpch', 'load', '--db', db, '--sf', '0.1'],
      (tmp) => filesUnder(tmp).some((f) => f.endsWith('lineitem.tbl')),
      'SIGTERM',
    );
    expect(r.sawTemp).toBe(true);
    expect(r.status).toBe(143);
    expect(r.stderr).toBe('enginekit: tpch load: interrupted by SIGTERM; partial and temp files removed\n');
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(r.tmp)).toEqual([]);
  }, 120_000);

  it('SIGINT during tpch gen: exit 130, no half-written .tbl', async () => {
    const out = join(dir, 'gen-int');
    const r = await interrupt(
      ['tpch', 'gen', '--sf', '0.1', '--out', out],
      () => existsSync(join(out, 'orders.tbl')),
      'SIGINT',
    );
    expect(r.status).toBe(130);
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(r.tmp)).toEqual([]);
  }, 120_000);

  it('a closed stdout (demo | head -3) ends quietly, exit 0, temp files removed', async () => {
    const tmp = privateTmp();
    const child = spawn(process.execPath, [cli, 'demo'], { env: { ...process.env, TMPDIR: tmp } });
    let seen = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      seen += d;
      if (seen.split('\n').length > 3) child.stdout.destroy();
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(seen).toMatch(/^generated TPC-H SF 0\.01/);
    expect([status, stderr]).toEqual([0, '']);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);
});

describe('info verifies the file', () => {
  const good = join(dir, 'good.ekdb');
  beforeAll(() => {
    expect(run(['tpch', 'load', '--db', good, '--tbl', tbl, '--quiet']).status).toBe(0);
  }, 120_000);

  it('a sound file: exit 0, what it verified, every table and index; --exact walks agree', () => {
    const r = run(['info', '--db', good]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^verified: header, file length \(\d+ pages\), every page's checksum$/m);
    expect(r.stdout).toMatch(/^lineitem +\d+ +PRIMARY +l_orderkey,l_linenumber +\d+ +\d+ +\d+$/m);
    for (const ix of ['i_l_shipdate', 'i_l_suppkey_partkey', 'i_o_custkey', 'i_ps_suppkey', 'i_n_regionkey'])
      expect(r.stdout).toContain(ix);
    // the statistics ANALYZE stored agree with a walk and check of every tree
    const exact = run(['info', '--db', good, '--exact']);
    expect(exact.status).toBe(0);
    const withoutVerified = (t: string): string => t.replace(/^verified: .*\n/m, '');
    expect(withoutVerified(exact.stdout)).toBe(withoutVerified(r.stdout));
    expect(exact.stdout).toContain("every page's checksum, every tree\n");
  });

  it('a flipped byte in a data page: exit 1, one line naming the page, with and without --exact', () => {
    const bytes = readFileSync(good);
    const page = 40;
    bytes[page * 16384 + 3000] = bytes[page * 16384 + 3000]! ^ 0x20;
    const bad = join(dir, 'flipped.ekdb');
    writeFileSync(bad, bytes);
    for (const extra of [[], ['--exact'], ['--quiet']]) {
      const r = run(['info', '--db', bad, ...extra]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `enginekit: info: corrupt page ${page} of space 0 in ${bad}: checksum mismatch\n`,
      );
      expect(r.stdout).toBe('');
    }
  });

  it('a file truncated below its page count, or cut inside a page: exit 1 naming the page', () => {
    const bytes = readFileSync(good);
    const t = join(dir, 'truncated.ekdb');
    writeFileSync(t, bytes.subarray(0, 30 * 16384));
    const pages = bytes.length / 16384;
    for (const extra of [[], ['--exact']]) {
      const r = run(['info', '--db', t, ...extra]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `enginekit: info: ${t} is truncated: 30 pages long, its header records ${pages} (page 30 onwards is missing)\n`,
      );
    }
    writeFileSync(t, bytes.subarray(0, 30 * 16384 + 100));
    expect(run(['info', '--db', t]).stderr).toBe(
      `enginekit: info: ${t} is ${30 * 16384 + 100} bytes, not a whole number of 16384-byte pages: page 30 is cut short\n`,
    );
  });

  it('zero pages past the recorded count are the extension ahead of use; a written one is not', () => {
    const bytes = readFileSync(good);
    const pages = bytes.length / 16384;
    const grown = join(dir, 'grown.ekdb');
    writeFileSync(grown, Buffer.concat([bytes, Buffer.alloc(10 * 16384)]));
    const ok = run(['info', '--db', grown]);
    expect([ok.status, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toContain(
      `${pages} pages of 16384 bytes (and 10 zero pages the file was extended by ahead of use)`,
    );
    expect(ok.stdout).toContain(`verified: header, file length (${pages} pages)`);
    const tail = Buffer.alloc(10 * 16384);
    tail[3 * 16384 + 100] = 1;
    writeFileSync(grown, Buffer.concat([bytes, tail]));
    expect(run(['info', '--db', grown]).stderr).toBe(
      `enginekit: info: ${grown} has ${pages + 10} pages, its header records ${pages}: page ${pages + 3} was written after the header (not closed cleanly)\n`,
    );
  });

  it('a tree broken inside pages whose checksums hold: found by --exact, naming the index', () => {
    const db = Database.open(good);
    const root = db.table('lineitem').index('i_l_shipdate').tree.rootPage;
    db.abandon();
    const bytes = readFileSync(good);
    const base = root * 16384;
    bytes.fill(0xff, base + 200, base + 400); // overwrite part of the page directory and records
    sealPage(bytes, base, 16384, 0, root, getPageLsn(bytes, base)); // with a valid checksum again
    const broken = join(dir, 'resealed.ekdb');
    writeFileSync(broken, bytes);
    expect(run(['info', '--db', broken]).status).toBe(0); // the cheap checks cannot see it
    const r = run(['info', '--db', broken, '--exact']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^enginekit: info: index lineitem\\.i_l_shipdate \\(root page ${root}\\) fails its check: .+\n$`,
      ),
    );
  });

  it('opens read-only and writes nothing: no redo log made, every file byte- and mtime-identical', () => {
    const cases = join(dir, 'read-only');
    mkdirSync(cases);
    // a load's file (no redo log beside it), and a SQL database shut down cleanly (with one)
    const loaded = join(cases, 'loaded.ekdb');
    writeFileSync(loaded, readFileSync(good));
    const logged = join(cases, 'logged.ekdb');
    const db = Database.create(logged);
    new Session(db).query('CREATE TABLE t (a INT PRIMARY KEY)');
    new Session(db).query('INSERT INTO t VALUES (1), (2), (3)');
    db.close();
    const before = snapshot(cases);
    expect(Object.keys(before).sort()).toEqual([
      'loaded.ekdb',
      'logged.ekdb',
      'logged.ekdb.ib_doublewrite',
      'logged.ekdb.ib_logfile0',
      'logged.ekdb.ib_logfile1',
    ]);
    for (const f of [loaded, logged]) {
      for (const extra of [[], ['--exact'], ['--quiet']]) {
        const r = run(['info', '--db', f, ...extra]);
        expect([r.status, r.stderr]).toEqual([0, '']);
      }
    }
    expect(run(['info', '--db', logged]).stdout).toMatch(/^t +3 +PRIMARY +a /m);
    expect(snapshot(cases)).toEqual(before);
  });

  it('a database that needs crash recovery: refused read-only, naming the log, nothing written', () => {
    const cases = join(dir, 'crashed');
    mkdirSync(cases);
    const p = join(cases, 'crashed.ekdb');
    const db = Database.create(p);
    new Session(db).query('CREATE TABLE t (a INT PRIMARY KEY)');
    new Session(db).query('INSERT INTO t VALUES (1)');
    db.abandon(); // as a crash: the committed insert is in the log only
    const before = snapshot(cases);
    const r = run(['info', '--db', p]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^enginekit: info: ${p}\\.ib_logfile0 has \\d+ mini-transaction\\(s\\) to apply after its checkpoint: ${p} needs crash recovery, which a read-only open does not do .*\n$`,
      ),
    );
    expect(snapshot(cases)).toEqual(before);
    // a read-write open recovers it; then info reads it
    const again = Database.open(p);
    expect(new Session(again).query('SELECT a FROM t').rows).toEqual([[1]]);
    again.close();
    expect(run(['info', '--db', p]).stdout).toMatch(/^t +1 +PRIMARY +a /m);
  });

  it('a file that is not a database, or missing: one line, exit 1', () => {
    const p = join(dir, 'junk');
    writeFileSync(p, 'x'.repeat(5000));
    const r = run(['info', '--db', p]);
    expect([r.status, r.stderr]).toEqual([
      1,
      `enginekit: info: ${p} is not an enginekit database: no ENGINEKT magic in page 0\n`,
    ]);
    const m = run(['info', '--db', join(dir, 'nope')]);
    expect([m.status, m.stderr]).toEqual([1, `enginekit: info: ${join(dir, 'nope')} does not exist\n`]);
    const d = run(['info', '--db', dir]);
    expect([d.status, d.stderr]).toEqual([
      1,
      `enginekit: info: ${dir} is a directory, not a database file\n`,
    ]);
  });
});
