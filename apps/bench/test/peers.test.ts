import { describe, expect, it } from 'vitest';
import { expectShape, quick, table } from './helpers.js';

describe('peers --quick', () => {
  it("enginekit and SQLite give DuckDB's answers for Q1, Q3, Q6, Q10 and the two variants", async () => {
    const r = await quick('peers');
    expectShape(r);
    const rows = table(r, 'queries').rows;
    expect(rows.map((x) => x.query)).toEqual([
      'Q1',
      'Q3',
      'Q6',
      'Q10',
      'q3-force-index',
      'q10-date-add',
      'lineitem scan',
    ]);
    for (const row of rows) {
      expect(row.engineMatches).toBe(true);
      expect(row.sqliteMatches).toBe(true);
    }
    expect(table(r, 'load').rows).toHaveLength(3);
  });
});
