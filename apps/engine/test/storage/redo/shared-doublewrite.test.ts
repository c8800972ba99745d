// The doublewrite buffer with several threads: one region of the doublewrite file per thread, a
// newer version of a page in one thread's batch supersedes an older one in another's (reads and
// in-place writes follow the newest), any thread can write out any region's batch (checkpoints),
// a region is rewritten only after the data file was fsynced following its previous batch, a torn
// page written by thread k is repaired from region k, and torn unsynced in-place writes after a
// power cut are all repairable. "Threads" here are Database objects attached to the shared pool,
// log and batches on this thread (attachDatabase, the code a worker runs), so the crash devices
// of every thread can be wrapped and inspected.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FaultDevice,
  FaultPlan,
  FileDevice,
  getPageLsn,
  getPageNo,
  initPage,
  MemoryDevice,
  type PageDevice,
  sealPage,
  SimulatedCrashError,
  verifyPage,
} from '@enginekit/buffer-pool';
import { afterAll, describe, expect, it } from 'vitest';
import { attachDatabase, Database, shareDatabase, type TableSchema } from '../../../src/index.js';
import {
  DOUBLEWRITE_BATCH,
  DoublewriteBatches,
  type DurableDevice,
} from '../../../src/storage/redo/index.js';
import { TableHandler } from '../../../src/handler/table-handler.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-redo-shared-dw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PS = 4096;

/** A sealed page `pageNo` at `lsn`, its body filled with `fill`. */
function page(pageNo: number, lsn: bigint, fill: number): Uint8Array {
  const p = new Uint8Array(PS);
  initPage(p, 0, PS, 0, pageNo);
  p.fill(fill, 38, 400);
  sealPage(p, 0, PS, 0, pageNo, lsn);
  return p;
}

/** A handle of one "thread" on a shared device, logging every write and sync as `who op page`. */
class Spy implements PageDevice {
  readonly pageSize: number;
  readonly name: string;
  constructor(
    readonly inner: PageDevice,
    readonly who: string,
    readonly log: string[],
  ) {
    this.pageSize = inner.pageSize;
    this.name = inner.name;
  }
  size(): number {
    return this.inner.size();
  }
  readPages(first: number, count: number, dest: Uint8Array, off: number): void {
    this.inner.readPages(first, count, dest, off);
  }
  writePage(pageNo: number, src: Uint8Array, off: number): void {
    this.log.push(`${this.who} write ${pageNo}`);
    this.inner.writePage(pageNo, src, off);
  }
  sync(): void {
    this.log.push(`${this.who} sync`);
    this.inner.sync();
  }
  close(): void {}
  descriptor(): null {
    return null;
  }
}

function read(d: PageDevice, pageNo: number): Uint8Array {
  const b = new Uint8Array(PS);
  d.readPages(pageNo, 1, b, 0);
  return b;
}

