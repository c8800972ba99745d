import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchPackages, parseBennyCases, parseMarkdownTables } from '../src/collect.js';
import { appRoot } from '../src/results-dir.js';

// What a benny suite and a package bench print (shape of their real output).
const OUTPUT = `Running "nextUint32" suite...
Progress: 50%

  xoshiro128**:
    1 000 ops/s, ±9.00%\u001b[2K\u001b[1A\u001b[2K\u001b[GProgress: 100%

  xoshiro128**:
    1 234 567 ops/s, ±0.85%   | fastest

  pure-rand xoroshiro128+:
    456,789.5 ops/s, ±1.20%   | slowest, 63% slower

Finished 2 cases!
Running "nextBelow" suite...

  xoshiro128**:
    99 ops/s, ±2%
### nextUint32

| case | ns/call | speed vs pure-rand |
|---|---:|---:|
| xoshiro128** | 0.81 | 2.70× |
| pure-rand | 2.19 | 1.00× |

done
`;

describe('collect', () => {
  it('reads benny cases per suite, the last repaint of each, thousands separated by spaces', () => {
    expect(parseBennyCases(OUTPUT)).toEqual([
      { suite: 'nextUint32', name: 'xoshiro128**', opsPerSec: 1234567, marginPct: 0.85 },
      { suite: 'nextUint32', name: 'pure-rand xoroshiro128+', opsPerSec: 456789.5, marginPct: 1.2 },
      { suite: 'nextBelow', name: 'xoshiro128**', opsPerSec: 99, marginPct: 2 },
    ]);
  });
  it('reads markdown tables without their separator row', () => {
    expect(parseMarkdownTables(OUTPUT)).toEqual([
      {
        header: ['case', 'ns/call', 'speed vs pure-rand'],
        rows: [
          ['xoshiro128**', '0.81', '2.70×'],
          ['pure-rand', '2.19', '1.00×'],
        ],
      },
    ]);
  });
  it('finds the workspace packages that have a bench script', () => {
    const names = benchPackages(join(appRoot(), '..', '..')).map(([n]) => n);
    expect(names).toEqual(
      expect.arrayContaining(['@enginekit/prng', '@enginekit/buffer-pool', '@enginekit/mutex-atomics']),
    );
    // the engine's own load and scan benchmarks run as this app's `micro load` and `micro scan`
    expect(names).toContain('@enginekit/bench');
    expect(names).not.toContain('@enginekit/engine');
  });
});
