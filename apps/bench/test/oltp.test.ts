import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSBENCH_ABSENT } from '../src/experiments/oltp/measure.js';
import { onPath, parseSysbench } from '../src/internal/sysbench.js';
import { expectShape, quick } from './helpers.js';

// The summary sysbench 1.0.20 prints after `oltp_read_write ... run` (figures made up, layout
// and wording as the tool prints them).
const SAMPLE = `sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 4
Initializing random number generator from current time


Initializing worker threads...

Threads started!

SQL statistics:
    queries performed:
        read:                            39410
        write:                           11243
        other:                           5633
        total:                           56286
    transactions:                        2810   (280.47 per sec.)
    queries:                             56286  (5617.93 per sec.)
    ignored errors:                      13     (1.30 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          10.0174s
    total number of events:              2810

Latency (ms):
         min:                                    5.02
         avg:                                   14.25
         max:                                   97.61
         95th percentile:                       23.52
         sum:                                40042.88

Threads fairness:
    events (avg/stddev):           702.5000/4.15
    execution time (avg/stddev):   10.0107/0.00
`;

describe('sysbench output', () => {
  it('reads TPS, QPS (the total line), p95 and the ignored errors', () => {
    expect(parseSysbench(SAMPLE)).toEqual({ tps: 280.47, qps: 5617.93, p95Ms: 23.52, errors: 13 });
  });

  it('names the missing line when the summary is cut short', () => {
    const cut = SAMPLE.slice(0, SAMPLE.indexOf('    queries:  '));
    expect(() => parseSysbench(cut)).toThrow(/no "queries:" line/);
    expect(() => parseSysbench('FATAL: unable to connect')).toThrow(/no "transactions:" line/);
  });
});

describe('oltp without sysbench', () => {
  it('records that it was skipped and fails nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'enginekit-oltp-path-'));
    const saved = process.env.PATH;
    process.env.PATH = empty;
    try {
      expect(onPath('sysbench')).toBeUndefined();
      const r = await quick('oltp');
      expectShape(r);
      expect(r.tables).toEqual([]);
      expect(r.charts).toEqual([]);
      expect(r.config.skipped).toBe(SYSBENCH_ABSENT);
      expect(r.claims[0]?.ours).toBe(SYSBENCH_ABSENT);
    } finally {
      process.env.PATH = saved;
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
