import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LegacyRWLock, LockStateError, Mutex, RWLock, X_LOCK_DECR } from '../src/index.js';

// Single-thread reference model: how many S and X (recursion depth) this thread holds.
interface Model {
  s: number;
  x: number;
}
type Real = { rw: RWLock | LegacyRWLock; atomic: boolean };

function expectState(m: Model, r: Real): void {
  r.rw.checkValid();
  if (r.rw instanceof RWLock) {
    const st = r.rw.state;
    if (m.x > 0)
      expect(st).toEqual({ lockWord: (1 - m.x) * X_LOCK_DECR, readers: 0, xDepth: m.x, waitEx: false });
    else expect(st).toEqual({ lockWord: X_LOCK_DECR - m.s, readers: m.s, xDepth: 0, waitEx: false });
  } else {
    const a = r.rw.int32;
    expect(a[4]).toBe(m.s); // reader_count
    expect(a[5]).toBe(m.x > 0 ? 351 : 350); // writer
    expect(a[7]).toBe(m.x); // writer_count
    expect(a[0]).toBe(0); // inner mutex free between calls
  }
}

class SLock implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    if (m.x > 0) expect(() => r.rw.sLock()).toThrow(LockStateError);
    else {
      r.rw.sLock();
      m.s++;
    }
    expectState(m, r);
  }
  toString = (): string => 'sLock';
}
class SUnlock implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    if (m.s === 0) expect(() => r.rw.sUnlock()).toThrow(LockStateError);
    else {
      r.rw.sUnlock();
      m.s--;
    }
    expectState(m, r);
  }
  toString = (): string => 'sUnlock';
}
class XLock implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.x < 40;
  run(m: Model, r: Real): void {
    if (m.s > 0) expect(() => r.rw.xLock()).toThrow(/upgrade is refused/);
    else {
      r.rw.xLock();
      m.x++;
    }
    expectState(m, r);
  }
  toString = (): string => 'xLock';
}
class XUnlock implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    if (m.x === 0) expect(() => r.rw.xUnlock()).toThrow(LockStateError);
    else {
      r.rw.xUnlock();
      m.x--;
    }
    expectState(m, r);
  }
  toString = (): string => 'xUnlock';
}
class TryS implements fc.Command<Model, Real> {
  check = (): boolean => true;
  run(m: Model, r: Real): void {
    if (!(r.rw instanceof RWLock)) return;
    const got = r.rw.trySLock();
    expect(got).toBe(m.x === 0);
    if (got) m.s++;
    expectState(m, r);
  }
  toString = (): string => 'trySLock';
}
class TryX implements fc.Command<Model, Real> {
  check = (m: Readonly<Model>): boolean => m.x < 40;
  run(m: Model, r: Real): void {
    if (!(r.rw instanceof RWLock)) return;
    if (m.s > 0) expect(() => (r.rw as RWLock).tryXLock()).toThrow(LockStateError);
    else {
      expect(r.rw.tryXLock()).toBe(true);
      m.x++;
    }
    expectState(m, r);
  }
  toString = (): string => 'tryXLock';
}

const commands = [
  fc.constant(new SLock()),
  fc.constant(new SUnlock()),
  fc.constant(new XLock()),
  fc.constant(new XUnlock()),
  fc.constant(new TryS()),
  fc.constant(new TryX()),
];

describe('model: single-thread state transitions', () => {
  it('RWLock follows the S/X model (lock_word encoding checked after every step)', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { s: 0, x: 0 }, real: { rw: new RWLock(), atomic: true } }), cmds);
      }),
      { numRuns: 200 },
    );
  });

  it('LegacyRWLock follows the same model (5.1 fields checked after every step)', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        fc.modelRun(() => ({ model: { s: 0, x: 0 }, real: { rw: new LegacyRWLock(), atomic: false } }), cmds);
      }),
      { numRuns: 200 },
    );
  });

  it('Mutex follows a held/free model', () => {
    type Op = 'lock' | 'tryLock' | 'unlock';
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Op>('lock', 'tryLock', 'unlock'), { maxLength: 50 }), (ops) => {
        const m = new Mutex();
        let held = false;
        for (const op of ops) {
          if (op === 'lock') {
            if (held) expect(() => m.lock()).toThrow(/not recursive/);
            else m.lock();
            held = true;
          } else if (op === 'tryLock') {
            expect(m.tryLock()).toBe(!held);
            held = true;
          } else {
            if (held) m.unlock();
            else expect(() => m.unlock()).toThrow(/not locked/);
            held = false;
          }
          m.checkValid();
          expect(m.locked).toBe(held);
          expect(m.owner).toBe(held ? 1 : 0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
