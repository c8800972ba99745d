// InnoDB's record lock compatibility, written from the table in lock0lock.cc (`lock_rec_has_to_wait`):
// with conflicting modes (X against anything, S against X) a request waits as below; with S
// against S it never waits; on the supremum only an insert intention ever waits (for a gap or
// next-key lock there).
//
//                    requested: GAP   INSERT_INTENTION   REC_NOT_GAP   ORDINARY
//   held GAP                    no    yes                no            no
//   held INSERT_INTENTION       no    no                 no            no
//   held REC_NOT_GAP            no    no                 yes           yes
//   held ORDINARY               no    yes                yes           yes
import { describe, expect, it } from 'vitest';
import {
  GRANTED,
  LOCK_GAP,
  LOCK_INSERT_INTENTION,
  LOCK_ORDINARY,
  LOCK_REC_NOT_GAP,
  LockTable,
  MUST_WAIT,
} from '../../src/txn/lock-table.js';

const TYPES = {
  GAP: LOCK_GAP,
  INSERT_INTENTION: LOCK_INSERT_INTENTION,
  REC_NOT_GAP: LOCK_REC_NOT_GAP,
  ORDINARY: LOCK_ORDINARY,
};
type Name = keyof typeof TYPES;
const WAITS: Record<Name, Record<Name, boolean>> = {
  GAP: { GAP: false, INSERT_INTENTION: true, REC_NOT_GAP: false, ORDINARY: false },
  INSERT_INTENTION: { GAP: false, INSERT_INTENTION: false, REC_NOT_GAP: false, ORDINARY: false },
  REC_NOT_GAP: { GAP: false, INSERT_INTENTION: false, REC_NOT_GAP: true, ORDINARY: true },
  ORDINARY: { GAP: false, INSERT_INTENTION: true, REC_NOT_GAP: true, ORDINARY: true },
};
const NAMES = Object.keys(TYPES) as Name[];
const KEY = Uint8Array.of(1, 2, 3);

/** Holds `held` in `heldMode` for one transaction (an insert intention is held by waiting first). */
function hold(t: LockTable, held: Name, heldMode: 'S' | 'X', supremum: boolean): number {
  const key = supremum ? null : KEY;
  const a = t.begin(1);
  if (held !== 'INSERT_INTENTION') {
    expect(t.lockRecord(a, 1, 1, key, 0, 3, heldMode, TYPES[held])).toBe(GRANTED);
    return a;
  }
  // a granted insert intention exists only after a wait: block it with a gap lock, then release
  const g = t.begin(3);
  expect(t.lockRecord(g, 1, 1, key, 0, 3, 'X', LOCK_GAP)).toBe(GRANTED);
  expect(t.lockRecord(a, 1, 1, key, 0, 3, 'X', LOCK_INSERT_INTENTION)).toBe(MUST_WAIT);
  t.end(g);
  expect(t.finishWait(a, 0)).toBe(2);
  return a;
}

describe('record lock compatibility', () => {
  for (const supremum of [false, true])
    for (const held of NAMES)
      for (const req of NAMES)
        for (const [hm, rm] of [
          ['X', 'X'],
          ['S', 'X'],
          ['X', 'S'],
          ['S', 'S'],
        ] as const) {
          // an insert intention is always X
          if ((held === 'INSERT_INTENTION' && hm === 'S') || (req === 'INSERT_INTENTION' && rm === 'S'))
            continue;
          const conflict = hm === 'X' || rm === 'X';
          const want =
            conflict && (supremum ? req === 'INSERT_INTENTION' && WAITS[held][req] : WAITS[held][req]);
          it(`${supremum ? 'supremum: ' : ''}held ${held} ${hm}, requested ${req} ${rm}: ${want ? 'waits' : 'granted'}`, () => {
            const t = LockTable.create({ capacity: 16, transactions: 4 });
            hold(t, held, hm, supremum);
            const b = t.begin(2);
            const got = t.lockRecord(b, 1, 1, supremum ? null : KEY, 0, 3, rm, TYPES[req], true);
            expect(got).toBe(want ? MUST_WAIT : GRANTED);
            // a different record or index never conflicts
            expect(t.lockRecord(b, 1, 2, supremum ? null : KEY, 0, 3, rm, TYPES[req], true)).toBe(GRANTED);
            expect(t.lockRecord(b, 1, 1, Uint8Array.of(9), 0, 1, rm, TYPES[req], true)).toBe(GRANTED);
            t.checkValid();
          });
        }
});

