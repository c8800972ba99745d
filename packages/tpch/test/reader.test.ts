import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ColumnVector,
  parseTbl,
  readTbl,
  readTblBatches,
  TblFormatError,
  type TableDef,
  TPCH_SCHEMA,
} from '../src/index.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dir = mkdtempSync(join(tmpdir(), 'tpch-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function text(col: ColumnVector, i: number): string {
  if (!('bytes' in col)) throw new TypeError(`${col.name} is not text`);
  return new TextDecoder().decode(col.bytes.subarray(col.offsets[i]!, col.offsets[i + 1]!));
}

const lineitemRow =
  '1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|';

describe('parseTbl', () => {
  it('parses a dbgen lineitem row into exact typed values', () => {
    const d = parseTbl(enc(`${lineitemRow}\n`), TPCH_SCHEMA.lineitem);
    expect(d.rows).toBe(1);
    const v = (name: string): number => {
      const c = d.columns.find((x) => x.name === name)!;
      if (!('values' in c)) throw new TypeError(name);
      return c.values[0]!;
    };
    expect(v('l_orderkey')).toBe(1);
    expect(v('l_quantity')).toBe(1700); // DECIMAL(15,2) scaled by 100
    expect(v('l_extendedprice')).toBe(2471035);
    expect(v('l_discount')).toBe(4);
    expect(v('l_shipdate')).toBe(Date.UTC(1996, 2, 13) / 86_400_000);
    expect(text(d.columns[13]!, 0)).toBe('DELIVER IN PERSON');
    expect(text(d.columns[15]!, 0)).toBe('egular courts above the');
  });

  it('accepts the trailing | as optional, and CRLF line ends', () => {
    const a = parseTbl(enc('0|AFRICA|x y |\n1|AMERICA|z|\n'), TPCH_SCHEMA.region);
    const b = parseTbl(enc('0|AFRICA|x y \r\n1|AMERICA|z'), TPCH_SCHEMA.region);
    expect(b).toEqual(a);
    expect(text(a.columns[2]!, 0)).toBe('x y '); // trailing spaces are data
  });

  it('keeps an empty last field with or without the trailing |', () => {
    const a = parseTbl(enc('0|AFRICA||\n'), TPCH_SCHEMA.region);
    const b = parseTbl(enc('0|AFRICA|\n'), TPCH_SCHEMA.region);
    expect(a.rows).toBe(1);
    expect(b).toEqual(a);
    expect(text(a.columns[2]!, 0)).toBe('');
  });

  it('reads -0 and -0.00 as 0, never as a negative zero', () => {
    const d = parseTbl(enc('-0|1|O|-0.00|1996-01-02|5-LOW|Clerk#1|0|c|\n'), TPCH_SCHEMA.orders);
    for (const c of [d.columns[0]!, d.columns[3]!]) {
      if (!('values' in c)) throw new TypeError('numeric column expected');
      expect(Object.is(c.values[0], 0)).toBe(true);
    }
  });

  it('counts characters, not bytes, against CHAR(n)/VARCHAR(n)', () => {
    const name = 'é'.repeat(25);
    const d = parseTbl(enc(`0|${name}|c|\n`), TPCH_SCHEMA.region);
    expect(text(d.columns[1]!, 0)).toBe(name);
  });
});

