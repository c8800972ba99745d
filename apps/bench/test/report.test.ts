import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import { experimentCommand, reportCommand } from '../src/commands.js';
import { tourCommand } from '../src/tour.js';
import { renderReport } from '../src/report/html.js';
import { loadResults } from '../src/report/load.js';
import { chartSvg, expectedPoints } from '../src/report/svg.js';
import { POSTS } from '../src/posts.js';
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

describe('bars with long labels and values far apart', () => {
  const long: Chart = {
    id: 'long',
    kind: 'bars',
    title: 'labels',
    xLabel: 'statement',
    yLabel: 's',
    series: [
      {
        name: 'ours',
        points: [
          { x: 'ADD COLUMN d (copy), expand_fast_index_creation OFF', y: 57.1 },
          { x: 'ADD COLUMN d (copy), expand_fast_index_creation ON, 1M', y: 0.2 },
          { x: 'nothing to do', y: 0 },
        ],
      },
    ],
  };
  const svg = chartSvg(long);
  it('keeps every category label whole (wrapped, never cut), so no two share a label', () => {
    const labels = [...svg.matchAll(/<text class="category"[^>]*>(.*?)<\/text>/g)].map((m) =>
      [...(m[1] ?? '').matchAll(/<tspan[^>]*>(.*?)<\/tspan>/g)].map((t) => t[1]).join(' '),
    );
    expect(labels).toEqual(long.series[0]!.points.map((p) => p.x));
    expect(svg).not.toContain('…');
  });
  it('draws a non-zero value at least 2 px long and a zero as nothing', () => {
    const widths = [...svg.matchAll(/<rect class="bar"[^>]*data-value="([^"]+)"[^>]*width="([^"]+)"/g)].map(
      (m) => [Number(m[1]), Number(m[2])],
    );
    expect(widths).toHaveLength(3);
    for (const [v, w] of widths) expect(v === 0 ? w === 0 : w! >= 2).toBe(true);
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
      // nothing to fetch: no script, stylesheet, image or font; links to the posts are plain anchors
      expect(html).not.toMatch(/<script|<link|<img|src=|url\(/);
      // the post cited by title, author, date and address, never by a file name
      const post = POSTS.randomSelections;
      expect(html).toContain(
        `“${post.title}”, ${post.author}, ${post.date}, ${post.site}: <a href="${post.url}">${post.url}</a>`,
      );
      expect(html).not.toMatch(/\d{3}_[0-9a-f]{16}\.txt|shared\/seeds/);
      // the run count is the real one: a quick run is not called a median of several runs
      expect(html).not.toMatch(/several runs|median of 1 /);
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
