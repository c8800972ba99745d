import { describe, expect, it } from 'vitest';
import type { Table } from '../src/result.js';
import { formatTable } from '../src/text-table.js';
import { outputWidth, wrapText } from '../src/text-wrap.js';

const WIDTHS = [80, 100, 120];
const longest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

// The shape of the IO counters tables: a label column, then a dozen wide numeric columns.
const counters: Table = {
  id: 'counters',
  title:
    'IO-bound counters of Q3 (SF 0.01, cold pool at 8 % of the data): the post, ours (package path), MariaDB',
  columns: [
    { key: 'counter', label: 'counter' },
    ...Array.from({ length: 12 }, (_, i) => ({
      key: `c${i}`,
      label: i % 2 === 0 ? `ours BKAH 6M (level 8), limit raised, run ${i}` : `MariaDB ${i}`,
    })),
  ],
  rows: ['Innodb_buffer_pool_read_requests', 'Handler_read_key', 'Handler_mrr_init', 'Select_scan'].map(
    (counter, r) => ({
      counter,
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`c${i}`, (r + 1) * 1_234_567 * (i + 1)])),
    }),
  ),
  note: 'Ours: i_o_orderdate range → orders by primary key (DS-MRR when on, rowid-ordered) → lineitem, customer, nation by key, over 777 pages of 16 KiB, pool of 62 frames; MariaDB: the same statement on its own files, cold. '.repeat(
    2,
  ),
};

// A text column with long sentences and a first column of long labels.
const prose: Table = {
  id: 'prose',
  title: 'Query time per configuration',
  columns: [
    { key: 'config', label: 'configuration of the join buffers and the MRR buffer' },
    { key: 'ms', label: 'ms', digits: 1 },
    { key: 'why', label: 'what happened' },
    { key: 'ok', label: 'answers agree' },
  ],
  rows: [
    {
      config: 'BKAH 6M (level 8), join_buffer_space_limit raised to 64M',
      ms: 1234.5,
      why: 'the hash join buffer held every driving row, so lineitem was read once in key order and the refills stayed at zero',
      ok: true,
    },
    {
      config: 'baseline',
      ms: 7.25,
      why: 'nested loops: one B+tree lookup per order',
      ok: null,
    },
  ],
};

// Fits in 80 columns as it is.
const small: Table = {
  id: 'small',
  title: 'Dives per root record',
  columns: [
    { key: 'g', label: 'generator' },
    { key: 'n', label: 'dives' },
  ],
  rows: [
    { g: 'page_rnd', n: 80 },
    { g: 'xoshiro128**', n: 27 },
  ],
};

describe('formatTable at a terminal width', () => {
  it('no line is wider than 80, 100 or 120 columns, however wide the table', () => {
    for (const t of [counters, prose, small]) {
      for (const w of WIDTHS) {
        const text = formatTable(t, w);
        expect(longest(text), `${t.id} at ${w}`).toBeLessThanOrEqual(w);
      }
    }
  });

  it('a table that fits is one table, as wide as its content', () => {
    for (const w of WIDTHS)
      expect(formatTable(small, w)).toBe(
        [
          'Dives per root record',
          'generator     dives',
          '------------  -----',
          'page_rnd         80',
          'xoshiro128**     27',
        ].join('\n'),
      );
    expect(formatTable(small)).toBe(formatTable(small, 80));
  });

  it('a wide table is split into parts that each start with the row labels and keep every figure', () => {
    for (const w of WIDTHS) {
      const text = formatTable(counters, w);
      const parts = text
        .split('\n')
        .filter((l) => /^IO-bound counters .*\(\d+ of \d+\)$/.test(l) || /\(\d+ of \d+\)$/.test(l));
      expect(parts.length, `parts at ${w}`).toBeGreaterThan(1);
      // every part's header row starts with the label column
      const headers = text.split('\n').filter((l) => l.startsWith('counter '));
      expect(headers.length).toBe(parts.length);
      for (const row of counters.rows)
        for (const c of counters.columns.slice(1)) {
          const v = (row[c.key] as number).toLocaleString('en-US');
          expect(text, `${c.key} at ${w}`).toContain(v);
        }
      for (const word of counters.columns[1]!.label.split(' ')) expect(text).toContain(word);
    }
  });

  it('when the first column repeats, the columns that tell the rows apart start every part', () => {
    const sysbench: Table = {
      id: 'tps',
      title: 'sysbench',
      columns: [
        { key: 'test', label: 'test' },
        { key: 'threads', label: 'threads' },
        ...Array.from({ length: 10 }, (_, i) => ({ key: `m${i}`, label: `measure number ${i}`, digits: 1 })),
      ],
      rows: ['oltp_point_select', 'oltp_read_only'].flatMap((test) =>
        [1, 4].map((threads) => ({
          test,
          threads,
          ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`m${i}`, 12_345.6 * (i + threads)])),
        })),
      ),
    };
    for (const w of WIDTHS) {
      const lines = formatTable(sysbench, w).split('\n');
      const headers = lines.filter((l) => l.startsWith('test '));
      expect(headers.length, `at ${w}`).toBeGreaterThan(1);
      for (const h of headers) expect(h).toMatch(/^test +threads /);
      expect(lines.filter((l) => /^oltp_read_only +4 /.test(l)).length).toBe(headers.length);
    }
  });

  it('long text cells wrap inside their column: every word is kept, in order', () => {
    for (const w of WIDTHS) {
      const text = formatTable(prose, w);
      const words = text.split(/\s+/);
      for (const row of prose.rows) {
        let at = 0;
        for (const word of String(row.why).split(' ')) {
          const i = words.indexOf(word, at);
          expect(i, `"${word}" at ${w}`).toBeGreaterThanOrEqual(0);
          at = i;
        }
      }
      expect(text).toContain('1,234.5');
      expect(text).toContain('yes');
      expect(text).toContain('—');
    }
  });
});

describe('wrapText and outputWidth', () => {
  it('wraps at spaces, cuts only words longer than the line, keeps the indent in the width', () => {
    expect(wrapText('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('one two three four', 9, '  ')).toEqual(['one two', '  three', '  four']);
    expect(wrapText('a\n\nb', 10)).toEqual(['a', '', 'b']);
    for (const line of wrapText('x'.repeat(50).concat(' y'.repeat(40)), 13, '    '))
      expect(line.length).toBeLessThanOrEqual(13);
  });
  it('is the terminal width on a terminal and 100 elsewhere', () => {
    expect(outputWidth({ isTTY: true, columns: 132 })).toBe(132);
    expect(outputWidth({ isTTY: false, columns: 132 })).toBe(100);
    expect(outputWidth({})).toBe(100);
  });
});
