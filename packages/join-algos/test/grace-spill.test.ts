// The grace hash join's spill files go through @enginekit/common's SpillDirectory: a private
// `enginekit-join-` directory of 0600 files, DiskFullError on ENOSPC, removal on every exit path.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskFullError, liveSpillDirectories, nodeSpillFileSystem, TempFileError } from '@enginekit/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arraySource, graceHashJoin, SPILL_PREFIX, type Tuple, tupleCodec } from '../src/index.js';

const codec = tupleCodec(['int32', 'int32']);
const key = (r: Tuple) => r[0] as number | null;
const rows = (n: number, keyOf: (i: number) => number): Tuple[] =>
  Array.from({ length: n }, (_, i) => [keyOf(i), i]);

let parent = '';
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'join-spill-test-'));
});
afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

const spec = (fs?: typeof nodeSpillFileSystem) => ({
  type: 'inner' as const,
  outer: arraySource(rows(400, (i) => i % 70)),
  inner: arraySource(rows(500, (i) => i % 90)),
  outerKey: key,
  innerKey: key,
  outerCodec: codec,
  innerCodec: codec,
  memoryBudget: 256,
  partitions: 4,
  tmpdir: parent,
  ...(fs !== undefined ? { fs } : {}),
});

describe('grace hash join spill files', () => {
  it('live in an enginekit-join- directory of 0600 files while the join runs, and are gone after', () => {
    let seen = false;
    graceHashJoin(spec(), () => {
      if (seen) return;
      seen = true;
      const [dir, ...more] = readdirSync(parent);
      expect(more).toEqual([]);
      expect(dir?.startsWith(SPILL_PREFIX)).toBe(true);
      const files = readdirSync(join(parent, dir!));
      expect(files.length).toBe(8); // 4 build + 4 probe partitions
      for (const f of files) expect(statSync(join(parent, dir!, f)).mode & 0o777).toBe(0o600);
    });
    expect(seen).toBe(true);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a full disk is a DiskFullError and leaves nothing behind', () => {
    const before = liveSpillDirectories();
    let writes = 0;
    const full = {
      ...nodeSpillFileSystem,
      writeSync: (...args: Parameters<typeof nodeSpillFileSystem.writeSync>) => {
        if (++writes > 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        return nodeSpillFileSystem.writeSync(...args);
      },
    };
    let err: unknown;
    try {
      graceHashJoin(spec(full), () => {});
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiskFullError);
    expect((err as DiskFullError).message).toMatch(/enginekit-join-/);
    expect(readdirSync(parent)).toEqual([]);
    expect(liveSpillDirectories()).toBe(before);
  });

  it('a failing read is a TempFileError and leaves nothing behind', () => {
    const broken = {
      ...nodeSpillFileSystem,
      readSync: () => {
        throw Object.assign(new Error('input/output error'), { code: 'EIO' });
      },
    };
    expect(() => graceHashJoin(spec(broken), () => {})).toThrow(TempFileError);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('an emit that throws mid-partition leaves nothing behind', () => {
    let n = 0;
    expect(() =>
      graceHashJoin(spec(), () => {
        if (++n === 50) throw new Error('consumer failed');
      }),
    ).toThrow('consumer failed');
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a tmpdir that does not exist is a TempFileError naming it', () => {
    const missing = join(parent, 'no', 'such');
    expect(() => graceHashJoin({ ...spec(), tmpdir: missing }, () => {})).toThrow(TempFileError);
    expect(() => graceHashJoin({ ...spec(), tmpdir: missing }, () => {})).toThrow(missing);
    expect(() => graceHashJoin({ ...spec(), tmpdir: '' }, () => {})).toThrow(
      /tmpdir must be a non-empty string/,
    );
  });
});
