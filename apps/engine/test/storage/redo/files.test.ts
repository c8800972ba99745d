// The redo log's files and commit rules: bad input refused before anything is written, what each
// innodb_flush_log_at_trx_commit value keeps after a crash, group commit sharing fsyncs, the LOG
// section of SHOW ENGINE INNODB STATUS and the counters.
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaultDevice, FaultPlan, type PageDevice } from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Database,
  Session,
  type DatabaseOptions,
  RedoLogError,
  type TableSchema,
} from '../../../src/index.js';
import { TableHandler } from '../../../src/handler/table-handler.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA: TableSchema = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' } },
    { name: 'v', type: { kind: 'int' } },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'i_v', columns: ['v'] }],
};
const OPTS: DatabaseOptions = {
  innodb_page_size: 4096,
  innodb_buffer_pool_size: 64 * 4096,
  innodb_log_file_size: 131072,
};
let n = 0;
const fresh = (): string => join(dir, `f${n++}.ekdb`);

/** A database with 50 rows, closed cleanly, then 10 more rows committed and the process "killed". */
function crashed(path: string, opts: DatabaseOptions = OPTS): void {
  const db = Database.create(path, opts);
  const t = db.createTable(SCHEMA);
  for (let i = 0; i < 50; i++) t.insert([i, i]);
  db.close();
  const db2 = Database.open(path, opts);
  for (let i = 50; i < 60; i++) db2.table('t').insert([i, i]);
  db2.commit();
  db2.abandon();
}

function snapshot(path: string): Buffer {
  return readFileSync(path);
}

describe('recovery after a process crash', () => {
  it('replays committed changes and says what it did', () => {
    const path = fresh();
    crashed(path);
    const db = Database.open(path, OPTS);
    expect(db.recovery).not.toBeNull();
    expect(db.recovery!.mtrs).toBeGreaterThan(0);
    expect(db.recovery!.ms).toBeGreaterThanOrEqual(0);
    expect(db.table('t').rows).toBe(60);
    db.table('t').checkIndexes();
    db.close();
    const again = Database.open(path, OPTS);
    expect(again.recovery).toBeNull();
    expect(again.table('t').rows).toBe(60);
    again.close();
  });
});

describe('bad input is refused before anything is written', () => {
  it('a log of another database', () => {
    const a = fresh();
    const b = fresh();
    crashed(a);
    crashed(b);
    copyFileSync(`${b}.ib_logfile0`, `${a}.ib_logfile0`);
    copyFileSync(`${b}.ib_logfile1`, `${a}.ib_logfile1`);
    const before = snapshot(a);
    expect(() => Database.open(a, OPTS)).toThrow(RedoLogError);
    expect(() => Database.open(a, OPTS)).toThrow(/belongs to another database/);
    expect(snapshot(a).equals(before)).toBe(true);
  });

  it('a truncated log file', () => {
    const path = fresh();
    crashed(path);
    truncateSync(`${path}.ib_logfile1`, 4096);
    const before = snapshot(path);
    expect(() => Database.open(path, OPTS)).toThrow(
      /ib_logfile1: is 4096 bytes, its header says 131072 \(truncated\)/,
    );
    expect(snapshot(path).equals(before)).toBe(true);
  });

  it('a missing log file of the group', () => {
    const path = fresh();
    crashed(path);
    rmSync(`${path}.ib_logfile1`);
    expect(() => Database.open(path, OPTS)).toThrow(/ib_logfile1: is missing \(the group has 2 files\)/);
  });

  it('a crashed database whose log files are gone (every one of them)', () => {
    const path = fresh();
    crashed(path);
    const before = snapshot(path);
    rmSync(`${path}.ib_logfile0`);
    rmSync(`${path}.ib_logfile1`);
    expect(() => Database.open(path, OPTS)).toThrow(
      /ib_logfile0: is missing, and the database was not closed cleanly/,
    );
    expect(snapshot(path).equals(before)).toBe(true);
    // after a clean close the log may go: a new group is made
    const clean = fresh();
    const db = Database.create(clean, OPTS);
    db.createTable(SCHEMA).insert([1, 1]);
    db.close();
    rmSync(`${clean}.ib_logfile0`);
    rmSync(`${clean}.ib_logfile1`);
    const again = Database.open(clean, OPTS);
    expect(new TableHandler(again.table('t')).get([1])).toEqual([1, 1]);
    again.close();
  });

  it('a log block corrupt before the end the checkpoint recorded', () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 300; i++) t.insert([i, i]);
    db.commit();
    db.flush();
    // Dirty pages again, then a fuzzy checkpoint: its LSN is their oldest change, its end later.
    for (let i = 300; i < 400; i++) t.insert([i, i]);
    db.commit();
    db.pageCleaner!.checkpoint();
    const cp = db.redo!.checkpoint;
    db.abandon();
    expect(cp.endLsn).toBeGreaterThan(cp.lsn + 600n);
    // Flip a byte in the block after the checkpoint's (file 0: offset 2048 + (lsn − 8192)).
    const blockLsn = cp.lsn - (cp.lsn % 512n) + 512n;
    const at = 2048 + Number(blockLsn - 8192n) + 100;
    const fd = openSync(`${path}.ib_logfile0`, 'r+');
    writeSync(fd, Buffer.from([0x5a]), 0, 1, at);
    closeSync(fd);
    const before = snapshot(path);
    expect(() => Database.open(path, OPTS)).toThrow(/log block at LSN \d+ is corrupt, before the end/);
    expect(snapshot(path).equals(before)).toBe(true);
  });

  it('a log file header that is not one', () => {
    const path = fresh();
    crashed(path);
    const fd = openSync(`${path}.ib_logfile0`, 'r+');
    writeSync(fd, Buffer.from('NOTALOG!'), 0, 8, 0);
    closeSync(fd);
    expect(() => Database.open(path, OPTS)).toThrow(/ib_logfile0: no EKREDOLG magic/);
  });

  it('a corrupt header page with no doublewrite copy', () => {
    const path = fresh();
    crashed(path, { ...OPTS, innodb_doublewrite: false });
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from([1, 2, 3, 4]), 0, 4, 1000);
    closeSync(fd);
    const before = snapshot(path);
    expect(() => Database.open(path, { ...OPTS, innodb_doublewrite: false })).toThrow(
      /corrupt page 0 of space 0 .*the header page; no doublewrite copy/,
    );
    expect(snapshot(path).equals(before)).toBe(true);
  });

  it('rejects durability options out of range, naming them', () => {
    expect(() => Database.create(fresh(), { innodb_flush_log_at_trx_commit: 3 as 1 })).toThrow(
      /innodb_flush_log_at_trx_commit must be 0, 1 or 2/,
    );
    expect(() => Database.create(fresh(), { innodb_log_file_size: 70000 })).toThrow(/multiple of 512/);
    expect(() => Database.create(fresh(), { innodb_log_files_in_group: 0 })).toThrow(
      /innodb_log_files_in_group/,
    );
  });
});