describe('the shared doublewrite batches', () => {
  const setup = () => {
    const data = new MemoryDevice({ pageSize: PS });
    const file = new MemoryDevice({ pageSize: PS });
    for (let p = 0; p < 16; p++) data.writePage(p, page(p, 1n, 0), 0);
    const log: string[] = [];
    const io = (who: string) => ({
      data: new Spy(data, `${who} data`, log),
      file: new Spy(file, `${who} dblwr`, log),
    });
    return { data, file, log, a: io('A'), b: io('B'), batches: DoublewriteBatches.create(2, PS) };
  };

  it('a newer version in another region supersedes the older: reads and the data file get the newest', () => {
    const { data, log, a, b, batches } = setup();
    const v1 = page(7, 100n, 1);
    const v2 = page(7, 200n, 2);
    batches.add(0, 7, v1, 0, a);
    const got = new Uint8Array(2 * PS);
    expect(batches.copyLive(6, 2, got, 0)).toEqual([false, true]);
    expect(got.subarray(PS)).toEqual(v1);
    batches.add(1, 7, v2, 0, b);
    expect(batches.live).toBe(1);
    batches.copyLive(7, 1, got, 0);
    expect(got.subarray(0, PS)).toEqual(v2);
    batches.flush(1, b);
    expect(read(data, 7)).toEqual(v2);
    // Region 0's older copy is neither written to the doublewrite file nor in place.
    batches.flush(0, a);
    expect(read(data, 7)).toEqual(v2);
    expect(log.filter((l) => l.startsWith('A'))).toEqual([]);
    expect(batches.live).toBe(0);
  });

  it('region r is slots [r·64, (r + 1)·64) of the doublewrite file; any thread writes out any region', () => {
    const { data, file, log, a, b, batches } = setup();
    batches.add(1, 3, page(3, 50n, 3), 0, b);
    batches.add(1, 4, page(4, 50n, 4), 0, b);
    // A checkpoint on thread A: every region's batch, with A's handles, then A's fsync of the data.
    batches.syncAll(a);
    expect(log).toEqual([
      `A dblwr write ${DOUBLEWRITE_BATCH}`,
      `A dblwr write ${DOUBLEWRITE_BATCH + 1}`,
      'A dblwr sync',
      'A data write 3',
      'A data write 4',
      'A data sync',
    ]);
    expect(getPageNo(read(file, DOUBLEWRITE_BATCH + 1), 0)).toBe(4);
    expect(read(data, 3)).toEqual(page(3, 50n, 3));
  });

  it("a region's slots are rewritten only after the data file was fsynced following its last batch", () => {
    const { log, a, b, batches } = setup();
    const batch = (region: number, io: typeof a, pages: number[], lsn: bigint) => {
      for (const p of pages) batches.add(region, p, page(p, lsn, p), 0, io);
      batches.flush(region, io);
    };
    batch(0, a, [1, 2], 10n);
    batch(1, b, [3], 11n); // another region: no wait for region 0's writes
    batch(0, a, [5, 6], 12n); // region 0 again: fsync of the data file first
    expect(log).toEqual([
      'A dblwr write 0',
      'A dblwr write 1',
      'A dblwr sync',
      'A data write 1',
      'A data write 2',
      `B dblwr write ${DOUBLEWRITE_BATCH}`,
      'B dblwr sync',
      'B data write 3',
      'A data sync',
      'A dblwr write 0',
      'A dblwr write 1',
      'A dblwr sync',
      'A data write 5',
      'A data write 6',
    ]);
    // After a sync of everything, nothing is owed: the next batch needs no extra fsync.
    batches.syncAll(a);
    log.length = 0;
    batch(1, b, [8], 13n);
    expect(log).toEqual([`B dblwr write ${DOUBLEWRITE_BATCH}`, 'B dblwr sync', 'B data write 8']);
  });
});

const SCHEMA: TableSchema = {
  name: 't',
  columns: [
    { name: 'id', type: { kind: 'int' } },
    { name: 'a', type: { kind: 'int' } },
    { name: 'pad', type: { kind: 'varchar', length: 300 } },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'i_a', columns: ['a'] }],
};

/** Row `id` of `t` with its VARCHAR as text. */
function row(db: Database, id: number): unknown[] | undefined {
  const r = new TableHandler(db.table('t')).get([id]);
  return r?.map((v) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v));
}

/** The doublewrite file's valid copies of `pageNo`: slot → LSN. */
function copiesOf(path: string, pageNo: number): Map<number, bigint> {
  const f = new FileDevice(`${path}.ib_doublewrite`, { pageSize: PS, create: false });
  const out = new Map<number, bigint>();
  try {
    const b = new Uint8Array(PS);
    for (let s = 0; s < f.size(); s++) {
      f.readPages(s, 1, b, 0);
      if (getPageLsn(b, 0) !== 0n && getPageNo(b, 0) === pageNo && verifyPage(b, 0, PS, 0, pageNo) === null)
        out.set(s, getPageLsn(b, 0));
    }
  } finally {
    f.close();
  }
  return out;
}

