import { describe, expect, it } from 'vitest';
import { expectShape, quick, table } from './helpers.js';

describe('mrr-q10 --quick', () => {
  it('through SQL, DS-MRR counts its scan, needs no refill at 4M and reads fewer pages in less modeled time', async () => {
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
    const io = table(r, 'time-io').rows;
    expect(io[io.length - 1]?.ekModeledS as number).toBeLessThan(io[0]?.ekModeledS as number);
    // the mechanism table: the package path's own DS-MRR over the same scale
    const mech = table(r, 'mechanism').rows;
    expect(mech[mech.length - 1]?.pages as number).toBeLessThan(mech[0]?.pages as number);
    // every claim that can be checked holds: refills fall to 0, fewer pages, same answers
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
    expect(r.tables.find((t) => t.id === 'counters-io')?.columns.some((c) => c.key.startsWith('m_'))).toBe(
      false,
    );
  });
});