/** Runs 20 committed inserts under `flush`, then crashes with a power cut (unsynced writes lost). */
function powerCut(flush: 0 | 1 | 2, tick: boolean): number {
  const path = fresh();
  const db0 = Database.create(path, OPTS);
  db0.createTable(SCHEMA);
  db0.close();
  const plan = new FaultPlan();
  const devs: FaultDevice[] = [];
  const wrapDevice = (d: PageDevice): PageDevice => {
    const f = new FaultDevice(d, plan);
    devs.push(f);
    return f;
  };
  const db = Database.open(path, { ...OPTS, innodb_flush_log_at_trx_commit: flush, wrapDevice });
  for (let i = 0; i < 20; i++) {
    db.table('t').insert([i, i]);
    db.commit();
  }
  if (tick) db.pageCleaner!.tick();
  for (const d of devs) d.crash('lost');
  db.abandon();
  const after = Database.open(path, OPTS);
  const rows = after.table('t').rows;
  after.table('t').checkIndexes();
  after.close();
  return rows;
}

describe('innodb_flush_log_at_trx_commit', () => {
  it('1: every acknowledged commit survives a power cut', () => {
    expect(powerCut(1, false)).toBe(20);
  });
  it('2 and 0: commits since the last once-a-second flush are lost to a power cut', () => {
    expect(powerCut(2, false)).toBe(0);
    expect(powerCut(0, false)).toBe(0);
  });
  it('2 and 0: the page cleaner’s once-a-second flush makes them durable', () => {
    expect(powerCut(2, true)).toBe(20);
    expect(powerCut(0, true)).toBe(20);
  });
  it('2: a process crash (the OS keeps what was written) loses nothing; 0 loses the unwritten log', () => {
    for (const flush of [2, 0] as const) {
      const path = fresh();
      const db = Database.create(path, { ...OPTS, innodb_flush_log_at_trx_commit: flush });
      db.createTable(SCHEMA);
      db.close();
      const db2 = Database.open(path, { ...OPTS, innodb_flush_log_at_trx_commit: flush });
      for (let i = 0; i < 5; i++) {
        db2.table('t').insert([i, i]);
        db2.commit();
      }
      db2.abandon();
      const after = Database.open(path, OPTS);
      expect(after.table('t').rows).toBe(flush === 2 ? 5 : 0);
      after.close();
    }
  });
});

