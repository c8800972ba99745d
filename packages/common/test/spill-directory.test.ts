import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DiskFullError,
  liveSpillDirectories,
  nodeSpillFileSystem,
  removeAllSpillDirectories,
  removeDeadSpillDirectories,
  SpillDirectory,
  TempFileError,
} from '../src/index.js';

let parent = '';
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'common-test-'));
});
afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

describe('SpillDirectory', () => {
  it('creates nothing until the first file, then a private directory of 0600 files', () => {
    const d = new SpillDirectory({ parent, prefix: 'enginekit-test-' });
    expect(d.directory).toBeUndefined();
    expect(readdirSync(parent)).toEqual([]);
    const fd = d.open();
    const dir = d.directory!;
    expect(dir.startsWith(join(parent, 'enginekit-test-'))).toBe(true);
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    d.write(fd, data, 1, 3, 10);
    const back = new Uint8Array(8);
    expect(d.read(fd, back, 0, 8, 10)).toBe(3);
    expect([...back.subarray(0, 3)]).toEqual([2, 3, 4]);
    expect(d.bytesWritten).toBe(3);
    d.remove();
    d.remove();
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('turns ENOSPC into DiskFullError and other failures into TempFileError, both naming the directory', () => {
    let writes = 0;
    const full = {
      ...nodeSpillFileSystem,
      writeSync: (...args: Parameters<typeof nodeSpillFileSystem.writeSync>) => {
        if (++writes > 1) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        return nodeSpillFileSystem.writeSync(...args);
      },
    };
    const d = new SpillDirectory({ parent, fs: full });
    const fd = d.open();
    d.write(fd, new Uint8Array(4), 0, 4, 0);
    let err: unknown;
    try {
      d.write(fd, new Uint8Array(4), 0, 4, 4);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiskFullError);
    expect((err as DiskFullError).bytesWritten).toBe(4);
    expect((err as Error).message).toContain(d.directory!);
    d.remove();

    const broken = new SpillDirectory({
      parent: join(parent, 'missing', 'deeper'),
    });
    expect(() => broken.open()).toThrow(TempFileError);
    broken.remove();
  });

  it('removeAllSpillDirectories removes every live directory (what a signal handler calls)', () => {
    const before = liveSpillDirectories();
    const a = new SpillDirectory({ parent });
    const b = new SpillDirectory({ parent });
    a.open();
    b.open();
    new SpillDirectory({ parent }); // never opened: nothing to remove
    expect(liveSpillDirectories()).toBe(before + 2);
    expect(removeAllSpillDirectories()).toBe(before + 2);
    expect(liveSpillDirectories()).toBe(0);
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe('removeDeadSpillDirectories', () => {
  it('removes the directories of processes that are gone, never a live one nor a foreign name', () => {
    // a process that ran and ended: its pid is free now
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    const left = join(parent, `enginekit-sort-${deadPid}-AbC123`);
    mkdirSync(left);
    writeFileSync(join(left, 'spill-0.tmp'), 'x');
    const mine = new SpillDirectory({ parent, prefix: 'enginekit-join-' });
    mine.open();
    expect(basename(mine.directory!)).toMatch(new RegExp(`^enginekit-join-${process.pid}-`));
    const foreign = join(parent, `enginekit-${deadPid}x`);
    mkdirSync(foreign);
    // pid 1 runs (init): its directory stays
    const init = join(parent, 'enginekit-spill-1-zzzzzz');
    mkdirSync(init);
    expect(removeDeadSpillDirectories(parent)).toEqual([left]);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(mine.directory!)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(init)).toBe(true);
    mine.remove();
  });
});
