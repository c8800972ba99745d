// A database reached through a symbolic link (to the file, or to its directory) keeps every file
// named after it — the redo log group, the doublewrite file, the lock file, a load's side file —
// beside the file the link leads to. So a crash while it was open through the link is recovered
// by an open of the real path, with every acknowledged commit, and the reverse; a read-only look
// through the link sees the log that needs recovery.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultPlan, seededFate } from '@enginekit/buffer-pool';
import { generateTpch } from '@enginekit/tpch';
import { afterAll, describe, expect, it } from 'vitest';
import { infoCommand } from '../../../src/commands/info.js';
import { Database, loadTpch } from '../../../src/index.js';
import { resolveDatabasePath } from '../../../src/storage/real-path.js';
import { checkRecovered, OPTS, runOnFaults, setup, workload } from '../../helpers/crash-model.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'engine-redo-symlink-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A directory `real` and a directory `links` beside it, fresh for each case. */
function layout(name: string): { real: string; links: string } {
  const real = join(dir, name, 'real');
  const links = join(dir, name, 'links');
  mkdirSync(real, { recursive: true });
  mkdirSync(links, { recursive: true });
  return { real, links };
}

const COMPANIONS = ['.ib_logfile0', '.ib_logfile1', '.ib_doublewrite'];

describe('resolveDatabasePath', () => {
  it('follows links to a file, to a directory, to a file not made yet; leaves a plain path as it is', () => {
    const { real, links } = layout('resolve');
    const file = join(real, 'a.ekdb');
    Database.create(file, OPTS).close();
    symlinkSync('../real/a.ekdb', join(links, 'rel.ekdb'));
    symlinkSync(file, join(links, 'abs.ekdb'));
    symlinkSync(real, join(links, 'dir'));
    symlinkSync('../real/later.ekdb', join(links, 'dangling.ekdb'));
    symlinkSync('chain.ekdb', join(links, 'chain2.ekdb'));
    symlinkSync('rel.ekdb', join(links, 'chain.ekdb'));
    expect(resolveDatabasePath(join(links, 'rel.ekdb'))).toBe(file);
    expect(resolveDatabasePath(join(links, 'abs.ekdb'))).toBe(file);
    expect(resolveDatabasePath(join(links, 'chain2.ekdb'))).toBe(file);
    expect(resolveDatabasePath(join(links, 'dir', 'a.ekdb'))).toBe(file);
    expect(resolveDatabasePath(join(links, 'dir', 'new.ekdb'))).toBe(join(real, 'new.ekdb'));
    expect(resolveDatabasePath(join(links, 'dangling.ekdb'))).toBe(join(real, 'later.ekdb'));
    expect(resolveDatabasePath(file)).toBe(file);
    expect(resolveDatabasePath(join(dir, 'no', 'such', 'x.ekdb'))).toBe(join(dir, 'no', 'such', 'x.ekdb'));
    symlinkSync('loop-b', join(links, 'loop-a'));
    symlinkSync('loop-a', join(links, 'loop-b'));
    expect(() => resolveDatabasePath(join(links, 'loop-a'))).toThrow(/loop/);
  });
});

