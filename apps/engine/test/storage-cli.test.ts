// The storage commands end to end through the built binary (dist/cli.js: build first):
// tpch load, info, and their one-line errors with exit status 1 (input) or 2 (usage).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TPCH_TABLES } from '@enginekit/tpch';

const cli = join(import.meta.dirname, '..', 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'engine-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('enginekit tpch load / info', () => {
  it('loads SF 0.01 with --sf and info lists every table and index', () => {
    const db = join(dir, 'a.ekdb');
    const load = run('tpch', 'load', '--db', db, '--sf', '0.01');
    expect(load.stderr).toBe('');
    expect(load.status).toBe(0);
    expect(load.stdout).toMatch(/lineitem 60175/);
    const info = run('info', '--db', db);
    expect(info.status).toBe(0);
    expect(info.stdout).toMatch(/^lineitem +60175 +PRIMARY +l_orderkey,l_linenumber +\d+ +\d+ +\d+$/m);
    for (const ix of ['i_l_shipdate', 'i_l_suppkey_partkey', 'i_o_custkey', 'i_ps_suppkey', 'i_n_regionkey'])
      expect(info.stdout).toContain(ix);
    // the stored statistics agree with a walk of every tree
    const exact = run('info', '--db', db, '--exact');
    expect(exact.status).toBe(0);
    const withoutVerified = (t: string): string => t.replace(/^verified: .*\n/m, '');
    expect(withoutVerified(exact.stdout)).toBe(withoutVerified(info.stdout));
    expect(exact.stdout).toContain("every page's checksum, every tree\n");
  }, 120_000);

  it('a malformed .tbl line: one line naming file, line, column and value; exit 1; no file left', () => {
    const tbl = join(dir, 'bad');
    mkdirSync(tbl);
    for (const t of TPCH_TABLES) writeFileSync(join(tbl, `${t}.tbl`), '');
    writeFileSync(join(tbl, 'region.tbl'), '0|AFRICA|ok|\n1|AMERICA\n');
    const db = join(dir, 'b.ekdb');
    const r = run('tpch', 'load', '--db', db, '--tbl', tbl, '--quiet');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "enginekit: tpch load: region.tbl:2: column r_comment VARCHAR(152): short line: 2 of 3 fields: '1|AMERICA'\n",
    );
    expect(existsSync(db)).toBe(false);
  });

  it('info on a file that is not a database, or missing: one line, exit 1', () => {
    const p = join(dir, 'junk');
    writeFileSync(p, 'x'.repeat(5000));
    const r = run('info', '--db', p);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^enginekit: info: .*junk is not an enginekit database: no ENGINEKT magic in page 0\n$/,
    );
    expect(run('info', '--db', join(dir, 'nope')).stderr).toMatch(/does not exist/);
  });

  it('usage mistakes: exit 2', () => {
    expect(run('tpch', 'load', '--db', 'x', '--sf', '1', '--tbl', 'y').status).toBe(2);
    expect(run('tpch', 'load', '--sf', '1').stderr).toMatch(/--db is required/);
    expect(run('info').stderr).toMatch(/info: --db is required/);
  });
});
