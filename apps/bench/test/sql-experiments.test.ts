import { describe, expect, it } from 'vitest';
import { expectShape, quick, table } from './helpers.js';

describe('mrr-q10 --quick', () => {
  it('rowid refills follow the buffer and fall to 0 once it holds every row id; MRR reads fewer pages', async () => {
    const r = await quick('mrr-q10');
    expectShape(r);
    const counters = table(r, 'counters-io').rows;
    const refills = counters.find((x) => x.counter === 'Handler_mrr_rowid_refills') as Record<
      string,
      unknown
    >;
    const init = counters.find((x) => x.counter === 'Handler_mrr_init') as Record<string, unknown>;
    expect(init.ek_mrr_off).toBe(0);
    expect(init.ek_mrr_4M).toBe(1);
    expect(refills.ek_mrr_4M).toBe(0);
    const pages = counters.find((x) => x.counter === 'Innodb_pages_read') as Record<string, number>;
    expect(pages.ek_mrr_4M).toBeLessThan(pages.ek_mrr_off as number);
    // every claim that can be checked holds: refills as DS-MRR's buffer arithmetic, fewer pages, same answers
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
    expect(r.tables.find((t) => t.id === 'counters-io')?.columns.some((c) => c.key.startsWith('m_'))).toBe(
      false,
    );
  });
});

describe('bka-q3 --quick', () => {
  it('IO-bound BKA reads fewer pages than the baseline; the space limit cuts a 6M buffer to 2M', async () => {
    const r = await quick('bka-q3');
    expectShape(r);
    const time = table(r, 'time').rows;
    expect(time.map((x) => String(x.ran).split(',')[0])).toEqual(['NLJ', 'BKA', 'BKA', 'BKA', 'BKAH']);
    expect(time[1]?.pkgPages as number).toBeLessThan(time[0]?.pkgPages as number);
    expect(time[3]?.pkgPages as number).toBeLessThan(time[0]?.pkgPages as number);
    expect(String(time[2]?.ran)).toContain('2048K');
    const sweep = table(r, 'join-buffer-sweep').rows;
    expect(sweep[0]?.fills as number).toBeGreaterThan(sweep[sweep.length - 1]?.fills as number);
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});

describe('index-build --quick', () => {
  it("every mechanics builds the whole index; the engine runs the post's ALTER statements", async () => {
    const r = await quick('index-build');
    expectShape(r);
    for (const row of table(r, 'mechanics').rows) expect(row.records).toBe(20_000);
    const alter = table(r, 'alter').rows;
    for (const row of alter.slice(0, 3)) expect(row.engine as number).toBeGreaterThan(0);
    expect(alter.every((x) => x.maria === null)).toBe(true);
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});

describe('peers --quick', () => {
  it("enginekit and SQLite give DuckDB's answers for Q1, Q3, Q6, Q10 and the two variants", async () => {
    const r = await quick('peers');
    expectShape(r);
    const rows = table(r, 'queries').rows;
    expect(rows.map((x) => x.query)).toEqual(['Q1', 'Q3', 'Q6', 'Q10', 'q3-force-index', 'q10-date-add']);
    for (const row of rows) {
      expect(row.engineMatches).toBe(true);
      expect(row.sqliteMatches).toBe(true);
    }
    expect(table(r, 'load').rows).toHaveLength(3);
  });
});