describe('group commit through sessions', () => {
  it('concurrent committers share fsyncs; each waits until its commit is durable', async () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const setup = new Session(db);
    setup.query('CREATE TABLE g (id INT PRIMARY KEY, who INT)');
    const redo = db.redo!;
    const sessions = Array.from({ length: 8 }, () => {
      const s = new Session(db);
      s.deferCommitWait = true;
      return s;
    });
    const fsyncs0 = redo.stats.Innodb_os_log_fsyncs;
    let next = 0;
    const worker = async (s: (typeof sessions)[number], who: number): Promise<void> => {
      for (let k = 0; k < 10; k++) {
        s.query(`INSERT INTO g VALUES (${next++}, ${who})`);
        const lsn = s.lastCommitLsn;
        await redo.waitCommitted(lsn);
        expect(redo.flushedLsn).toBeGreaterThanOrEqual(lsn);
      }
    };
    await Promise.all(sessions.map((s, i) => worker(s, i)));
    const fsyncs = redo.stats.Innodb_os_log_fsyncs - fsyncs0;
    expect(db.table('g').rows).toBe(80);
    expect(fsyncs).toBeGreaterThan(0);
    expect(fsyncs).toBeLessThan(40);
    expect(redo.stats.Innodb_log_group_commit_joins).toBeGreaterThan(0);
    const status = setup.query('SHOW GLOBAL STATUS').rows as unknown[][];
    const names = status.map((r) => r[0]);
    for (const c of [
      'Innodb_log_writes',
      'Innodb_log_write_requests',
      'Innodb_os_log_fsyncs',
      'Innodb_log_waits',
    ])
      expect(names).toContain(c);
    const text = String((setup.query('SHOW ENGINE INNODB STATUS').rows as unknown[][])[0]![2]);
    expect(text).toMatch(
      /\nLOG\n---\nLog sequence number \d+\nLog flushed up to +\d+\nPages flushed up to \d+\nLast checkpoint at +\d+/,
    );
    db.close();
    expect(existsSync(`${path}.ib_logfile0`)).toBe(true);
  });
});

describe('a full log', () => {
  it('makes the committing mini-transaction flush pages itself (the synchronous flush), and recovery still works', () => {
    const path = fresh();
    const opts = { ...OPTS, innodb_log_file_size: 65536, innodb_buffer_pool_size: 256 * 4096 };
    const db = Database.create(path, opts);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 3000; i++) t.insert([i, i % 17]);
    db.commit();
    const s = db.redoStatus();
    expect(s.Innodb_log_sync_flushes).toBeGreaterThan(0);
    expect(s.Innodb_log_sync_flush_pages).toBeGreaterThan(0);
    expect(s.Innodb_checkpoints).toBeGreaterThan(0);
    db.abandon();
    const again = Database.open(path, opts);
    expect(again.table('t').rows).toBe(3000);
    again.table('t').checkIndexes();
    again.close();
  });
});

describe('opening without the redo log', () => {
  it('is refused while the log has redo to apply; after a clean close the stale log is removed', () => {
    const path = fresh();
    crashed(path);
    const before = snapshot(path);
    expect(() => Database.open(path, { ...OPTS, redo: false })).toThrow(
      /mini-transaction\(s\) to apply after its checkpoint: open the database with the redo log on first/,
    );
    expect(snapshot(path).equals(before)).toBe(true);
    Database.open(path, OPTS).close();
    const db = Database.open(path, { ...OPTS, redo: false });
    expect(db.redo).toBeNull();
    expect(db.table('t').rows).toBe(60);
    db.table('t').insert([1000, 1]);
    db.close();
    expect(existsSync(`${path}.ib_logfile0`)).toBe(false);
    // With the log on again, a new group starts after every page's LSN: a change to a page the
    // session without the log never touched (row 0's leaf, last written under the old log) is
    // recovered too.
    const again = Database.open(path, OPTS);
    expect(again.redo!.lsn).toBeGreaterThan(again.redo!.checkpoint.lsn - 1n);
    again.table('t').update([0], [0, 99]);
    again.table('t').insert([1001, 2]);
    again.commit();
    again.abandon();
    const last = Database.open(path, OPTS);
    expect(last.table('t').rows).toBe(62);
    expect(new TableHandler(last.table('t')).get([0])).toEqual([0, 99]);
    last.table('t').checkIndexes();
    last.close();
  });

  it('abandoning a database with a commit waiting for its fsync rejects the wait and nothing throws later', async () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const t = db.createTable(SCHEMA);
    t.insert([1, 1]);
    const redo = db.redo!;
    const wait = redo.waitFlushed(redo.lsn);
    db.abandon();
    await expect(wait).rejects.toThrow(/abandoned/);
    await new Promise((r) => setTimeout(r, 20));
  });
});

describe('a log made after a session without one', () => {
  it('starts past every page, also pages that session left alone', () => {
    const path = fresh();
    const db = Database.create(path, OPTS);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 3000; i++) t.insert([i, i % 13]);
    db.close();
    const off = Database.open(path, { ...OPTS, redo: false });
    off.table('t').insert([5000, 1]);
    off.close();
    const on = Database.open(path, OPTS);
    on.table('t').update([0], [0, 99]);
    on.commit();
    on.abandon();
    const last = Database.open(path, OPTS);
    expect(new TableHandler(last.table('t')).get([0])).toEqual([0, 99]);
    expect(last.table('t').rows).toBe(3001);
    last.table('t').checkIndexes();
    last.close();
  });
});