describe('a database opened through a symbolic link', () => {
  it('creates its log files, doublewrite file and lock file beside the real file, and names it by its real path', () => {
    const { real, links } = layout('placement');
    const link = join(links, 'db.ekdb');
    symlinkSync('../real/db.ekdb', link); // dangling until the create
    const db = Database.create(link, OPTS);
    try {
      const file = join(real, 'db.ekdb');
      expect(db.path).toBe(file);
      for (const c of [...COMPANIONS, '.lock']) expect(existsSync(file + c)).toBe(true);
      expect(readdirSync(links)).toEqual(['db.ekdb']);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
    } finally {
      db.close();
    }
    expect(readdirSync(real).sort()).toEqual(['db.ekdb', ...COMPANIONS.map((c) => `db.ekdb${c}`)].sort());
  });

  it('refuses a second open through the other name while the first holds the file (one lock)', () => {
    const { real, links } = layout('one-lock');
    const file = join(real, 'db.ekdb');
    Database.create(file, OPTS).close();
    symlinkSync(real, join(links, 'd'));
    const db = Database.open(join(links, 'd', 'db.ekdb'), OPTS);
    try {
      expect(existsSync(`${file}.lock`)).toBe(true);
      expect(existsSync(join(links, 'd', 'db.ekdb.lock'))).toBe(true); // the same file, seen through the link
      expect(readdirSync(links)).toEqual(['d']);
    } finally {
      db.close();
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  const trxs = workload(23, 80);
  const cases = [
    { name: 'through the link, recovered by the real path', openBy: 'link', recoverBy: 'real' },
    { name: 'by the real path, recovered through the link', openBy: 'real', recoverBy: 'link' },
  ] as const;
  for (const c of cases) {
    it(`a crash ${c.name}: every acknowledged commit is there`, () => {
      const { real, links } = layout(`crash-${c.openBy}`);
      const file = join(real, 'db.ekdb');
      setup(file);
      const link = join(links, 'db.ekdb');
      symlinkSync(file, link);
      const by = { link, real: file };
      const dry = runOnFaults(by[c.openBy], new FaultPlan(), 'lost', trxs);
      expect(dry.crashed).toBe(false);
      let recovered = 0;
      for (let i = 1; i <= 6; i++) {
        rmSync(real, { recursive: true, force: true });
        mkdirSync(real);
        setup(file);
        const n = Math.round((dry.writes * i) / 7);
        const r = runOnFaults(
          by[c.openBy],
          new FaultPlan({ crashAtWrite: n, tear: i % 2 === 0 }),
          seededFate(i),
          trxs,
        );
        expect(r.crashed).toBe(true);
        expect(readdirSync(links)).toEqual(['db.ekdb']);
        const db = Database.open(by[c.recoverBy], OPTS);
        recovered += db.recovery === null ? 0 : 1;
        db.close();
        checkRecovered(by[c.recoverBy], r);
      }
      // the crashes left redo to apply, which was found beside the real file
      expect(recovered).toBeGreaterThan(0);
    });
  }

  it('info through a link finds the log that still needs recovery', () => {
    const { real, links } = layout('info');
    const file = join(real, 'db.ekdb');
    setup(file);
    const link = join(links, 'db.ekdb');
    symlinkSync(file, link);
    const db = Database.open(link, OPTS);
    db.table('t').insert([1, 2, 'x']);
    db.commit();
    db.abandon();
    expect(() => infoCommand(['--db', link, '--quiet'])).toThrow(/needs crash recovery/);
    Database.open(link, OPTS).close();
    expect(() => infoCommand(['--db', link, '--quiet'])).not.toThrow();
  });

  it('a TPC-H load through a link builds its side file beside the real file and replaces the file, not the link', () => {
    const { real, links } = layout('load');
    const file = join(real, 'tpch.ekdb');
    Database.create(file, OPTS).close();
    const link = join(links, 'tpch.ekdb');
    symlinkSync(file, link);
    // the first of 200 chunks of each table is enough to load
    const tbl = join(dir, 'load', 'tbl');
    generateTpch({ sf: 0.01, out: tbl, chunks: 200, step: 1 });
    for (const f of readdirSync(tbl))
      if (f.endsWith('.tbl.1')) renameSync(join(tbl, f), join(tbl, f.slice(0, -2)));
    const seen: string[] = [];
    loadTpch({
      db: link,
      tbl,
      redo: false,
      onProgress: (p) => {
        if (p.phase === 'rows' && seen.length === 0) seen.push(...readdirSync(real), ...readdirSync(links));
      },
    });
    expect(seen.some((f) => f.startsWith('tpch.ekdb.loading-'))).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(links)).toEqual(['tpch.ekdb']);
    // the old database's log files went with it
    expect(readdirSync(real)).toEqual(['tpch.ekdb']);
    const db = Database.open(link, { readOnly: true });
    expect(db.table('region').rows).toBe(5);
    db.close();
  }, 60_000);
});
