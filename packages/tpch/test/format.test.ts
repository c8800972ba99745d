import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CURRENT_DAY_OFFSET, dateText, TOTAL_DAYS } from '../src/internal/dates.js';
import { TblWriter } from '../src/index.js';
import { sparseOrderKey } from '../src/internal/orders.js';

const dir = mkdtempSync(join(tmpdir(), 'tpch-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes with a TblWriter (small buffer, so flushes happen) and returns the file's text. */
function written(f: (w: TblWriter) => void): string {
  const path = join(dir, 'w.tbl');
  const w = new TblWriter(path, 1024);
  f(w);
  w.close();
  return readFileSync(path, 'latin1');
}

describe('TblWriter (dbgen print.c formats)', () => {
  it('money is [-]dollars.cc from integer cents, like DT_MONEY', () => {
    expect(
      written((w) =>
        [0, 5, 99, 100, 90100, -1, -28384, 99999999].forEach((c) => {
          w.money(c);
        }),
      ),
    ).toBe('0.00|0.05|0.99|1.00|901.00|-0.01|-283.84|999999.99|');
  });

  it('integers and zero-padded numbers agree with toString/padStart for any value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { maxLength: 200 }), (xs) => {
        expect(
          written((w) =>
            xs.forEach((x) => {
              w.int(x);
            }),
          ),
        ).toBe(xs.map((x) => `${x}|`).join(''));
      }),
      { numRuns: 30 },
    );
    expect(
      written((w) =>
        [1, 951, 1000000000].forEach((x) => {
          w.padded(x, 9);
        }),
      ),
    ).toBe('0000000010000009511000000000');
  });

  it('long byte runs bypass the buffer without reordering', () => {
    const big = new Uint8Array(5000).fill(0x61);
    const text = written((w) => {
      w.ascii('head');
      w.bytes(big);
      w.sep();
      w.end();
    });
    expect(text).toBe(`head${'a'.repeat(5000)}|\n`);
  });
});

describe('dbgen calendar', () => {
  it('spans 1992-01-01 … 1998-12-31 with leap days, CURRENTDATE = 1995-06-17', () => {
    expect(TOTAL_DAYS).toBe(2557);
    expect(dateText(0)).toBe('1992-01-01');
    expect(dateText(59)).toBe('1992-02-29');
    expect(dateText(60)).toBe('1992-03-01');
    expect(dateText(TOTAL_DAYS - 1)).toBe('1998-12-31');
    expect(dateText(CURRENT_DAY_OFFSET)).toBe('1995-06-17');
    expect(() => dateText(TOTAL_DAYS)).toThrow(
      new RangeError('offset must be an integer in [0, 2557), got 2557'),
    );
  });
});

describe('sparse order keys (mk_sparse)', () => {
  it('keep the low 3 bits and leave two zero bits above them', () => {
    expect([1, 2, 7, 8, 9, 15, 16, 15000].map(sparseOrderKey)).toEqual([1, 2, 7, 32, 33, 39, 64, 60000]);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 45n }), (i) => {
        // dbgen: ((i >> 3) << 2 | seq) << 3 | (i & 7), with seq = 0
        const k = sparseOrderKey(Number(i));
        expect(k).toBe(Number((((i >> 3n) << 2n) << 3n) | (i & 7n)));
        expect(Math.floor(k / 8) % 4).toBe(0);
      }),
    );
  });
});
