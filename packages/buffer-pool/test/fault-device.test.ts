import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FaultDevice,
  FaultPlan,
  FileDevice,
  MemoryDevice,
  SimulatedCrashError,
  seededFate,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'buffer-pool-fault-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PS = 4096;

function page(v: number, ps = PS): Uint8Array {
  return new Uint8Array(ps).fill(v);
}

function byteAt(dev: MemoryDevice, pageNo: number, offset: number): number {
  const out = new Uint8Array(dev.pageSize);
  dev.readPages(pageNo, 1, out, 0);
  return out[offset]!;
}

describe('FaultDevice', () => {
  it('keeps writes volatile until sync, and serves them to reads meanwhile', () => {
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan());
    d.writePage(0, page(1), 0);
    d.writePage(1, page(2), 0);
    expect(d.size()).toBe(2);
    expect(inner.size()).toBe(0);
    expect(d.unsynced).toBe(2);
    const out = new Uint8Array(2 * PS);
    d.readPages(0, 2, out, 0);
    expect([out[0], out[PS]]).toEqual([1, 2]);
    d.sync();
    expect(inner.size()).toBe(2);
    expect(byteAt(inner, 1, 100)).toBe(2);
  });

  it('crashes at the N-th write across every device of the plan; later calls throw too', () => {
    const plan = new FaultPlan({ crashAtWrite: 3 });
    const a = new FaultDevice(new MemoryDevice({ pageSize: PS, name: 'a' }), plan);
    const b = new FaultDevice(new MemoryDevice({ pageSize: 512, name: 'b' }), plan);
    a.writePage(0, page(1), 0);
    b.writePage(0, page(9, 512), 0);
    expect(() => a.writePage(1, page(2), 0)).toThrow(SimulatedCrashError);
    expect(plan.crashed).toBe(true);
    expect(() => b.sync()).toThrow(SimulatedCrashError);
    expect(() => a.readPages(0, 1, new Uint8Array(PS), 0)).toThrow(/simulated crash/);
  });

  it('loses unsynced writes, or keeps them, as the fate says', () => {
    for (const fate of ['lost', 'kept'] as const) {
      const inner = new MemoryDevice({ pageSize: PS });
      const plan = new FaultPlan({ crashAtSync: 2 });
      const d = new FaultDevice(inner, plan);
      d.writePage(0, page(1), 0);
      d.sync();
      d.writePage(0, page(5), 0);
      d.writePage(1, page(6), 0);
      expect(() => d.sync()).toThrow(SimulatedCrashError);
      d.crash(fate);
      expect(byteAt(inner, 0, 7)).toBe(fate === 'lost' ? 1 : 5);
      expect(inner.size()).toBe(fate === 'lost' ? 1 : 2);
    }
  });

  it('a fate function picks which unsynced pages reach the disk', () => {
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan({ crashAtWrite: 4 }));
    for (let p = 0; p < 3; p++) d.writePage(p, page(p + 1), 0);
    expect(() => d.writePage(3, page(4), 0)).toThrow(SimulatedCrashError);
    d.crash((_dev, p) => p !== 1);
    expect(inner.size()).toBe(3);
    expect(byteAt(inner, 0, 0)).toBe(1);
    expect(byteAt(inner, 1, 0)).toBe(0);
    expect(byteAt(inner, 2, 0)).toBe(3);
  });

  it('a torn write leaves the first half of its sectors new and the rest old', () => {
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan({ crashAtWrite: 2, tear: true }));
    d.writePage(0, page(1), 0);
    d.sync();
    expect(() => d.writePage(0, page(7), 0)).toThrow(SimulatedCrashError);
    d.crash('lost');
    expect(byteAt(inner, 0, 0)).toBe(7);
    expect(byteAt(inner, 0, PS / 2 - 1)).toBe(7);
    expect(byteAt(inner, 0, PS / 2)).toBe(1);
    expect(byteAt(inner, 0, PS - 1)).toBe(1);
  });

  it('a one-sector page is never torn: the crashing write is lost whole', () => {
    const inner = new MemoryDevice({ pageSize: 512 });
    const d = new FaultDevice(inner, new FaultPlan({ crashAtWrite: 2, tear: true }));
    d.writePage(0, page(1, 512), 0);
    d.sync();
    expect(() => d.writePage(0, page(7, 512), 0)).toThrow(SimulatedCrashError);
    d.crash('kept');
    expect(byteAt(inner, 0, 511)).toBe(1);
    expect(byteAt(inner, 0, 0)).toBe(1);
  });

  it('syncAsync makes the writes durable after the current turn', async () => {
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan());
    d.writePage(0, page(3), 0);
    const p = d.syncAsync();
    expect(inner.size()).toBe(0);
    await p;
    expect(byteAt(inner, 0, 0)).toBe(3);
  });

  it('rejects a crash point that is not a positive integer', () => {
    expect(() => new FaultPlan({ crashAtWrite: 0 })).toThrow(/crashAtWrite must be a positive integer/);
    expect(() => new FaultPlan({ crashAtSync: 1.5 })).toThrow(/crashAtSync/);
  });

  it('reorders within a barrier: any one of several unsynced writes to a page may win, pages independently', () => {
    // Page 0 written three times and page 1 once since the last sync: a chooser that keeps the
    // oldest write of page 0 and drops page 1 leaves page 0's first unsynced version on disk.
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan({ crashAtSync: 2 }));
    d.writePage(0, page(1), 0);
    d.writePage(1, page(1), 0);
    d.sync();
    for (const v of [2, 3, 4]) d.writePage(0, page(v), 0);
    d.writePage(1, page(5), 0);
    const out = new Uint8Array(PS);
    d.readPages(0, 1, out, 0);
    expect(out[0]).toBe(4); // reads see the latest write
    expect(() => d.sync()).toThrow(SimulatedCrashError);
    const asked: Array<[number, number]> = [];
    d.crash({
      pickVersion: (_dev, p, n) => {
        asked.push([p, n]);
        return p === 0 ? 0 : -1;
      },
      keepEntry: () => true,
    });
    expect(asked).toEqual([
      [0, 3],
      [1, 1],
    ]);
    expect(byteAt(inner, 0, 9)).toBe(2);
    expect(byteAt(inner, 1, 9)).toBe(1);
  });

  it('a seeded fate reaches every outcome of a page (none, oldest, middle, latest), reproducibly', () => {
    const outcomes = (seed: number): number[] => {
      const f = seededFate(seed);
      return Array.from({ length: 64 }, () => f.pickVersion('d', 0, 3));
    };
    expect(outcomes(42)).toEqual(outcomes(42));
    expect(new Set(outcomes(42))).toEqual(new Set([-1, 0, 1, 2]));
    expect(outcomes(42)).not.toEqual(outcomes(43));
  });

  it('refuses a chooser that names a write the page does not have', () => {
    const d = new FaultDevice(new MemoryDevice({ pageSize: PS }), new FaultPlan());
    d.writePage(0, page(1), 0);
    expect(() => d.crash({ pickVersion: () => 1, keepEntry: () => true })).toThrow(
      /pickVersion must give -1 … 0 for page 0, got 1/,
    );
  });

  it('a torn write lands over the version of its page that survived', () => {
    const inner = new MemoryDevice({ pageSize: PS });
    const d = new FaultDevice(inner, new FaultPlan({ crashAtWrite: 4, tear: true }));
    d.writePage(0, page(1), 0);
    d.sync();
    d.writePage(0, page(2), 0);
    d.writePage(0, page(3), 0);
    expect(() => d.writePage(0, page(9), 0)).toThrow(SimulatedCrashError);
    d.crash({ pickVersion: () => 0, keepEntry: () => true });
    expect(byteAt(inner, 0, 0)).toBe(9);
    expect(byteAt(inner, 0, PS - 1)).toBe(2);
  });

  it('a file created and not followed by a sync of its directory may vanish at the crash', () => {
    for (const dirSynced of [false, true]) {
      const path = join(dir, `new-${dirSynced}.dat`);
      const plan = new FaultPlan();
      const d = new FaultDevice(new FileDevice(path, { pageSize: PS }), plan, { created: true });
      d.writePage(0, page(6), 0);
      d.sync(); // the file's bytes are durable; its name is not, until the directory is synced
      expect(plan.entryVolatile(path)).toBe(true);
      if (dirSynced) plan.syncDirectory(dir);
      d.crash('lost');
      expect(d.vanished).toBe(!dirSynced);
      expect(existsSync(path)).toBe(dirSynced);
      d.close();
    }
  });

  it('a directory sync counts as a sync of the plan, and may be the crash point', () => {
    const path = join(dir, 'crash-at-dir.dat');
    const plan = new FaultPlan({ crashAtSync: 2 });
    const d = new FaultDevice(new FileDevice(path, { pageSize: PS }), plan, { created: true });
    d.writePage(0, page(6), 0);
    d.sync();
    expect(() => plan.syncDirectory(dir)).toThrow(/simulated crash at sync 2 \(directory /);
    expect(plan.entryVolatile(path)).toBe(true);
    d.crash('kept'); // 'kept' keeps the entry too
    expect(existsSync(path)).toBe(true);
  });

  it("handles on one file share its page cache: a sync through one makes every handle's writes durable", () => {
    const path = join(dir, 'two-handles.dat');
    const plan = new FaultPlan({ crashAtSync: 2 });
    const a = new FaultDevice(new FileDevice(path, { pageSize: PS }), plan);
    const b = new FaultDevice(new FileDevice(path, { pageSize: PS }), plan);
    a.writePage(0, page(1), 0);
    b.writePage(1, page(2), 0);
    const out = new Uint8Array(PS);
    b.readPages(0, 1, out, 0);
    expect(out[0]).toBe(1); // b sees a's cached write, as a second descriptor would
    b.sync();
    a.writePage(0, page(3), 0);
    expect(() => a.sync()).toThrow(SimulatedCrashError);
    a.crash('lost');
    b.crash('lost');
    const disk = new FileDevice(path, { pageSize: PS, create: false });
    disk.readPages(0, 1, out, 0);
    expect(out[0]).toBe(1);
    disk.readPages(1, 1, out, 0);
    expect(out[0]).toBe(2);
    disk.close();
  });
});