describe('torn pages with several threads', () => {
  it("a page torn by worker 2's in-place write is repaired from region 2's copy", () => {
    const path = join(dir, 'torn.ekdb');
    const opts = { innodb_page_size: PS, innodb_buffer_pool_size: 128 * PS };
    const db = Database.create(path, opts);
    const t = db.createTable(SCHEMA);
    for (let i = 0; i < 300; i++) t.insert([i, i % 7, 'a'.repeat(120)]);
    db.flush(); // every page in place, older copies in region 0, a checkpoint after them
    db.pageCleaner!.stop();
    const share = shareDatabase(db, 2);
    const plan = new FaultPlan({ crashAtWrite: 3, tear: true });
    let dataDev: FaultDevice | undefined;
    const written: number[] = [];
    const w = attachDatabase(share(2), {
      wrapDevice: (d, role) => {
        if (role !== 'data') return d;
        const f = new FaultDevice(d, plan);
        const write = f.writePage.bind(f);
        f.writePage = (p: number, src: Uint8Array, off: number) => {
          written.push(p);
          write(p, src, off);
        };
        dataDev = f;
        return f;
      },
    });
    const wt = w.table('t');
    for (let i = 0; i < 300; i += 3) wt.update([i], [i, 1000 + i, 'w'.repeat(150)]);
    w.commit();
    // Worker 2 writes the changed pages: into its batch, then out (doublewrite, fsync, in place).
    w.pool.flushOldest(w.redo!.lsn, 1000);
    expect(written).toEqual([]);
    expect(() => (w.device as DurableDevice).flushBatch()).toThrow(SimulatedCrashError);
    const torn = written[2]!;
    dataDev!.crash('lost');
    w.detachFromPool();
    db.abandon();
    // The newest valid copy of the torn page is in region 2; region 0 holds an older one.
    const copies = copiesOf(path, torn);
    const newest = [...copies.entries()].sort((x, y) => (x[1] < y[1] ? 1 : -1))[0]!;
    expect(Math.floor(newest[0] / DOUBLEWRITE_BATCH)).toBe(2);
    expect([...copies.keys()].some((s) => s < DOUBLEWRITE_BATCH)).toBe(true);
    const again = Database.open(path, opts);
    try {
      expect(again.recovery!.pagesRepaired).toBeGreaterThan(0);
      const at = again.table('t');
      at.checkIndexes();
      for (let i = 0; i < 300; i++)
        expect(row(again, i)).toEqual(
          i % 3 === 0 ? [i, 1000 + i, 'w'.repeat(150)] : [i, i % 7, 'a'.repeat(120)],
        );
    } finally {
      again.close();
    }
  });

  it('after a power cut that tears every unsynced in-place write, every torn page has its copy', () => {
    const path = join(dir, 'cut.ekdb');
    const ROWS = 3000;
    const opts = {
      innodb_page_size: PS,
      innodb_buffer_pool_size: 512 * PS,
      innodb_log_file_size: 8 << 20,
    };
    const db0 = Database.create(path, opts);
    const t0 = db0.createTable(SCHEMA);
    for (let i = 0; i < ROWS; i++) t0.insert([i, i % 11, 'a'.repeat(200)]);
    db0.close();
    // Every handle on the data file shares one record of the writes not yet fsynced (an fsync
    // through any handle makes them durable): page → its bytes before the first such write.
    const unsynced = new Map<number, Uint8Array>();
    const wrapDevice = (d: PageDevice, role: string): PageDevice => {
      if (role !== 'data') return d;
      const write = d.writePage.bind(d);
      const sync = d.sync.bind(d);
      d.writePage = (p: number, src: Uint8Array, off: number) => {
        if (!unsynced.has(p)) unsynced.set(p, p < d.size() ? read(d, p) : new Uint8Array(PS));
        write(p, src, off);
      };
      d.sync = () => {
        sync();
        unsynced.clear();
      };
      return d;
    };
    const db = Database.open(path, { ...opts, wrapDevice });
    db.pageCleaner!.stop();
    const w = attachDatabase(shareDatabase(db, 1)(1), { wrapDevice });
    const update = (on: Database, from: number, tag: string) => {
      const t = on.table('t');
      for (let i = from; i < ROWS; i += 2) t.update([i], [i, 5000 + i, tag.repeat(200)]);
      on.commit();
    };
    update(w, 1, 'w');
    expect(w.pool.flushOldest(w.redo!.lsn, 10_000)).toBeGreaterThan(2 * DOUBLEWRITE_BATCH);
    update(db, 0, 'm');
    expect(db.pool.flushOldest(db.redo!.lsn, 10_000)).toBeGreaterThan(2 * DOUBLEWRITE_BATCH);
    expect(db.redoStatus().Innodb_dblwr_writes).toBeGreaterThanOrEqual(4);
    // The power cut: each in-place write not yet fsynced reaches the disk half done.
    expect(unsynced.size).toBeGreaterThan(0);
    const raw = new FileDevice(path, { pageSize: PS, create: false });
    for (const [p, before] of unsynced) {
      const now = read(raw, p);
      now.set(before.subarray(PS / 2), PS / 2);
      raw.writePage(p, now, 0);
    }
    raw.sync();
    raw.close();
    w.detachFromPool();
    db.abandon();
    const again = Database.open(path, opts);
    try {
      expect(again.recovery!.pagesRepaired).toBeGreaterThan(0);
      const t = again.table('t');
      t.checkIndexes();
      for (let i = 0; i < ROWS; i++)
        expect(row(again, i)).toEqual([i, 5000 + i, (i % 2 ? 'w' : 'm').repeat(200)]);
    } finally {
      again.close();
    }
  });
});
