import { describe, expect, it } from 'vitest';
import { joinBuffers, sizeBytes } from '../src/experiments/bka-q3/measure.js';
import { expectShape, quick, table } from './helpers.js';

describe('bka-q3 --quick', () => {
  it('through SQL, IO-bound BKA reads fewer pages than the baseline; a bigger buffer, fewer MRR rounds', async () => {
    const r = await quick('bka-q3');
    expectShape(r);
    const time = table(r, 'time').rows;
    // what EXPLAIN FORMAT=JSON says the lineitem join ran as
    expect(time.map((x) => String(x.ran).split(',')[0])).toEqual([
      'nested loops',
      'BKA',
      'BKA',
      'BKA',
      'BKAH',
    ]);
    expect(time[1]?.ekPages as number).toBeLessThan(time[0]?.ekPages as number);
    expect(time[3]?.ekPages as number).toBeLessThan(time[0]?.ekPages as number);
    expect(time[3]?.ekModeledS as number).toBeLessThan(time[0]?.ekModeledS as number);
    const sweep = table(r, 'join-buffer-sweep').rows;
    expect(sweep[0]?.ekInit as number).toBeGreaterThan(sweep[sweep.length - 1]?.ekInit as number);
    // the mechanism table: the package path's own BKA over the same scale
    const mech = table(r, 'mechanism').rows;
    expect(mech[3]?.pages as number).toBeLessThan(mech[0]?.pages as number);
    expect(r.claims.filter((c) => c.holds !== null).every((c) => c.holds === true)).toBe(true);
  });
});

describe('reading the join buffers from EXPLAIN FORMAT=JSON', () => {
  it("takes enginekit's bytes and MariaDB's KiB/MiB text", () => {
    expect(sizeBytes('1536KiB')).toBe(1536 * 1024);
    expect(sizeBytes('6MiB')).toBe(6 * 1024 * 1024);
    expect(sizeBytes('2Mb')).toBe(2 * 1024 * 1024);
    expect(sizeBytes(524288)).toBe(524288);
    expect(sizeBytes('lots')).toBeNull();
    // MariaDB 10.11.19's shape (trimmed), recorded for the join post's Q3 at SF 0.1 with the
    // 6M buffers under the 2M limit
    const maria = {
      query_block: {
        nested_loop: [
          { table: { table_name: 'customer', access_type: 'ALL' } },
          {
            'block-nl-join': {
              table: { table_name: 'orders', access_type: 'ref' },
              buffer_type: 'flat',
              buffer_size: '512KiB',
              join_type: 'BKA',
            },
          },
          {
            'block-nl-join': {
              table: { table_name: 'lineitem', access_type: 'ref' },
              buffer_type: 'incremental',
              buffer_size: '1536KiB',
              join_type: 'BKA',
            },
          },
        ],
      },
    };
    expect(joinBuffers(JSON.stringify(maria))).toEqual({
      orders: { bytes: 512 * 1024, join: 'BKA' },
      lineitem: { bytes: 1536 * 1024, join: 'BKA' },
    });
    const engine = {
      query_block: {
        nested_loop: [
          { table: { table_name: 'customer' } },
          {
            table: {
              table_name: 'lineitem',
              using_join_buffer: 'Using join buffer (incremental, BKAH join); Key-ordered Rowid-ordered scan',
              join_buffer_size: 1572864,
            },
          },
        ],
      },
    };
    expect(joinBuffers(JSON.stringify(engine))).toEqual({ lineitem: { bytes: 1572864, join: 'BKAH' } });
  });
});