describe('covering locks', () => {
  it('an ordinary lock covers a gap and a record-only request of the same or a weaker mode; a gap lock covers neither record nor ordinary', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    expect(t.lockRecord(a, 1, 1, KEY, 0, 3, 'X', LOCK_ORDINARY)).toBe(GRANTED);
    expect(t.lockRecord(a, 1, 1, KEY, 0, 3, 'S', LOCK_GAP)).toBe(GRANTED);
    expect(t.lockRecord(a, 1, 1, KEY, 0, 3, 'X', LOCK_REC_NOT_GAP)).toBe(GRANTED);
    expect(t.inUse).toBe(1);
    expect(t.lockRecord(a, 1, 1, Uint8Array.of(7), 0, 1, 'X', LOCK_GAP)).toBe(GRANTED);
    expect(t.lockRecord(a, 1, 1, Uint8Array.of(7), 0, 1, 'X', LOCK_REC_NOT_GAP)).toBe(GRANTED);
    expect(t.lockRecord(a, 1, 1, Uint8Array.of(7), 0, 1, 'X', LOCK_ORDINARY)).toBe(GRANTED);
    expect(t.inUse).toBe(4);
    // an insert intention that waits for nobody leaves no lock record
    expect(t.lockRecord(a, 1, 1, Uint8Array.of(8), 0, 1, 'X', LOCK_INSERT_INTENTION)).toBe(GRANTED);
    expect(t.inUse).toBe(4);
    t.checkValid();
  });
});

describe('moving locks when the index changes', () => {
  it('a new entry inherits the gap locks on its successor; a removed one gives its locks to its successor as gaps', () => {
    const t = LockTable.create({ capacity: 16, transactions: 4 });
    const a = t.begin(1);
    const b = t.begin(2);
    const next = Uint8Array.of(20);
    const mid = Uint8Array.of(15);
    expect(t.lockRecord(a, 1, 1, next, 0, 1, 'S', LOCK_ORDINARY)).toBe(GRANTED);
    expect(t.lockRecord(b, 1, 1, next, 0, 1, 'X', LOCK_REC_NOT_GAP, true)).toBe(MUST_WAIT);
    // 15 goes in before 20: a's next-key lock on 20 gives it a gap lock on 15
    t.inheritFromNext(1, 1, mid, next);
    expect(t.lockRecord(b, 1, 1, mid, 0, 1, 'X', LOCK_INSERT_INTENTION, true)).toBe(MUST_WAIT);
    expect(t.lockRecord(b, 1, 1, mid, 0, 1, 'X', LOCK_REC_NOT_GAP, true)).toBe(GRANTED);
    // 20 goes away: a's lock on it becomes a gap lock on the supremum
    t.inheritToGap(1, 1, next, () => null);
    expect(t.lockRecord(b, 1, 1, null, 0, 0, 'X', LOCK_INSERT_INTENTION, true)).toBe(MUST_WAIT);
    expect(t.lockRecord(b, 1, 1, next, 0, 1, 'X', LOCK_ORDINARY, true)).toBe(GRANTED);
    t.end(a);
    expect(t.lockRecord(b, 1, 1, null, 0, 0, 'X', LOCK_INSERT_INTENTION, true)).toBe(GRANTED);
    t.checkValid();
  });
});