// The malformed corpus: one line each, one exact message each.
const corpus: ReadonlyArray<readonly [string, TableDef, string, string]> = [
  [
    'short line',
    TPCH_SCHEMA.region,
    '0|AFRICA|ok|\n1|AMERICA\n',
    "bad.tbl:2: column r_comment VARCHAR(152): short line: 2 of 3 fields: '1|AMERICA'",
  ],
  [
    'empty line',
    TPCH_SCHEMA.region,
    '0|AFRICA|ok|\n\n',
    "bad.tbl:2: column r_name CHAR(25): short line: 1 of 3 fields: ''",
  ],
  [
    'too many fields',
    TPCH_SCHEMA.region,
    '0|AFRICA|ok|extra|\n',
    "bad.tbl:1: column r_comment VARCHAR(152): too many fields (expected 3): '0|AFRICA|ok|extra|'",
  ],
  [
    'bad integer',
    TPCH_SCHEMA.region,
    '0x|AFRICA|ok|\n',
    "bad.tbl:1: column r_regionkey INT: bad integer: '0x'",
  ],
  [
    'INT overflow',
    TPCH_SCHEMA.region,
    '2147483648|AFRICA|ok|\n',
    "bad.tbl:1: column r_regionkey INT: bad integer: '2147483648'",
  ],
  [
    'empty integer',
    TPCH_SCHEMA.region,
    '|AFRICA|ok|\n',
    "bad.tbl:1: column r_regionkey INT: bad integer: ''",
  ],
  [
    'bad date: no such day',
    TPCH_SCHEMA.orders,
    '1|370|O|172799.49|1995-02-29|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_orderdate DATE: bad date: '1995-02-29'",
  ],
  [
    'bad date: format',
    TPCH_SCHEMA.orders,
    '1|370|O|172799.49|1996-1-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_orderdate DATE: bad date: '1996-1-02'",
  ],
  [
    'bad date: month 13',
    TPCH_SCHEMA.orders,
    '1|370|O|172799.49|1996-13-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_orderdate DATE: bad date: '1996-13-02'",
  ],
  [
    'bad decimal: letters',
    TPCH_SCHEMA.orders,
    '1|370|O|17x799.49|1996-01-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_totalprice DECIMAL(15,2): bad decimal: '17x799.49'",
  ],
  [
    'bad decimal: scale',
    TPCH_SCHEMA.orders,
    '1|370|O|172799.495|1996-01-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_totalprice DECIMAL(15,2): bad decimal: '172799.495'",
  ],
  [
    'bad decimal: precision',
    TPCH_SCHEMA.orders,
    '1|370|O|12345678901234.00|1996-01-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_totalprice DECIMAL(15,2): bad decimal: '12345678901234.00'",
  ],
  [
    'bad decimal: lone dot',
    TPCH_SCHEMA.orders,
    '1|370|O|.|1996-01-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_totalprice DECIMAL(15,2): bad decimal: '.'",
  ],
  [
    'bad decimal: two dots',
    TPCH_SCHEMA.orders,
    '1|370|O|1.2.3|1996-01-02|5-LOW|Clerk#000000951|0|c|\n',
    "bad.tbl:1: column o_totalprice DECIMAL(15,2): bad decimal: '1.2.3'",
  ],
  [
    'over-long CHAR',
    TPCH_SCHEMA.region,
    `0|${'A'.repeat(26)}|ok|\n`,
    `bad.tbl:1: column r_name CHAR(25): too long: 26 characters, max 25: '${'A'.repeat(26)}'`,
  ],
  [
    'over-long VARCHAR',
    TPCH_SCHEMA.orders,
    `1|370|O|1.00|1996-01-02|5-LOW|Clerk#1|0|${'c'.repeat(80)}|\n`,
    `bad.tbl:1: column o_comment VARCHAR(79): too long: 80 characters, max 79: '${'c'.repeat(80)}'`,
  ],
];

describe('malformed .tbl corpus', () => {
  for (const [label, table, body, message] of corpus) {
    it(label, () => {
      let err: unknown;
      try {
        parseTbl(enc(body), table, { fileName: 'bad.tbl' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TblFormatError);
      expect((err as Error).message).toBe(message);
    });
  }

  it('non-UTF-8 text', () => {
    const bytes = new Uint8Array([...enc('0|AFR'), 0xff, 0xfe, ...enc('|ok|\n')]);
    expect(() => parseTbl(bytes, TPCH_SCHEMA.region, { fileName: 'bad.tbl' })).toThrow(
      "bad.tbl:1: column r_name CHAR(25): invalid UTF-8: 'AFR\\xff\\xfe'",
    );
  });

  it('truncated and overlong UTF-8 sequences', () => {
    for (const bad of [[0xc3], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80]]) {
      const bytes = new Uint8Array([...enc('0|'), ...bad, ...enc('|ok|\n')]);
      expect(() => parseTbl(bytes, TPCH_SCHEMA.region)).toThrow(/invalid UTF-8/);
    }
  });

  it('accepts exactly the byte strings that a fatal TextDecoder accepts (second implementation)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const bytes = fc
      .uint8Array({ maxLength: 40 })
      .map((b) => b.filter((x) => x !== 0x7c && x !== 0x0a && x !== 0x0d));
    fc.assert(
      fc.property(bytes, (b) => {
        let decoded: string | undefined;
        try {
          decoded = strict.decode(b);
        } catch {
          decoded = undefined;
        }
        const line = new Uint8Array([...enc('0|AFRICA|'), ...b, 0x0a]);
        if (decoded === undefined) {
          expect(() => parseTbl(line, TPCH_SCHEMA.region)).toThrow(/invalid UTF-8/);
        } else {
          const d = parseTbl(line, TPCH_SCHEMA.region);
          expect(text(d.columns[2]!, 0)).toBe(decoded);
        }
      }),
      { numRuns: 500 },
    );
    // well-formed multi-byte sequences, including 4-byte ones
    const chars = fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => !/[|\n\r]/.test(s));
    fc.assert(
      fc.property(chars, (s) => {
        const d = parseTbl(enc(`0|AFRICA|${s}|\n`), TPCH_SCHEMA.region);
        expect(text(d.columns[2]!, 0)).toBe(s);
      }),
      { numRuns: 300 },
    );
  });

  it('DECIMAL(15,2) and INT parsing agree with a regex + BigInt reference on any short string', () => {
    const alphabet = fc.constantFrom(...'0123456789.-+ e'.split(''));
    const field = fc.array(alphabet, { maxLength: 18 }).map((a) => a.join(''));
    const decimalRef = (v: string): number | undefined => {
      const m = /^(-?)(\d*)(?:\.(\d{1,2}))?$/.exec(v);
      if (m === null || (m[2] === '' && m[3] === undefined)) return undefined;
      const intPart = m[2]!.replace(/^0+(?=\d)/, '');
      if (intPart.length > 13) return undefined;
      const cents = BigInt(m[2] === '' ? '0' : m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
      return Number(m[1] === '-' ? -cents : cents);
    };
    const intRef = (v: string): number | undefined => {
      if (!/^-?\d{1,16}$/.test(v)) return undefined;
      const n = Number(v);
      return n >= -2147483648 && n <= 2147483647 ? n : undefined;
    };
    fc.assert(
      fc.property(field, field, (dec, int) => {
        const line = enc(`1|${int}|O|${dec}|1996-01-02|5-LOW|Clerk#1|0|c|\n`);
        const wantInt = intRef(int);
        const wantDec = decimalRef(dec);
        if (wantInt === undefined) {
          expect(() => parseTbl(line, TPCH_SCHEMA.orders)).toThrow(/o_custkey INT: bad integer/);
          return;
        }
        if (wantDec === undefined) {
          expect(() => parseTbl(line, TPCH_SCHEMA.orders)).toThrow(
            /o_totalprice DECIMAL\(15,2\): bad decimal/,
          );
          return;
        }
        const d = parseTbl(line, TPCH_SCHEMA.orders);
        const total = d.columns[3]!;
        if (!('values' in total)) throw new TypeError('decimal column expected');
        expect(total.values[0]).toBe(wantDec);
      }),
      { numRuns: 2000 },
    );
  });

  it('the error carries file, line, column and value as fields', () => {
    try {
      readTbl(write('fields.tbl', '0|AFRICA|ok|\n1|AMERICA|ok|\n2|ASIA\n'), TPCH_SCHEMA.region);
      expect.unreachable();
    } catch (e) {
      const err = e as TblFormatError;
      expect([err.file, err.line, err.column, err.value]).toEqual([
        'fields.tbl',
        3,
        'r_comment VARCHAR(152)',
        '2|ASIA',
      ]);
    }
  });
});

