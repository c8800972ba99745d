// A file's name survives a power cut only once its directory is fsynced. The fault devices model
// it: a file created by the run (data file, log files, doublewrite file) whose directory the
// engine had not fsynced since may be gone after the crash. A database created on fault devices,
// crashed anywhere after its first acknowledged commit, still has every file and every
// acknowledged commit; the same runs with the engine's directory fsyncs hidden from the model
// lose the database, which is what the fsyncs prevent. Removals and renames the engine relies on
// are followed by a directory fsync too.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultPlan } from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../../src/index.js';
import { fsyncDirectory } from '../../../src/storage/dir-sync.js';
import {
  checkRecovered,
  countingFate,
  OPTS,
  type ReorderTally,
  runOnFaults,
  setup,
  workload,
} from '../../helpers/crash-model.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-dir-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = ['db.ekdb', 'db.ekdb.ib_doublewrite', 'db.ekdb.ib_logfile0', 'db.ekdb.ib_logfile1'];

/** A fresh directory for one run. */
function fresh(name: string): string {
  const d = join(dir, name);
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d);
  return join(d, 'db.ekdb');
}

describe('directory fsyncs after creating the database files', () => {
  const trxs = workload(31, 60);
  const dry = runOnFaults(fresh('dry'), new FaultPlan(), 'lost', trxs, { create: true });
  // The plan's writes and syncs up to the first acknowledged commit: crash points after it.
  const first = runOnFaults(fresh('first'), new FaultPlan(), 'lost', trxs.slice(0, 1), { create: true });

  it('the run creates four files and fsyncs their directory', () => {
    expect(dry.crashed).toBe(false);
    expect(readdirSync(join(dir, 'dry')).sort()).toEqual(FILES);
    expect(dry.writes).toBeGreaterThan(first.writes + 20);
  });

  const tally: ReorderTally = { dropped: 0, latest: 0, older: 0, vanished: 0 };
  const points = Array.from({ length: 10 }, (_, i) => ({
    i,
    n: first.writes + 1 + Math.floor(((dry.writes - first.writes - 1) * i) / 10),
  }));
  it.each(points)(
    'a crash at write $n, after the first commit: every file and every acknowledged commit is there',
    ({ i, n }) => {
      const path = fresh(`after-${n}`);
      const fate = i % 2 === 0 ? 'lost' : countingFate(1000 + i, tally);
      const r = runOnFaults(path, new FaultPlan({ crashAtWrite: n }), fate, trxs, { create: true });
      expect(r.crashed).toBe(true);
      expect(r.acknowledged).toBe(true);
      expect(readdirSync(join(dir, `after-${n}`)).sort()).toEqual(FILES);
      checkRecovered(path, r);
    },
  );

  it('without the directory fsyncs (hidden from the model) the same crashes lose the database', () => {
    let lost = 0;
    for (const { n } of points.slice(0, 4)) {
      const path = fresh(`hidden-${n}`);
      const r = runOnFaults(path, new FaultPlan({ crashAtWrite: n }), 'lost', trxs, {
        create: true,
        directorySyncs: false,
      });
      expect(r.acknowledged).toBe(true);
      // every file the run created is gone, with the commits it acknowledged
      expect(existsSync(path)).toBe(false);
      expect(() => Database.open(path, OPTS)).toThrow(/does not exist/);
      lost++;
    }
    expect(lost).toBe(4);
  });

  it('a crash while the database is being created leaves no database, or one that opens', () => {
    let opened = 0;
    let refused = 0;
    for (let n = 1; n <= first.syncs; n++) {
      const path = fresh(`during-${n}`);
      const r = runOnFaults(path, new FaultPlan({ crashAtSync: n }), 'lost', trxs.slice(0, 1), {
        create: true,
      });
      if (!r.crashed || r.acknowledged) continue;
      try {
        Database.open(path, OPTS).close();
        opened++;
      } catch (e) {
        // A clear refusal naming what is missing: the file, its header, or its log.
        expect(String(e)).toMatch(
          /does not exist|not an enginekit database|is missing|is empty|no ENGINEKT magic/,
        );
        refused++;
      }
    }
    expect(opened + refused).toBeGreaterThan(0);
  });
});

describe('directory fsyncs after removing and renaming files', () => {
  it('opening without the redo log removes the clean log files, then fsyncs their directory', () => {
    const path = fresh('drop-redo');
    setup(path);
    const synced: string[] = [];
    Database.open(path, { ...OPTS, redo: false, onDirectorySync: (d) => synced.push(d) }).close();
    expect(synced).toEqual([join(dir, 'drop-redo')]);
    expect(readdirSync(join(dir, 'drop-redo'))).toEqual(['db.ekdb']);
    // nothing to remove: no fsync
    const again: string[] = [];
    Database.open(path, { ...OPTS, redo: false, onDirectorySync: (d) => again.push(d) }).close();
    expect(again).toEqual([]);
  });

  it('an open that finds files in place fsyncs no directory', () => {
    const path = fresh('reopen');
    setup(path);
    const synced: string[] = [];
    Database.open(path, { ...OPTS, onDirectorySync: (d) => synced.push(d) }).close();
    expect(synced).toEqual([]);
  });

  it('fsyncDirectory fsyncs a directory, and names one that does not exist', () => {
    expect(() => fsyncDirectory(dir)).not.toThrow();
    expect(() => fsyncDirectory(join(dir, 'nope'))).toThrow(/ENOENT/);
  });
});
