import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import { experimentCommand, reportCommand, tourCommand } from '../src/commands.js';
import { renderReport } from '../src/report/html.js';
import { loadResults } from '../src/report/load.js';
import { chartSvg, expectedPoints } from '../src/report/svg.js';
import type { Chart } from '../src/result.js';

// No MariaDB in the unit suite, installed or not.
process.env.ENGINEKIT_BENCH_MARIADB = '0';

const bars: Chart = {
  id: 'b',
  kind: 'bars',
  title: 'bars <&>',
  xLabel: 'x',
  yLabel: 'y',
  series: [
    {
      name: 'one',
      points: [
        { x: 'a', y: 1 },
        { x: 'b', y: 2, low: 1, high: 3 },
      ],
    },
    {
      name: 'two',
      points: [
        { x: 'a', y: 4 },
        { x: 'b', y: 0 },
      ],
    },
  ],
};
const lines: Chart = {
  id: 'l',
  kind: 'lines',
  title: 'lines',
  xLabel: 'workers',
  yLabel: 'ops',
  series: [{ name: 's', points: [1, 2, 4].map((x) => ({ x, y: x * 3 })) }],
};

const count = (text: string, re: RegExp): number => (text.match(re) ?? []).length;

describe('chartSvg', () => {
  it('draws one bar per point and escapes text', () => {
    const svg = chartSvg(bars);
    expect(count(svg, /<rect class="bar"/g)).toBe(4);
    expect(svg).toContain('data-points="4"');
    expect(expectedPoints(bars)).toBe(4);
    expect(svg).toContain('aria-label="bars &lt;&amp;&gt;"');
    expect(count(svg, /class="whisker"/g)).toBe(1);
  });
  it('draws one circle per point and one curve per series', () => {
    const svg = chartSvg(lines);
    expect(count(svg, /<circle class="point"/g)).toBe(3);
    expect(count(svg, /<polyline class="curve"/g)).toBe(1);
  });
});

describe('report from real results', () => {
  it('has an <svg> per chart with the right number of bars or points, and no external resource', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginekit-bench-report-'));
    try {
      const file = join(dir, 'prng.json');
      await experimentCommand(
        ['prng-bias', '--quick', '--json', file],
        () => {},
        () => {},
      );
      const results = loadResults([file]);
      const html = renderReport(results);
      const charts = results.flatMap((r) => r.charts);
      expect(charts.length).toBeGreaterThan(0);
      for (const c of charts) {
        const m = html.match(new RegExp(`<svg[^>]*data-chart="${c.id}"[^>]*>([\\s\\S]*?)</svg>`));
        expect(m, c.id).not.toBeNull();
        const body = m?.[1] ?? '';
        const drawn =
          c.kind === 'bars' ? count(body, /<rect class="bar"/g) : count(body, /<circle class="point"/g);
        expect(drawn, c.id).toBe(expectedPoints(c));
      }
      for (const t of results[0]?.tables ?? []) {
        const m = html.match(new RegExp(`<table data-table="${t.id}">([\\s\\S]*?)</table>`));
        expect(count(m?.[1] ?? '', /<tr>/g), t.id).toBe(t.rows.length + 1);
      }
      expect(html).not.toMatch(/<script|<link|src="http|href="http/);
      const out = join(dir, 'report.html');
      reportCommand([file, '--out', out], () => {});
      expect(readFileSync(out, 'utf8')).toContain('data-experiment="prng-bias"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that is not a result, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'enginekit-bench-bad-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(file, '{"schema":"other"}');
      expect(() => loadResults([file])).toThrow(/bad\.json: not an enginekit-bench result \(schema/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects unknown experiments and bad options', async () => {
    await expect(
      experimentCommand(
        ['nope'],
        () => {},
        () => {},
      ),
    ).rejects.toThrow(UsageError);
    await expect(
      experimentCommand(
        ['prng-bias', '--sf', '-1'],
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/--sf must be a positive number/);
    await expect(
      experimentCommand(
        ['prng-bias', '--bogus'],
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/unknown option --bogus/);
    await expect(
      tourCommand(
        ['prng-bias'],
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/unexpected argument prng-bias/);
  });
});