function write(name: string, body: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

describe('readTblBatches', () => {
  const row = fc.record({
    key: fc.integer({ min: -2147483648, max: 2147483647 }),
    name: fc
      .string({ unit: 'grapheme', maxLength: 25 })
      .filter((s) => !/[|\n\r]/.test(s) && [...s].length <= 25),
    comment: fc.string({ maxLength: 152 }).filter((s) => !/[|\n\r]/.test(s)),
  });

  it('gives the same columns for any chunk and batch size as the in-memory parser', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        (rows, chunkSize, batchRows, trailing) => {
          const body = rows.map((r) => `${r.key}|${r.name}|${r.comment}${trailing ? '|' : ''}\n`).join('');
          const whole = parseTbl(enc(body), TPCH_SCHEMA.region);
          const path = write('prop.tbl', body);
          const keys: number[] = [];
          const names: string[] = [];
          const comments: string[] = [];
          const total = readTblBatches(
            path,
            TPCH_SCHEMA.region,
            (b) => {
              expect(b.rows).toBeLessThanOrEqual(batchRows);
              for (let i = 0; i < b.rows; i++) {
                const k = b.columns[0]!;
                if (k.kind === 'int') keys.push(k.values[i]!);
                names.push(text(b.columns[1]!, i));
                comments.push(text(b.columns[2]!, i));
              }
            },
            { chunkSize, batchRows },
          );
          expect(total).toBe(rows.length);
          expect(whole.rows).toBe(rows.length);
          expect(keys).toEqual(rows.map((r) => r.key));
          expect(names).toEqual(rows.map((r) => r.name));
          expect(comments).toEqual(rows.map((r) => r.comment));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reports the right line number across chunk boundaries', () => {
    const body = `${'0|AFRICA|ok|\n'.repeat(9)}9|AFRICA|bad\xff|\n`;
    const bytes = new Uint8Array([
      ...enc('0|AFRICA|ok|\n'.repeat(9)),
      ...enc('9|AFRICA|bad'),
      0xff,
      ...enc('|\n'),
    ]);
    expect(body.length).toBeGreaterThan(0);
    const path = write('lines.tbl', bytes);
    expect(() => readTblBatches(path, TPCH_SCHEMA.region, () => {}, { chunkSize: 5, batchRows: 2 })).toThrow(
      "lines.tbl:10: column r_comment VARCHAR(152): invalid UTF-8: 'bad\\xff'",
    );
  });

  it('rejects bad options with RangeError naming them', () => {
    const path = write('opt.tbl', '0|AFRICA|ok|\n');
    expect(() => readTblBatches(path, TPCH_SCHEMA.region, () => {}, { batchRows: 0 })).toThrow(
      'batchRows must be a positive integer, got 0',
    );
    expect(() => readTblBatches(path, TPCH_SCHEMA.region, () => {}, { chunkSize: 1.5 })).toThrow(
      'chunkSize must be a positive integer, got 1.5',
    );
  });
});
